package prespawn

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestAsksHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--model", "x", "fix it"}, false},
		{[]string{"--help"}, true},
		{[]string{"--model", "x", "-h"}, true},
		{[]string{"--", "--help"}, false}, // the task is "--help"
	} {
		if got := asksHelp(tc.args); got != tc.want {
			t.Errorf("asksHelp(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// liveNode finds node.json at the root config.ProjectRoot finds (the nearest .git above), and
// believes it only while its process lives.
func TestLiveNode(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	for _, d := range []string{filepath.Join(root, ".git"), filepath.Join(root, ".troupe"), sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if liveNode(sub) {
		t.Error("no node.json: a live node")
	}
	write := func(pid int) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, ".troupe", "node.json"), fmt.Appendf(nil, `{"url":"nats://x","pid":%d}`, pid), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(os.Getpid())
	if !liveNode(sub) {
		t.Error("node.json naming a live process, from a subdirectory: no live node")
	}
	write(1 << 30) // no such process
	if liveNode(sub) {
		t.Error("node.json naming no process: a live node")
	}
	// A directory with no repository above it is its own root: a .troupe higher up is another
	// project's.
	if liveNode(t.TempDir()) {
		t.Error("a directory outside any repository found a node")
	}
}

// Args passes every command line through but a waiting node's.
func TestArgsPassesOtherCommandLinesThrough(t *testing.T) {
	for _, args := range [][]string{nil, {"run", "hi"}, {"serve", "--ready-fd", "3"}, {"serve", AwaitArg, "x"}} {
		if got := Args(args, nil); len(got) != len(args) {
			t.Errorf("Args(%q) = %q", args, got)
		}
	}
}
