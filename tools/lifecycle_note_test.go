package tools

import "testing"

func TestWithoutRepairNote(t *testing.T) {
	note := repairNote([]Repair{{Kind: RepairArgAlias, Before: "file_path", After: "path"}})
	for _, c := range []struct{ in, want string }{
		{note + "\n     1\talpha\n", "     1\talpha\n"},
		{note, ""},
		{"     1\tnote: your call was repaired (x)\n", "     1\tnote: your call was repaired (x)\n"},
		{"plain\n", "plain\n"},
	} {
		if got := WithoutRepairNote(c.in); got != c.want {
			t.Errorf("WithoutRepairNote(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
