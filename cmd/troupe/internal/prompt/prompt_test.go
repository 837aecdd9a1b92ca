package prompt

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
)

func TestTask(t *testing.T) {
	for _, c := range []struct {
		name  string
		args  []string
		stdin io.Reader
		want  string
		usage string // a usage error containing this, instead of want
	}{
		{"words", []string{"fix", "it"}, nil, "fix it", ""},
		{"words with piped context", []string{"review"}, strings.NewReader("diff\n\n"), "review\n\n<stdin>\ndiff\n</stdin>", ""},
		{"words with empty stdin", []string{"review"}, strings.NewReader(" \n"), "review", ""},
		{"stdin only", nil, strings.NewReader("  do it\n"), "do it", ""},
		{"dash reads stdin", []string{"-"}, strings.NewReader("do it"), "do it", ""},
		{"no task, no stdin", nil, nil, "", "no task: give it as arguments"},
		{"empty stdin", nil, strings.NewReader("\n"), "", "stdin was empty"},
		{"blank words", []string{" "}, nil, "", "the task is empty"},
		{"binary", nil, strings.NewReader("a\x00b"), "", "NUL byte at offset 1"},
		{"not utf-8", nil, strings.NewReader("\xff\xfe"), "", "not UTF-8"},
		{"too large", nil, strings.NewReader(strings.Repeat("x", stdinLimit+1)), "", "more than 256 KiB"},
	} {
		got, err := Task(c.args, c.stdin, &bytes.Buffer{})
		if c.usage != "" {
			var ce *clierr.Error
			if !errors.As(err, &ce) || ce.Code != clierr.Usage || !strings.Contains(ce.Msg, c.usage) {
				t.Errorf("%s: got %q, %v; want a usage error with %q", c.name, got, err, c.usage)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}
