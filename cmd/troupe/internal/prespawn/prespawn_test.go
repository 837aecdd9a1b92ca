package prespawn

import "testing"

// Args passes every command line through but a waiting node's.
func TestArgsPassesOtherCommandLinesThrough(t *testing.T) {
	for _, args := range [][]string{nil, {"run", "hi"}, {"serve", "--ready-fd", "3"}, {"serve", AwaitArg, "x"}} {
		if got := Args(args, nil); len(got) != len(args) {
			t.Errorf("Args(%q) = %q", args, got)
		}
	}
}
