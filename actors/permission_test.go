package actors

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// startWith starts a session with the given start fields filled in and returns its id.
func (tn *testNode) startWith(t *testing.T, start messages.StartSession) string {
	t.Helper()
	start.Model, start.Workspace = "scripted", tn.Root
	if err := tn.client.StartSession(&start); err != nil {
		t.Fatal(err)
	}
	return start.ID
}

// waitEvent waits for the first event of type typ in a session and returns its payload.
func (tn *testNode) waitEvent(t *testing.T, id string, typ messages.EventType) any {
	t.Helper()
	var out any
	checkFor(t, 30*time.Second, func() error {
		for _, e := range tn.sessionEvents(id) {
			if e.Type == typ {
				out, _ = e.DecodeData()
				return nil
			}
		}
		return errors.New("no " + string(typ) + " yet")
	})
	return out
}

func (tn *testNode) count(id string, typ messages.EventType) int {
	n := 0
	for _, e := range tn.sessionEvents(id) {
		if e.Type == typ {
			n++
		}
	}
	return n
}

// lastToolResults are the tool results answering the last assistant message of the last
// request the model got.
func (tn *testNode) lastToolResults() []llm.Message {
	reqs := tn.provider.all()
	msgs := reqs[len(reqs)-1].Messages
	var out []llm.Message
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role != llm.RoleAssistant; i-- {
		if msgs[i].Role == llm.RoleTool {
			out = append([]llm.Message{msgs[i]}, out...)
		}
	}
	return out
}

const writeThenDone = `{"turns": [
	{"tool_calls": [{"name": "write_file", "args": {"path": "new.txt", "content": "hello\n"}}]},
	{"text": "done"}]}`

func TestAskModeWaitsForAnApprovalFromTheBus(t *testing.T) {
	for _, answer := range []messages.Answer{messages.AnswerAllow, messages.AnswerDeny} {
		t.Run(string(answer), func(t *testing.T) {
			tn := startTestNode(t, writeThenDone)
			id := tn.startWith(t, messages.StartSession{ID: "s-" + string(answer), Task: "write", Mode: "ask", Interactive: true})
			ask := tn.waitEvent(t, id, messages.EventToolApproval).(*messages.ApprovalRequestedData)
			if ask.Summary.Tool != "write_file" || ask.Summary.Path != "new.txt" {
				t.Errorf("summary = %+v", ask.Summary)
			}
			if _, err := os.Stat(filepath.Join(tn.Root, "new.txt")); !os.IsNotExist(err) {
				t.Fatal("the file was written before the approval")
			}
			if err := tn.client.Approve(id, "no-such-call", answer, "test"); err == nil {
				t.Error("an answer to a call that is not pending was taken")
			}
			if err := tn.client.Approve(id, ask.CallID, answer, "test"); err != nil {
				t.Fatal(err)
			}
			tn.waitEvent(t, id, messages.EventTurnFinished)
			checkFor(t, 30*time.Second, func() error {
				if tn.count(id, messages.EventTurnFinished) < 2 {
					return errors.New("second turn not finished")
				}
				return nil
			})
			_, statErr := os.Stat(filepath.Join(tn.Root, "new.txt"))
			res := tn.lastToolResults()
			switch answer {
			case messages.AnswerAllow:
				if statErr != nil || res[0].IsError {
					t.Errorf("allowed call: file %v, result %+v", statErr, res[0])
				}
			case messages.AnswerDeny:
				if statErr == nil || !res[0].IsError || !strings.Contains(res[0].Content, "denied") {
					t.Errorf("denied call: file %v, result %+v", statErr, res[0])
				}
			}
		})
	}
}

func TestHeadlessAskIsADenialThatSaysHowToAllow(t *testing.T) {
	tn := startTestNode(t, writeThenDone)
	tn.startWith(t, messages.StartSession{ID: "h1", Task: "write", Mode: "ask"})
	tn.waitEvent(t, "h1", messages.EventSessionFinished)
	res := tn.lastToolResults()
	if !res[0].IsError || !strings.Contains(res[0].Content, "--yes") || !strings.Contains(res[0].Content, "auto-edit") {
		t.Fatalf("result = %+v", res[0])
	}
	if tn.count("h1", messages.EventToolApproval) != 0 {
		t.Error("a headless session asked for approval")
	}
	rej := tn.waitEvent(t, "h1", messages.EventToolRejected).(*messages.DecisionData)
	if rej.Decision != messages.DecisionDenied {
		t.Errorf("decision = %+v", rej)
	}
}

func TestYesAndDenyPatterns(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "write_file", "args": {"path": "new.txt", "content": "x"}},
		                {"name": "write_file", "args": {"path": "secrets/key.txt", "content": "x"}}]},
		{"text": "done"}]}`)
	tn.startWith(t, messages.StartSession{ID: "y1", Task: "write", Mode: "ask", Yes: true, Deny: []string{"write_file(secrets/**)"}})
	tn.waitEvent(t, "y1", messages.EventSessionFinished)
	res := tn.lastToolResults()
	if res[0].IsError || !res[1].IsError || !strings.Contains(res[1].Content, "denied") {
		t.Fatalf("results = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(tn.Root, "secrets", "key.txt")); !os.IsNotExist(err) {
		t.Error("a denied write happened")
	}
}

func TestInvalidCallsAreRejectedBeforeAnyoneIsAsked(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "write_file", "args": "{\"path\": 7}"},
		                {"name": "write_file", "args": {"path": "../outside.txt", "content": "x"}}]},
		{"text": "done"}]}`)
	id := tn.startWith(t, messages.StartSession{ID: "v1", Task: "write", Mode: "ask", Interactive: true})
	checkFor(t, 30*time.Second, func() error {
		if tn.count(id, messages.EventToolRejected) < 2 {
			return errors.New("not both rejected yet")
		}
		return nil
	})
	tn.waitEvent(t, id, messages.EventTurnFinished)
	if n := tn.count(id, messages.EventToolApproval); n != 0 {
		t.Fatalf("%d approval requests for invalid calls", n)
	}
	rej := tn.waitEvent(t, id, messages.EventToolRejected).(*messages.DecisionData)
	if rej.Decision != messages.DecisionRejected {
		t.Errorf("decision = %+v", rej)
	}
}

func TestModeSwitchOverTheBus(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"text": "hi"},
		{"tool_calls": [{"name": "write_file", "args": {"path": "new.txt", "content": "x"}}]},
		{"text": "done"}]}`)
	id := tn.startWith(t, messages.StartSession{ID: "m1", Task: "hello", Mode: "ask", Interactive: true})
	checkFor(t, 30*time.Second, func() error {
		st, err := tn.client.Status(id)
		if err != nil || st.Phase != phaseIdle || st.Turns == 0 {
			return errors.New("not idle yet")
		}
		return nil
	})
	if _, err := tn.client.SetMode(id, "sideways"); err == nil {
		t.Error("an unknown mode was taken")
	}
	st, err := tn.client.SetMode(id, "auto-edit")
	if err != nil || st.Mode != "auto-edit" {
		t.Fatalf("SetMode: %+v %v", st, err)
	}
	if _, err := tn.client.Input(id, "now write"); err != nil {
		t.Fatal(err)
	}
	checkFor(t, 30*time.Second, func() error {
		if _, err := os.Stat(filepath.Join(tn.Root, "new.txt")); err != nil {
			return err
		}
		return nil
	})
	if n := tn.count(id, messages.EventToolApproval); n != 0 {
		t.Errorf("auto-edit asked %d times for a workspace write", n)
	}
	tn.waitEvent(t, id, messages.EventSessionMode)
}
