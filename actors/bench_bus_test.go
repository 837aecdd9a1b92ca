package actors

import (
	"log/slog"
	"os/exec"
	"testing"
)

// BenchmarkStartBus is the embedded bus's start with per-kind credentials (seeds read from the
// state directory) and the Node's first in-process connection (an NKey handshake): the part of
// a Node's start the bus costs (issue 19 measures the whole start).
func BenchmarkStartBus(b *testing.B) {
	dir := b.TempDir()
	if _, err := loadBusKeys(dir); err != nil { // the seeds exist after a project's first start
		b.Fatal(err)
	}
	for b.Loop() {
		bus, err := StartBus(slog.New(slog.DiscardHandler), "p1", dir)
		if err != nil {
			b.Fatal(err)
		}
		nc, err := bus.Connect("bench")
		if err != nil {
			b.Fatal(err)
		}
		nc.Close()
		bus.Shutdown()
	}
}

// BenchmarkProjectID is the project id's derivation on a start after the first (the remote read
// from .git/config, the root commit from the state directory's cache).
func BenchmarkProjectID(b *testing.B) {
	root := b.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"remote", "add", "origin", "git@example.com:o/r.git"},
		{"-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "root"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	state, err := EnsureStateDir(root)
	if err != nil {
		b.Fatal(err)
	}
	ProjectID(root, state) // the first start finds and caches the root commit
	for b.Loop() {
		if p := ProjectID(root, state); p.PathOnly {
			b.Fatal(p)
		}
	}
}
