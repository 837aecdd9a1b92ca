package actors

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// A steer token lets its holder steer the session it was granted for and that session's
// subagents, nothing else; a token of another Node, a forged or truncated one, or none, is
// refused; reads need none.
func TestSteerKeys(t *testing.T) {
	k, err := newSteerKeys()
	if err != nil {
		t.Fatal(err)
	}
	other, _ := newSteerKeys()
	root := k.token("s1")
	for _, tt := range []struct {
		name, session, token string
		ok                   bool
	}{
		{"its own session", "s1", root, true},
		{"a subagent", "s1-explore", root, true},
		{"a subagent's subagent", "s1-explore-deep", root, true},
		{"a loop's iteration", "L1-iter_2", k.token("L1"), true},
		{"a subagent's token steers only its subtree", "s1", k.token("s1-explore"), false},
		{"a session whose id only starts alike", "s10", root, false},
		{"another session", "s2", root, false},
		{"no token", "s1", "", false},
		{"a token without a mac", "s1", "s1", false},
		{"a forged mac", "s1", "s1 AAAA", false},
		{"a token from another node", "s1", other.token("s1"), false},
		{"a token granted for another session, renamed", "s2", "s2 " + k.mac("s1"), false},
	} {
		if got := k.allows(tt.session, tt.token); got != tt.ok {
			t.Errorf("%s: allows(%q, %q) = %v, want %v", tt.name, tt.session, tt.token, got, tt.ok)
		}
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

// A client keeps the tokens it was handed and sends the nearest one: the session's own, else
// its closest ancestor's.
func TestSteerTokensPickTheNearest(t *testing.T) {
	var st steerTokens
	st.keep("")            // a Node that does not check hands out nothing
	st.keep("no-mac-here") // nor anything unreadable
	st.keep("s1 mac1")
	st.keep("s1-a mac2")
	for session, want := range map[string]string{
		"s1": "s1 mac1", "s1-b": "s1 mac1", "s1-a": "s1-a mac2", "s1-a-x": "s1-a mac2", "s2": "", "s": "",
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
