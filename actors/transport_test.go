package actors

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// sameIDProvider gives every tool call of every reply the same id, as some providers do.
type sameIDProvider struct{ llm.Provider }

func (p sameIDProvider) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Reply, error) {
	r, err := p.Provider.Stream(ctx, req, emit)
	if r != nil {
		for i := range r.ToolCalls {
			r.ToolCalls[i].ID = "call_0"
		}
	}
	return r, err
}

func TestDuplicateCallIDsInOneReplyBothRunWithTheirOwnResults(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "write_file", "args": {"path": "one.txt", "content": "1"}},
		                {"name": "write_file", "args": {"path": "two.txt", "content": "2"}}]},
		{"text": "done"}]}`)
	tn.provider.Provider = sameIDProvider{tn.provider.Provider}
	if fin := tn.run(t, "dup1", "write both"); fin.Status != messages.StatusDone {
		t.Fatalf("finished = %+v", fin)
	}
	for _, name := range []string{"one.txt", "two.txt"} {
		if _, err := os.Stat(filepath.Join(tn.Root, name)); err != nil {
			t.Errorf("%s: the call did not run: %v", name, err)
		}
	}
	res := tn.lastToolResults()
	if len(res) != 2 || res[0].ToolCallID == res[1].ToolCallID || res[0].Content == res[1].Content {
		t.Fatalf("results = %+v", res)
	}
	reqs := tn.provider.all()
	if v := projection.Violations(reqs[len(reqs)-1].Messages); len(v) > 0 {
		t.Errorf("the request breaks pairing: %v", v)
	}
}

// The executor has no bus inbox: a client that publishes set_mode or a tool_request to where it
// used to listen changes nothing and runs nothing (issue 10 item 4).
func TestTheExecutorTakesNoOrdersFromTheBus(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"text": "hi"},
		{"tool_calls": [{"name": "write_file", "args": {"path": "new.txt", "content": "x"}}]},
		{"text": "done"}]}`)
	id := tn.startWith(t, messages.StartSession{ID: "side1", Task: "hello", Mode: "ask", Interactive: true})
	checkFor(t, 30*time.Second, func() error {
		st, err := tn.client.Status(id)
		if err != nil || st.Phase != phaseIdle || st.Turns == 0 {
			return errors.New("not idle yet")
		}
		return nil
	})
	side := id + ".tools"
	for _, msg := range []any{&messages.SetMode{Mode: "yolo"},
		&messages.ToolRequest{Turn: 1, CallID: "evil", Name: "write_file", Args: `{"path": "pwned.txt", "content": "x"}`, ReplyTo: id}} {
		data, err := messages.Encode(msg)
		if err != nil {
			t.Fatal(err)
		}
		if err := tn.client.nc.Publish(messages.InboxSubject(tn.NS, side), data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tn.client.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	if _, err := tn.client.Input(id, "now write"); err != nil {
		t.Fatal(err)
	}
	// Still in ask mode: the write waits for an approval.
	ask := tn.waitEvent(t, id, messages.EventToolApproval).(*messages.ApprovalRequestedData)
	if st, err := tn.client.Status(id); err != nil || st.Mode != "ask" {
		t.Errorf("mode after the side door: %+v %v", st, err)
	}
	if err := tn.client.Approve(id, ask.CallID, messages.AnswerDeny, "test"); err != nil {
		t.Fatal(err)
	}
	checkFor(t, 30*time.Second, func() error {
		if tn.count(id, messages.EventTurnFinished) < 3 {
			return errors.New("turns not finished")
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(tn.Root, "pwned.txt")); !os.IsNotExist(err) {
		t.Error("a tool_request from the bus ran")
	}
}
