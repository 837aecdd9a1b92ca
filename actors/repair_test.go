package actors

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// eventsOf decodes the session's events of type t.
func (tn *testNode) eventsOf(id string, t messages.EventType) []any {
	var out []any
	for _, e := range tn.sessionEvents(id) {
		if e.Type == t {
			v, _ := e.DecodeData()
			out = append(out, v)
		}
	}
	return out
}

func TestTextCallRunsAsAStructuredCallAndIsCounted(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"text": "Reading it.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.txt\"}}\n</tool_call>"},
		{"expect": "alpha", "text": "it says alpha"}]}`)
	if fin := tn.run(t, "tc1", "go"); fin.Status != messages.StatusDone || fin.Final != "it says alpha" {
		t.Fatalf("finished: %+v", fin)
	}
	reps := tn.eventsOf("tc1", messages.EventToolRepaired)
	if len(reps) != 1 {
		t.Fatalf("tool.repaired events: %d, want 1", len(reps))
	}
	if r := reps[0].(*messages.ToolRepairedData); r.Kind != "text_format" || r.CallID != "txt-1-1" || r.Tool != "read_file" ||
		!strings.Contains(r.Before, "hermes: read_file") || !strings.Contains(r.After, `"path":"a.txt"`) {
		t.Fatalf("repair: %+v", r)
	}
	classes := map[messages.ReplyClass]bool{}
	for _, v := range tn.eventsOf("tc1", messages.EventTurnFinished) {
		classes[v.(*messages.TurnFinishedData).Class] = true
	}
	if !classes[messages.ReplyTextCalls] || !classes[messages.ReplyFinal] {
		t.Fatalf("turn classes: %v", classes)
	}
	reqs := tn.provider.all()
	last := reqs[len(reqs)-1].Messages
	var asst *llm.Message
	for i := range last {
		if last[i].Role == llm.RoleAssistant {
			asst = &last[i]
			break
		}
	}
	if asst == nil || asst.Content != "Reading it." || len(asst.ToolCalls) != 1 || asst.ToolCalls[0].ID != "txt-1-1" {
		t.Fatalf("the assistant message sent back: %+v", asst)
	}
	stats, err := tn.Node.store.Repairs()
	if err != nil || len(stats) != 1 || stats[0].Calls != 1 || stats[0].Repaired != 1 || stats[0].ByKind["text_format"] != 1 {
		t.Fatalf("stored counters: %+v %v", stats, err)
	}
}

func TestWithRepairOffATextCallIsJustText(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"text": "<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.txt\"}}</tool_call>"}]}`)
	err := tn.client.StartSession(&messages.StartSession{ID: "off", Task: "go", Model: "scripted", Mode: "yolo", Workspace: tn.Root, NoRepair: true})
	if err != nil {
		t.Fatal(err)
	}
	fin := tn.waitFinished(t, "off")
	if fin.Status != messages.StatusDone || !strings.Contains(fin.Final, "<tool_call>") {
		t.Fatalf("finished: %+v", fin)
	}
	if n := len(tn.eventsOf("off", messages.EventToolFinished)); n != 0 {
		t.Fatalf("%d tools ran with repair off", n)
	}
}

func TestMalformedCallGetsOnePreciseNote(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"text": "<tool_call>please run read_file on a.txt</tool_call>"},
		{"expect": "could not be read", "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "done"}]}`)
	if fin := tn.run(t, "mal", "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	first := tn.eventsOf("mal", messages.EventTurnFinished)[0].(*messages.TurnFinishedData)
	if first.Class != messages.ReplyMalformed {
		t.Fatalf("first turn: %+v", first)
	}
}

func TestAnUnreadableCallTwiceNudgedStandsAsTheAnswer(t *testing.T) {
	bad := `{"text": "<tool_call>please run read_file on a.txt</tool_call>"},`
	tn := startTestNode(t, `{"turns": [`+strings.Repeat(bad, 3)+`{"text": "never asked"}]}`)
	fin := tn.run(t, "mal3", "go")
	if fin.Status != messages.StatusDone || !strings.Contains(fin.Final, "please run read_file") {
		t.Fatalf("finished: %+v", fin)
	}
	if n := len(tn.provider.all()); n != 3 {
		t.Fatalf("%d model calls, want 3 (the reply and two notes)", n)
	}
}

func TestRepliesThatNeverLandFailTheRun(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"reasoning": "I should look at a.txt first.", "stop": "end"}]}`)
	fin := tn.run(t, "think", "go")
	if fin.Status != messages.StatusFailed || fin.Kind != messages.FailModel || !strings.Contains(fin.Error, "reasoning_only") {
		t.Fatalf("finished: %+v", fin)
	}
	if n := len(tn.provider.all()); n != 3 {
		t.Fatalf("%d model calls, want 3 (the reply and two nudges)", n)
	}
}

func TestHeadlessLoopIsSteeredThenFailsWithKindLoop(t *testing.T) {
	turn := `{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},`
	tn := startTestNode(t, `{"turns": [`+strings.Repeat(turn, 8)+`{"text": "never"}]}`)
	fin := tn.run(t, "loop", "go")
	if fin.Status != messages.StatusFailed || fin.Kind != messages.FailLoop || !strings.Contains(fin.Error, "turn 1: read_file") {
		t.Fatalf("finished: %+v", fin)
	}
	reqs := tn.provider.all()
	if len(reqs) != 5 {
		t.Fatalf("%d model calls, want 5 (stopped after the third loop report)", len(reqs))
	}
	note := func(req *llm.Request) string { return req.Messages[len(req.Messages)-1].Content }
	if n := note(reqs[3]); !strings.Contains(n, "repeating the same tool call") || strings.Contains(n, "The calls:") {
		t.Fatalf("request 4 ends with %q, want the level 1 note", n)
	}
	if n := note(reqs[4]); !strings.Contains(n, "The calls:") {
		t.Fatalf("request 5 ends with %q, want the evidence", n)
	}
}

func TestStatusShowsRepairs(t *testing.T) {
	st := &messages.StatusReply{Session: "s", Repairs: "scripted: 50% of 2 calls repaired: 1 text format"}
	if out := formatStatus(st); !strings.Contains(out, "repairs     scripted: 50% of 2 calls repaired: 1 text format") {
		t.Fatalf("status:\n%s", out)
	}
}

func TestARepairedWriteStillNeedsApprovalInAskMode(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"text": "<tool_call>{\"name\": \"write_file\", \"arguments\": {\"path\": \"new.txt\", \"content\": \"x\"}}</tool_call>"},
		{"text": "done"}]}`)
	tn.startWith(t, messages.StartSession{ID: "ask1", Task: "write", Mode: "ask"})
	tn.waitEvent(t, "ask1", messages.EventSessionFinished)
	rej := tn.waitEvent(t, "ask1", messages.EventToolRejected).(*messages.DecisionData)
	if rej.Decision != messages.DecisionDenied || rej.CallID != "txt-1-1" {
		t.Fatalf("decision = %+v", rej)
	}
	if _, err := os.Stat(filepath.Join(tn.Root, "new.txt")); !os.IsNotExist(err) {
		t.Fatal("a repaired write ran without approval")
	}
}

func TestChatLoopPausesForTheUser(t *testing.T) {
	turn := `{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},`
	tn := startTestNode(t, `{"turns": [`+strings.Repeat(turn, 5)+`{"expect": "use the grep tool", "text": "ok, switching"}]}`)
	id := tn.startWith(t, messages.StartSession{ID: "chat-loop", Mode: "yolo", Interactive: true})
	checkFor(t, 10*time.Second, func() error {
		_, err := tn.client.Status(id)
		return err
	})
	if _, err := tn.client.Input(id, "read a.txt"); err != nil {
		t.Fatal(err)
	}
	paused := tn.waitEvent(t, id, messages.EventError).(*messages.ErrorData)
	if paused.Fatal || !strings.Contains(paused.Message, "paused") || !strings.Contains(paused.Message, "loop (repeat)") {
		t.Fatalf("pause = %+v", paused)
	}
	checkFor(t, 10*time.Second, func() error {
		st, err := tn.client.Status(id)
		if err == nil && st.Phase != phaseIdle {
			err = fmt.Errorf("phase %s", st.Phase)
		}
		return err
	})
	if ack, err := tn.client.Input(id, "use the grep tool instead"); err != nil || ack.Routed != messages.RoutedModel {
		t.Fatalf("input after the pause: %+v %v", ack, err)
	}
	checkFor(t, 10*time.Second, func() error {
		if n := len(tn.provider.all()); n != 6 {
			return fmt.Errorf("%d model calls", n)
		}
		return nil
	})
}

func TestAQuestionEndsTheRunHeadlessAndWaitsInChat(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"text": "Which of the two configs should I change?"}, {"expect": "prod", "text": "changed prod"}]}`)
	if fin := tn.run(t, "q-headless", "go"); fin.Status != messages.StatusDone || !strings.HasPrefix(fin.Final, "Which") {
		t.Fatalf("headless: %+v", fin)
	}
	id := tn.startWith(t, messages.StartSession{ID: "q-chat", Mode: "yolo", Interactive: true})
	checkFor(t, 10*time.Second, func() error {
		_, err := tn.client.Status(id)
		return err
	})
	if _, err := tn.client.Input(id, "change one"); err != nil {
		t.Fatal(err)
	}
	tf := tn.waitEvent(t, id, messages.EventTurnFinished).(*messages.TurnFinishedData)
	if tf.Class != messages.ReplyQuestion {
		t.Fatalf("turn.finished = %+v", tf)
	}
	checkFor(t, 10*time.Second, func() error {
		st, err := tn.client.Status(id)
		if err == nil && st.Phase != phaseIdle {
			err = fmt.Errorf("phase %s", st.Phase)
		}
		return err
	})
}

func TestQuirkHintAddsOneLineForWeakFamiliesOnly(t *testing.T) {
	base := "BASE PROMPT"
	if got := withQuirkHint(base, "gpt-4o-mini", true); got != base {
		t.Errorf("a capable model's prompt changed: %q", got)
	}
	got := withQuirkHint(base, "qwen2.5-coder:7b", true)
	if extra := strings.TrimPrefix(got, base+"\n\n"); extra == got || strings.Contains(extra, "\n") || len(extra) > 130 {
		t.Errorf("qwen2.5-coder prompt = %q: want the base and one short line", got)
	}
	if got := withQuirkHint(base, "qwen2.5-coder:7b", false); got != base {
		t.Errorf("with repair off the prompt changed: %q", got)
	}
}
