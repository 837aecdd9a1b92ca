package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDamagedStoreRefusesAndRepairs: a store whose MANIFEST is gone is refused with one line
// and exit 2 (never "no sessions yet", never written over); doctor --repair rebuilds it and the
// session is back.
func TestDamagedStoreRefusesAndRepairs(t *testing.T) {
	repo := newRepo(t, map[string]string{"README.md": "MARKER-42\n"})
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "README.md"}}]},
		{"text": "The marker is MARKER-42."}]}`)
	env := testEnv(t)
	if r := troupe(t, repo, env, "run", "--model", model, "What is the marker?"); r.code != 0 {
		t.Fatalf("run: exit %d: %s", r.code, r.stderr)
	}
	if r := troupe(t, repo, env, "stop"); r.code != 0 { // the node holds the store until it stops
		t.Fatalf("stop: exit %d: %s", r.code, r.stderr)
	}
	db := filepath.Join(repo, ".troupe", "db")
	if err := os.Remove(filepath.Join(db, "MANIFEST")); err != nil {
		t.Fatal(err)
	}

	for _, args := range [][]string{{"sessions"}, {"run", "--model", model, "again"}} {
		r := troupe(t, repo, env, args...)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if r.code != 2 || len(lines) != 1 || !strings.Contains(lines[0], "is damaged") ||
			!strings.Contains(lines[0], "troupe doctor --repair") {
			t.Fatalf("troupe %v on a damaged store: exit %d, stderr %q, stdout %q; want one line and exit 2",
				args, r.code, r.stderr, r.stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(db, "MANIFEST")); err == nil {
		t.Fatal("a refused start wrote a new MANIFEST over the damaged store")
	}

	r := troupe(t, repo, env, "doctor", "--repair")
	if r.code != 0 || !strings.Contains(r.stdout, "salvaged") || !strings.Contains(r.stdout, "0 values failed") {
		t.Fatalf("doctor --repair: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	backups, _ := filepath.Glob(db + ".broken-*")
	if len(backups) != 1 {
		t.Fatalf("backups = %v, want one", backups)
	}
	ls := troupe(t, repo, env, "sessions")
	if ls.code != 0 || !strings.Contains(ls.stdout, "What is the marker?") {
		t.Fatalf("sessions after repair: exit %d\n%s\n%s", ls.code, ls.stdout, ls.stderr)
	}
}
