package actors

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// A child running on a worker in ask mode, of an interactive root (AskUser, as the parent's
// Node sets it), asks whoever steers its root: its approval request
// is an event on the bus, and the answer comes on the child's own control subject, which its
// session binds on the worker. An answer without a steer token derived from the root's (what
// a client gets at start or attach) is refused; the signed one lets the write run there.
func TestWorkerChildAsksTheRootsClientForApproval(t *testing.T) {
	b, _ := startWorkerBench(t, `{"turns": [{"text": "parent"}], "agents": {"*": {"turns": [
		{"tool_calls": [{"name": "write_file", "args": {"path": "b.txt", "content": "beta\n"}}]},
		{"text": "wrote b.txt"}]}}}`, 5*time.Second)
	root, err := newSteerKeys() // the parent's Node's key: the client of root "p1" holds p1's token
	if err != nil {
		t.Fatal(err)
	}
	const id = "p1-ask"
	var mu sync.Mutex
	callID := ""
	sub, err := b.nc.Subscribe(messages.SessionEventsSubject(workerNS, id), func(m *nats.Msg) {
		var e messages.Envelope
		if json.Unmarshal(m.Data, &e) != nil {
			return
		}
		if e.Type != messages.EventToolApproval {
			return
		}
		var d messages.ApprovalRequestedData
		if json.Unmarshal(e.Data, &d) == nil {
			mu.Lock()
			callID = d.CallID
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	err = b.pub.Publish(context.Background(), &messages.SpawnTask{ID: id, Project: workerNS, ParentNode: "n1", Parent: "p1",
		Steer: root.mac(id), Start: messages.StartSession{ID: id, Task: "write b.txt", Model: "scripted",
			Mode: messages.ModeAsk, AskUser: true, Workspace: b.root, Agent: "root/ask", Parent: "p1", Role: "general"}})
	if err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, 60*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return callID != "" }, "the child's approval request")
	mu.Lock()
	call := callID
	mu.Unlock()

	approve := func(token string) any {
		t.Helper()
		data, err := messages.Encode(&messages.Approve{CallID: call, Answer: messages.AnswerAllow, By: "test"})
		if err != nil {
			t.Fatal(err)
		}
		m := nats.NewMsg(messages.ControlSubject(workerNS, id))
		m.Data = data
		if token != "" {
			m.Header.Set(SteerHeader, token)
		}
		resp, err := b.nc.RequestMsg(m, testwait.Scale(10*time.Second))
		if err != nil {
			t.Fatalf("approve on the child's control subject: %v", err)
		}
		reply, err := messages.Decode(resp.Data)
		if err != nil {
			t.Fatal(err)
		}
		return reply
	}
	other, _ := newSteerKeys() // another root's client
	for _, token := range []string{"", other.token(id)} {
		if reply := approve(token); !isRefusal(reply) {
			t.Fatalf("an approval without the root's token (%q): %#v", token, reply)
		}
	}
	if _, err := os.Stat(filepath.Join(b.root, "b.txt")); err == nil {
		t.Fatal("the write ran before it was approved")
	}
	if e, ok := approve(root.token(id)).(*messages.ErrorReply); ok {
		t.Fatalf("the root's client's approval: %s", e.Error)
	}
	testwait.Until(t, 60*time.Second, func() bool { return len(b.resultsFor(id)) > 0 }, "the child's result")
	if r := b.resultsFor(id)[0]; r.Status != messages.AgentDone || r.Summary != "wrote b.txt" {
		t.Fatalf("result = %+v", r)
	}
	if got, err := os.ReadFile(filepath.Join(b.root, "b.txt")); err != nil || string(got) != "beta\n" {
		t.Fatalf("b.txt after the approval = %q, %v", got, err)
	}
}

func isRefusal(reply any) bool {
	e, ok := reply.(*messages.ErrorReply)
	return ok && strings.Contains(e.Error, "refused")
}
