package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// TestAttachNoticesAKilledNode: kill -9 the node an attached client follows; the client says
// within seconds, in one line, that the node is gone and how to resume.
func TestAttachNoticesAKilledNode(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	env := testEnv(t)
	serve, _, _ := startServe(t, repo, env)
	model := writeScript(t, repo, `{"turns": [
		{"text": "first", "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"delay_ms": 120000, "text": "never said"}]}`)
	id := detach(t, repo, env, model, "read a.txt")
	attach, out, stderr := startTroupe(t, repo, env, "attach", id)
	out.waitFor(t, "read_file", testwait.Scale(30*time.Second))

	if err := serve.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	code := waitExit(t, attach, testwait.Scale(10*time.Second))
	noticed := time.Since(killed)
	t.Logf("the attached client noticed the killed node after %v", noticed)
	msg := strings.TrimSpace(stderr.String())
	last := msg[strings.LastIndex(msg, "\n")+1:]
	if code == 0 || !strings.Contains(last, "is gone") || !strings.Contains(last, "troupe resume "+id) {
		t.Fatalf("attach: exit %d, last line %q; want a failure saying the node is gone and how to resume", code, last)
	}
}

// TestCopiedNodeFileIsNotTrusted: a node.json copied from another project, whose node is alive,
// is a clear error, never an attach to the other project's node (nor deleted).
func TestCopiedNodeFileIsNotTrusted(t *testing.T) {
	other := newRepo(t, nil)
	env := testEnv(t)
	serve, _, _ := startServe(t, other, env)
	defer serve.Process.Signal(os.Interrupt)
	data, err := os.ReadFile(filepath.Join(other, ".troupe", "node.json"))
	if err != nil {
		t.Fatal(err)
	}
	repo := newRepo(t, nil)
	copied := filepath.Join(repo, ".troupe", "node.json")
	os.MkdirAll(filepath.Dir(copied), 0o755)
	if err := os.WriteFile(copied, data, 0o600); err != nil {
		t.Fatal(err)
	}
	r := troupe(t, repo, env, "sessions")
	if r.code != 2 || !strings.Contains(r.stderr, "another project") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Fatalf("sessions with a copied node.json: exit %d\nstderr: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(copied); err != nil {
		t.Fatalf("the node file of a live process was deleted: %v", err)
	}
	var info struct{ Root string }
	json.Unmarshal(data, &info)
	if info.Root != other {
		t.Fatalf("node.json root %q is not the other project's", info.Root)
	}
}
