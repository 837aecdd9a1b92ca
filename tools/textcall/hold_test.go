package textcall

import "testing"

func TestHoldFrom(t *testing.T) {
	for _, c := range []struct {
		text  string
		at    int
		whole bool
	}{
		{"Let me look.", 12, false},
		{"Let me look.\n<tool_call>{\"name\":", 13, true},
		{"Reading it now <function=read_file>", 15, true},
		{"Reading it now <tool_c", 15, false}, // the next delta may complete the token
		{"a < b and [TOOL", 10, false},
		{"a < b", 5, false},         // "< b" starts no token
		{"[TOOL_CALLS][{", 0, true}, // Mistral's marker
		{"text <|python_tag|>", 5, true},
		{"", 0, false},
	} {
		at, whole := HoldFrom(c.text)
		if at != c.at || whole != c.whole {
			t.Errorf("HoldFrom(%q) = %d, %v; want %d, %v", c.text, at, whole, c.at, c.whole)
		}
	}
}
