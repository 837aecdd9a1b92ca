package actors

import (
	"strings"
	"testing"
)

func TestTaskOfTheFirstMessage(t *testing.T) {
	long := strings.Repeat("x", taskMaxBytes+50)
	for _, c := range []struct{ in, want string }{
		{"fix the parser", "fix the parser"},
		{"\n\n   fix the parser  \nthen the docs\n", "fix the parser"},
		{"", ""},
		{"  \n ", ""},
		{long, long[:taskMaxBytes] + "…"},
	} {
		if got := taskOf(c.in); got != c.want {
			t.Errorf("taskOf(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
