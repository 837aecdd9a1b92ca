package actors

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// A child asked for with its own worktree, meant for the workers but run here because no
// worker is attached, still works in its own worktree, never in the parent's checkout.
func TestWorktreeChildFallingBackLocalGetsItsWorktree(t *testing.T) {
	tn, _ := startDispatchNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "w", "agent_type": "worker", "message": "write c.txt", "worktree": true}}]},
		{"text": "done"}],
	"agents": {"w": {"turns": [
		{"tool_calls": [{"name": "write_file", "args": {"path": "c.txt", "content": "made here\n"}}]},
		{"text": "wrote c.txt"}]}}}`, time.Minute)
	id := tn.startWith(t, messages.StartSession{ID: "p1", Task: "go", Mode: messages.ModeYolo, Placement: "workers"})
	if fin := tn.waitFinished(t, id); fin.Status != messages.StatusDone {
		t.Fatalf("parent finished: %+v", fin)
	}
	r := tn.agentResults(id)["root/w"]
	if r == nil || r.Status != messages.AgentDone || r.Worker != "" || r.Branch != "troupe/w" {
		t.Fatalf("result: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(tn.Root, "c.txt")); !os.IsNotExist(err) {
		t.Errorf("the child wrote into the parent's checkout (stat: %v)", err)
	}
	if b, err := os.ReadFile(filepath.Join(tn.Root, ".troupe", "worktrees", "w", "c.txt")); err != nil || string(b) != "made here\n" {
		t.Errorf("c.txt in the child's worktree: %q, %v", b, err)
	}
}
