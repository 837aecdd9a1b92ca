package actors

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// outsideWrite stands for another process: it appends "beta" to a.txt behind the file truth's
// back, as an editor or a formatter in another terminal would.
type outsideWrite struct{}

func (outsideWrite) Spec() tools.Spec {
	return tools.Spec{Name: "outside_write", Description: "appends to a.txt behind troupe's back",
		Schema: json.RawMessage(`{"type":"object"}`), Risk: tools.RiskWrite}
}

func (outsideWrite) Run(ctx context.Context, env *tools.Env, args json.RawMessage) tools.Result {
	f, err := os.OpenFile(filepath.Join(env.Root, "a.txt"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return tools.Result{Output: err.Error(), IsError: true}
	}
	defer f.Close()
	if _, err := f.WriteString("beta\n"); err != nil {
		return tools.Result{Output: err.Error(), IsError: true}
	}
	return tools.Result{Output: "appended"}
}

// The model's own sed -i is not an external change: the bash result tells it, the refused edit
// names the command, and the session neither emits file.changed_externally nor puts a
// "changed outside" note in the next prompt. The edit still needs a fresh read.
func TestOwnBashChangeIsNotExternal(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "sed -i s/alpha/ALPHA/ a.txt"}}]},
		{"tool_calls": [{"name": "edit_file", "args": {"path": "a.txt", "old_string": "ALPHA", "new_string": "omega"}}]},
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"tool_calls": [{"name": "edit_file", "args": {"path": "a.txt", "old_string": "ALPHA", "new_string": "omega"}}]},
		{"text": "done"}]}`)
	if fin := tn.run(t, "own1", "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	if n := tn.count("own1", messages.EventFileChanged); n != 0 {
		t.Errorf("%d file.changed_externally events for the model's own change", n)
	}
	reqs := tn.provider.all()
	if len(reqs) != 6 {
		t.Fatalf("%d requests, want 6", len(reqs))
	}
	for i, req := range reqs {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, "changed outside") {
				t.Errorf("request %d tells of an outside change: %q", i, m.Content)
			}
		}
	}
	if res := lastToolResult(reqs[2]); !strings.Contains(res.Content, "note: this command changed a.txt (which you had read)") {
		t.Errorf("bash result: %+v", res)
	}
	refused := lastToolResult(reqs[3])
	if !refused.IsError || !strings.Contains(refused.Content, "your bash command at turn 2 (sed -i s/alpha/ALPHA/ a.txt) changed it") {
		t.Errorf("edit after the own change: %+v", refused)
	}
	if edited := lastToolResult(reqs[5]); edited.IsError {
		t.Errorf("edit after the fresh read: %+v", edited)
	}
	if data, _ := os.ReadFile(filepath.Join(tn.Root, "a.txt")); string(data) != "omega\n" {
		t.Errorf("a.txt = %q", data)
	}
}
