package actors

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/internal/testwait"

	"github.com/troupe-dev/troupe/messages"
)

// A steer token lets its holder steer the session it was granted for and that session's
// subagents, nothing else: a client derives a subagent's token from it, never an ancestor's or
// a sibling's; a token of another Node, a forged or truncated one, one for another session, or
// none, is refused; a worker holding a child's key checks the child and what it spawns; reads
// need no token.
func TestSteerKeys(t *testing.T) {
	k, err := newSteerKeys()
	if err != nil {
		t.Fatal(err)
	}
	other, _ := newSteerKeys()
	client := steerKeysFrom("s1", k.mac("s1")) // what a client that started s1 holds
	sub := steerKeysFrom("s1-explore", k.mac("s1-explore"))
	worker := steerKeysFrom("s1-far", k.mac("s1-far")) // what the SpawnTask of s1-far carries
	for _, tt := range []struct {
		name, session, token string
		keys                 *steerKeys
		ok                   bool
	}{
		{"its own session", "s1", k.token("s1"), k, true},
		{"its own session, from the client's keys", "s1", client.token("s1"), k, true},
		{"a subagent", "s1-explore", client.token("s1-explore"), k, true},
		{"a subagent's subagent", "s1-explore-deep", client.token("s1-explore-deep"), k, true},
		{"a task name with a dash", "s1-t-01", client.token("s1-t-01"), k, true},
		{"a loop's iteration", "L1-iter_2", steerKeysFrom("L1", k.mac("L1")).token("L1-iter_2"), k, true},
		{"a subagent's keys make no ancestor's token", "s1", sub.token("s1"), k, false},
		{"a subagent's keys make no sibling's token", "s1-other", sub.token("s1-other"), k, false},
		{"a session whose id only starts alike", "s10", client.token("s10"), k, false},
		{"a token for another session", "s2", client.token("s1"), k, false},
		{"a token renamed to another session", "s2", "s2 " + k.mac("s1"), k, false},
		{"no token", "s1", "", k, false},
		{"a token without a mac", "s1", "s1", k, false},
		{"a forged mac", "s1", "s1 AAAA", k, false},
		{"a token from another node", "s1", other.token("s1"), k, false},
		{"the worker checks its child", "s1-far", client.token("s1-far"), worker, true},
		{"and the child's own subagents", "s1-far-sub", client.token("s1-far-sub"), worker, true},
		{"but nothing outside it", "s1", k.token("s1"), worker, false},
		{"nor a token another client made without the key", "s1-far", other.token("s1-far"), worker, false},
	} {
		if got := tt.keys.allows(tt.session, tt.token); got != tt.ok {
			t.Errorf("%s: allows(%q, %q) = %v, want %v", tt.name, tt.session, tt.token, got, tt.ok)
		}
	}
	if steerKeysFrom("s1", "not base64!") != nil || steerKeysFrom("a.b", k.mac("a")) != nil {
		t.Error("unreadable keys were taken")
	}
	for msg, want := range map[any]bool{
		&messages.UserInput{}: true, &messages.Cancel{}: true, &messages.Approve{}: true, &messages.SetMode{}: true,
		&messages.UpdateGoal{}: true, &messages.StatusRequest{}: false, &messages.GetGoal{}: false,
	} {
		if steers(msg) != want {
			t.Errorf("steers(%T) = %v, want %v", msg, !want, want)
		}
	}
}

// A client keeps the tokens it was handed and makes each session's from the nearest one: the
// session's own, else its closest ancestor's.
func TestSteerTokensPickTheNearest(t *testing.T) {
	k, _ := newSteerKeys()
	var st steerTokens
	st.keep("")            // a Node that does not check hands out nothing
	st.keep("no-mac-here") // nor anything unreadable
	st.keep(k.token("s1"))
	st.keep(k.token("s1-a"))
	for session, want := range map[string]string{
		"s1": k.token("s1"), "s1-b": k.token("s1-b"), "s1-a": k.token("s1-a"), "s1-a-x": k.token("s1-a-x"), "s2": "", "s": "",
	} {
		if got := st.For(session); got != want {
			t.Errorf("For(%q) = %q, want %q", session, got, want)
		}
	}
}

// A second client on the Node's bus may read a session's status but not steer it until it
// attaches (its messages carry no token); the refusal is one plain line; a client that started
// a session steers it and its subagents.
func TestOnlyAStartingOrAttachedClientSteers(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"text": "hi"}]}`)
	if err := tn.client.StartSession(&messages.StartSession{ID: "s1", Model: "scripted", Mode: "ask", Workspace: tn.Root, Interactive: true}); err != nil {
		t.Fatal(err)
	}
	other, err := tn.Client()
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Status("s1"); err != nil {
		t.Fatalf("a read was refused: %v", err)
	}
	_, err = other.Input("s1", "/status")
	if err == nil || !strings.Contains(err.Error(), "neither started nor attached") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("input from a client that did not attach: %v", err)
	}
	if _, err := other.SetMode("s1", "yolo"); err == nil {
		t.Fatal("a client that did not attach switched the mode")
	}
	if err := other.Cancel("s1", "forged"); err == nil {
		t.Fatal("a client that did not attach cancelled the session")
	}
	if err := other.Attach("nosuch"); err == nil || !strings.Contains(err.Error(), "no session nosuch") {
		t.Fatalf("attach to an unknown session: %v", err)
	}
	if err := other.Attach("s1"); err != nil {
		t.Fatal(err)
	}
	if ack, err := other.Input("s1", "/status"); err != nil || ack.Routed != messages.RoutedCommand {
		t.Fatalf("input after attaching: %+v, %v", ack, err)
	}
	if ack, err := tn.client.Input("s1", "/status"); err != nil || ack.Routed != messages.RoutedCommand {
		t.Fatalf("input from the starting client: %+v, %v", ack, err)
	}
	if err := tn.client.Cancel("s1", "done"); err != nil {
		t.Fatal(err)
	}
	if st := tn.client.steer.For("s1-sub"); st == "" {
		t.Fatal("the starting client holds no token for the session's subagents")
	}
}

// A remote child on a worker is steered only with a token made from its task's steer key: the
// worker refuses a mode change without one, and takes one with it.
func TestWorkerChildRefusesSteeringWithoutItsToken(t *testing.T) {
	b, _ := startWorkerBench(t, `{"turns": [{"text": "parent"}], "agents": {"*": {"turns": [{"delay_ms": 60000, "text": "too late"}]}}}`, 5*time.Second)
	k, _ := newSteerKeys()
	err := b.pub.Publish(context.Background(), &messages.SpawnTask{ID: "p1-t3", Project: workerNS, ParentNode: "n1", Parent: "p1",
		Steer: k.mac("p1-t3"), Start: messages.StartSession{ID: "p1-t3", Task: "wait", Model: "scripted", Mode: "yolo",
			Workspace: b.root, Agent: "root/t3", Parent: "p1", Role: "general"}})
	if err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, 60*time.Second, func() bool { return b.leaseFor("p1-t3") != nil }, "the task's lease")
	setMode := func(token string) any {
		data, _ := messages.Encode(&messages.SetMode{Mode: messages.ModePlan})
		m := nats.NewMsg(messages.ControlSubject(workerNS, "p1-t3"))
		m.Data = data
		if token != "" {
			m.Header.Set(SteerHeader, token)
		}
		var v any
		testwait.For(t, 30*time.Second, func() error { // until the child has bound its control subject
			reply, err := b.nc.RequestMsg(m, testwait.Scale(5*time.Second))
			if err != nil {
				return err
			}
			v, err = messages.Decode(reply.Data)
			return err
		})
		return v
	}
	if e, ok := setMode("").(*messages.ErrorReply); !ok || !strings.Contains(e.Error, "neither started nor attached") {
		t.Fatalf("a mode change without a token: %#v", e)
	}
	other, _ := newSteerKeys()
	if _, ok := setMode(other.token("p1-t3")).(*messages.ErrorReply); !ok {
		t.Fatal("a token made without the task's key was taken")
	}
	parent := steerKeysFrom("p1", k.mac("p1")) // the client that started the parent
	if st, ok := setMode(parent.token("p1-t3")).(*messages.StatusReply); !ok || st.Mode != messages.ModePlan {
		t.Fatalf("the parent's client's mode change: %#v", st)
	}
}
