package tools

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// BenchmarkShellDecision measures the permission decision for a bash call under shellRules:
// a typical command, a nested and wrapped one, and a 1 MB one-liner (printed, never asserted).
func BenchmarkShellDecision(b *testing.B) {
	for _, c := range []struct{ name, command string }{
		{"typical", "go test ./... 2>&1 | tail -n 50"},
		{"wrapped-nested", `sudo env A=1 nice -n 5 bash -c "eval 'timeout 5 /bin/rm -rf build'"`},
		{"1MB-one-liner", "echo " + strings.Repeat("a", 1<<20)},
		{"1MB-of-commands", strings.Repeat("ls;", 1<<18)},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				decideShell(b, messages.ModeAsk, c.command)
			}
		})
	}
}
