package actors

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// A model that reads files with the shell, as Codex-trained models do, can edit what it read;
// a command that is more than a plain read leaves the edit refused.
func TestShellReadCountsForTheNextEdit(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "cat a.txt | head"}}]},
		{"tool_calls": [{"name": "edit_file", "args": {"path": "a.txt", "old_string": "alpha", "new_string": "beta"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "cat a.txt"}}]},
		{"tool_calls": [{"name": "edit_file", "args": {"path": "a.txt", "old_string": "alpha", "new_string": "gamma"}}]},
		{"text": "done"}]}`)
	if fin := tn.run(t, "sr1", "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	reqs := tn.provider.all()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	refused := lastToolResult(reqs[2])
	if !refused.IsError || !strings.Contains(refused.Content, "read_file it first") {
		t.Errorf("edit after a piped cat: %+v", refused)
	}
	if edited := lastToolResult(reqs[4]); edited.IsError {
		t.Errorf("edit after a plain cat: %+v", edited)
	}
	if data, _ := os.ReadFile(filepath.Join(tn.Root, "a.txt")); string(data) != "gamma\n" {
		t.Errorf("a.txt = %q, want the second edit only", data)
	}
}

// lastToolResult is the last tool result a request carries.
func lastToolResult(req *llm.Request) llm.Message {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == llm.RoleTool {
			return req.Messages[i]
		}
	}
	return llm.Message{}
}
