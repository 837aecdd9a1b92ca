package actors

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// turnOf is a turn whose steering knows the tool names given (repair on).
func turnOf(known ...string) *turnState {
	t := &turnState{}
	t.newSteer = steeringFor(&SessionDeps{}, false)
	steer := t.steering()
	steer.Classifier.Known = func(name string) bool {
		for _, k := range known {
			if k == name {
				return true
			}
		}
		return false
	}
	return t
}

// stepSummary is what a test compares of a step.
type stepSummary struct {
	next      turnNext
	fail      messages.FailKind
	committed bool // a reply is recorded
	noted     bool
	events    []messages.EventType
}

func summarize(st turnStep) stepSummary {
	s := stepSummary{next: st.next, fail: st.fail, committed: st.reply != nil, noted: st.note != ""}
	for _, p := range append(append([]messages.Payload{}, st.emit...), st.then...) {
		s.events = append(s.events, p.EventType())
	}
	return s
}

func sameSummary(a, b stepSummary) bool {
	if a.next != b.next || a.fail != b.fail || a.committed != b.committed || a.noted != b.noted || len(a.events) != len(b.events) {
		return false
	}
	for i := range a.events {
		if a.events[i] != b.events[i] {
			return false
		}
	}
	return true
}

func TestTurnReplied(t *testing.T) {
	finished, repaired := messages.TurnFinishedEvent.Type, messages.ToolRepairedEvent.Type
	call := llm.ToolCall{ID: "c1", Name: "read_file", Args: `{"path":"a"}`}
	cases := []struct {
		name        string
		replies     []*llm.Reply // earlier replies of the same turn state, then the one judged
		interactive bool
		cancelling  bool
		want        stepSummary
	}{
		{name: "tool calls run", replies: []*llm.Reply{{ToolCalls: []llm.ToolCall{call}}},
			want: stepSummary{next: turnRunsCalls, committed: true}},
		{name: "a call written as text runs, repaired", replies: []*llm.Reply{{Text: `<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call>`}},
			want: stepSummary{next: turnRunsCalls, committed: true, events: []messages.EventType{repaired}}},
		{name: "a final answer is verified", replies: []*llm.Reply{{Text: "All done."}},
			want: stepSummary{next: turnAnswers, committed: true}},
		{name: "a chat's question waits for the user", replies: []*llm.Reply{{Text: "Which file should I change?"}}, interactive: true,
			want: stepSummary{next: turnWaitsForUser, committed: true, events: []messages.EventType{finished}}},
		{name: "a headless question is the answer", replies: []*llm.Reply{{Text: "Which file should I change?"}},
			want: stepSummary{next: turnAnswers, committed: true}},
		{name: "a refusal fails the run", replies: []*llm.Reply{{Text: "I can't help with that.", Stop: llm.StopRefusal}},
			want: stepSummary{next: turnFails, fail: messages.FailModel, committed: true, events: []messages.EventType{finished}}},
		{name: "an empty reply is nudged", replies: []*llm.Reply{{}},
			want: stepSummary{next: turnCallsAgain, noted: true, events: []messages.EventType{finished}}},
		{name: "the third empty reply in a row fails", replies: []*llm.Reply{{}, {}, {}},
			want: stepSummary{next: turnFails, fail: messages.FailModel, events: []messages.EventType{finished}}},
		{name: "a cut-off reply is kept and continued", replies: []*llm.Reply{{Text: "The first half", Stop: llm.StopLength}},
			want: stepSummary{next: turnCallsAgain, committed: true, noted: true, events: []messages.EventType{finished, repaired}}},
		{name: "reasoning only is nudged", replies: []*llm.Reply{{Reasoning: "I should read a"}},
			want: stepSummary{next: turnCallsAgain, noted: true, events: []messages.EventType{finished}}},
		{name: "reasoning only three times fails", replies: []*llm.Reply{{Reasoning: "hm"}, {Reasoning: "hm"}, {Reasoning: "hm"}},
			want: stepSummary{next: turnFails, fail: messages.FailModel, events: []messages.EventType{finished}}},
		{name: "a malformed call the third time stands as the answer", replies: []*llm.Reply{
			{Text: `<tool_call>{"name": "read_file", "argu`}, {Text: `<tool_call>{"name": "read_file", "argu`}, {Text: `<tool_call>{"name": "read_file", "argu`}},
			want: stepSummary{next: turnAnswers, committed: true, events: []messages.EventType{finished}}},
		{name: "a reply after a cancel ends the turn", replies: []*llm.Reply{{Text: "done"}}, cancelling: true,
			want: stepSummary{next: turnCancelled}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tu := turnOf("read_file")
			if tc.cancelling {
				tu.cancel("")
			}
			var st turnStep
			for _, r := range tc.replies {
				st = tu.replied(1, &modelDone{turn: 1, reply: r}, tc.interactive)
			}
			if got := summarize(st); !sameSummary(got, tc.want) {
				t.Fatalf("step %+v, want %+v", got, tc.want)
			}
			if st.next == turnRunsCalls && (st.batch == nil || len(st.batch.Calls()) != 1) {
				t.Fatalf("a step that runs calls has batch %v, want the one call", st.batch)
			}
		})
	}
}

func TestTurnFailed(t *testing.T) {
	cases := []struct {
		name string
		err  error
		next turnNext
		fail messages.FailKind
		says string
	}{
		{"cancelled", &llm.Error{Class: llm.Canceled, Err: errors.New("context canceled")}, turnCancelled, "", ""},
		{"overflow compacts", &llm.Error{Class: llm.Overflow, Status: 400, Err: errors.New("prompt is too long")}, turnOverflowed, messages.FailProvider, "too long"},
		{"bad key", &llm.Error{Class: llm.Fatal, Status: 401, Err: errors.New("invalid x-api-key")}, turnFails, messages.FailConfig, "check the API key"},
		{"bad request", &llm.Error{Class: llm.Fatal, Status: 400, Err: errors.New("unknown model")}, turnFails, messages.FailConfig, "unknown model"},
		{"server trouble", &llm.Error{Class: llm.Retryable, Status: 529, Err: errors.New("overloaded")}, turnFails, messages.FailProvider, "overloaded"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := turnOf().replied(2, &modelDone{turn: 2, err: tc.err}, false)
			if st.next != tc.next || st.fail != tc.fail || !strings.Contains(st.reason, tc.says) {
				t.Fatalf("next %v fail %q reason %q, want %v %q containing %q", st.next, st.fail, st.reason, tc.next, tc.fail, tc.says)
			}
			if len(st.emit) != 1 || st.emit[0].EventType() != messages.TurnFinishedEvent.Type {
				t.Fatalf("events %v, want turn.finished first", st.emit)
			}
		})
	}
}

func TestTurnCallsDone(t *testing.T) {
	t.Run("a plain turn goes on, durable", func(t *testing.T) {
		tu := turnOf("read_file")
		st := tu.callsDone(1, false)
		if st.next != turnGoesOn || !st.sync || st.note != "" {
			t.Fatalf("step %+v, want goes on, synced, no note", summarize(st))
		}
	})
	t.Run("a cancelled turn ends", func(t *testing.T) {
		tu := turnOf("read_file")
		tu.cancel("stop")
		if st := tu.callsDone(1, false); st.next != turnCancelled || st.sync {
			t.Fatalf("step %+v, want cancelled", summarize(st))
		}
	})
	t.Run("a loop is noted, then stops a headless run", func(t *testing.T) {
		tu := turnOf("read_file")
		var st turnStep
		noted := false
		for n := 1; n <= 12 && st.next != turnFails; n++ {
			tu.observed(n, llm.ToolCall{ID: "c", Name: "read_file", Args: `{"path":"a"}`}, &messages.ToolResult{Output: "same"})
			st = tu.callsDone(n, false)
			noted = noted || st.note != ""
		}
		if st.next != turnFails || st.fail != messages.FailLoop || !noted {
			t.Fatalf("after the loop: step %+v (noted before: %v), want a note, then a loop failure", summarize(st), noted)
		}
	})
	t.Run("a loop pauses a chat", func(t *testing.T) {
		tu := turnOf("read_file")
		var st turnStep
		for n := 1; n <= 12 && st.next != turnPauses; n++ {
			tu.observed(n, llm.ToolCall{ID: "c", Name: "read_file", Args: `{"path":"a"}`}, &messages.ToolResult{Output: "same"})
			st = tu.callsDone(n, true)
		}
		if st.next != turnPauses || st.note == "" || !strings.HasPrefix(st.reason, "paused: ") {
			t.Fatalf("step %+v reason %q, want a pause with a note", summarize(st), st.reason)
		}
	})
}

func TestTurnStreamed(t *testing.T) {
	tu := turnOf()
	if p := tu.streamed(3, &modelEvent{turn: 2, ev: llm.Event{Kind: llm.EventText, Text: "x"}}); p.EventType() != "" {
		t.Fatalf("a late delta made %s", p.EventType())
	}
	if p := tu.streamed(3, &modelEvent{turn: 3, ev: llm.Event{Kind: llm.EventText, Text: "x"}}); p.EventType() != messages.TextDeltaEvent.Type {
		t.Fatalf("a delta made %q, want %s", p.EventType(), messages.TextDeltaEvent.Type)
	}
	if p := tu.retried(3, &modelRetry{turn: 1}); p.EventType() != "" {
		t.Fatalf("a late retry made %s", p.EventType())
	}
}

func TestTurnAnswered(t *testing.T) {
	finished, checked := messages.TurnFinishedEvent.Type, messages.DoneCheckEvent.Type
	active := &Goal{Objective: "ship", Status: messages.GoalActive}
	cases := []struct {
		name        string
		interactive bool
		verdict     bool // the child's role owes a verdict
		goal        *Goal
		check       string
		want        stepSummary
		pending     bool // a headless answer is held for the end of the subagents
	}{
		{name: "a chat's answer goes to the Stop hooks, then waits for the user", interactive: true, want: stepSummary{next: turnAccepted, events: []messages.EventType{finished}}},
		{name: "a headless answer goes to the Stop hooks, then is held", want: stepSummary{next: turnAccepted, events: []messages.EventType{finished}}, pending: true},
		{name: "a missing verdict is asked for", verdict: true, want: stepSummary{next: turnCallsAgain, noted: true, events: []messages.EventType{finished}}},
		{name: "an open goal refuses the answer", goal: active, want: stepSummary{next: turnCallsAgain, noted: true, events: []messages.EventType{finished, checked}}},
		{name: "a check runs first", check: "make test", want: stepSummary{next: turnChecks, events: []messages.EventType{finished}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tu := turnOf()
			child := childState{verdict: tc.verdict}
			gate := doneGate{goal: tc.goal, check: checkConfig{Command: tc.check, MaxRefusals: 3}, chat: tc.interactive}
			st := tu.answered(4, "It works.", &child, &gate, tc.interactive)
			if got := summarize(st); !sameSummary(got, tc.want) || !st.sync {
				t.Fatalf("step %+v (sync %v), want %+v, synced", got, st.sync, tc.want)
			}
			if st.next == turnAccepted {
				if st.answer != "It works." {
					t.Fatalf("accepted answer %q", st.answer)
				}
				want := turnGoesOn
				if tc.interactive {
					want = turnWaitsForUser
				}
				if next := tu.accepted(st.answer, tc.interactive).next; next != want {
					t.Fatalf("after the Stop hooks: %v, want %v", next, want)
				}
			}
			if (tu.finalPending != nil) != tc.pending || (tc.pending && *tu.finalPending != "It works.") {
				t.Fatalf("held answer %v, want held %v", tu.finalPending, tc.pending)
			}
			if tc.check != "" && tu.checkFor != "It works." {
				t.Fatalf("the answer waiting on the check is %q", tu.checkFor)
			}
		})
	}
}

func TestTurnChecked(t *testing.T) {
	gate := func() *doneGate { return &doneGate{check: checkConfig{Command: "make test", MaxRefusals: 1}} }
	t.Run("a passing check accepts the answer", func(t *testing.T) {
		tu, g := turnOf(), gate()
		tu.checkFor = "done"
		st := tu.checked(2, &messages.CheckResult{Turn: 2, Output: "ok"}, g, false)
		if st.next == turnAccepted {
			st = tu.accepted(st.answer, false)
		}
		if st.next != turnGoesOn || tu.finalPending == nil || *tu.finalPending != "done" || tu.checkFor != "" {
			t.Fatalf("step %+v, held %v, waiting %q: want the answer held", summarize(st), tu.finalPending, tu.checkFor)
		}
	})
	t.Run("a failing check is told to the model, then fails the run", func(t *testing.T) {
		tu, g := turnOf(), gate()
		tu.checkFor = "done"
		st := tu.checked(2, &messages.CheckResult{Turn: 2, Output: "FAIL", IsError: true}, g, false)
		if st.next != turnCallsAgain || !strings.Contains(st.note, "FAIL") {
			t.Fatalf("first failure: %+v", summarize(st))
		}
		tu.checkFor = "done"
		st = tu.checked(3, &messages.CheckResult{Turn: 3, Output: "FAIL", IsError: true}, g, false)
		if st.next != turnFails || st.fail != messages.FailDone {
			t.Fatalf("past the limit: %+v", summarize(st))
		}
	})
	t.Run("a cancelled check ends the turn", func(t *testing.T) {
		tu := turnOf()
		tu.checkFor = "done"
		tu.cancel("")
		if st := tu.checked(2, &messages.CheckResult{Turn: 2, Output: "ok"}, gate(), false); st.next != turnCancelled {
			t.Fatalf("step %+v, want cancelled", summarize(st))
		}
	})
}

func TestTurnExecutorReports(t *testing.T) {
	t.Run("a recheck answer for another turn changes nothing", func(t *testing.T) {
		tu := turnOf()
		if st := tu.rechecked(2, &messages.FilesRechecked{Turn: 2}); st.next != turnStays {
			t.Fatalf("no recheck in flight: step %+v, want it to stay", summarize(st))
		}
	})
	t.Run("external changes become events and a note, then the call", func(t *testing.T) {
		tu := turnOf()
		tu.recheck = time.AfterFunc(time.Hour, func() {})
		st := tu.rechecked(2, &messages.FilesRechecked{Turn: 2, Changes: []messages.FileChange{{Path: "a.go", Kind: "modified", Diff: "-x\n+y"}}})
		if st.next != turnPrepares || len(st.emit) != 1 || st.emit[0].EventType() != messages.FileChangedEvent.Type || !strings.Contains(st.note, "a.go") {
			t.Fatalf("step %+v note %q", summarize(st), st.note)
		}
		if tu.recheck != nil {
			t.Fatal("the recheck's timer is still armed")
		}
	})
	t.Run("a denied call is a rejection, audited", func(t *testing.T) {
		st := turnOf().decided(3, &messages.ToolDecision{Turn: 3, CallID: "c1", Tool: "bash", Decision: messages.DecisionDenied})
		if len(st.emit) != 1 || st.emit[0].EventType() != messages.ToolRejectedEvent.Type || len(st.audit) != 1 || st.audit[0].callID != "c1" {
			t.Fatalf("step %+v audit %+v", summarize(st), st.audit)
		}
		if late := turnOf().decided(4, &messages.ToolDecision{Turn: 3}); len(late.emit) != 0 {
			t.Fatalf("a late decision made %+v", summarize(late))
		}
	})
	t.Run("an approval with no batch is not asked", func(t *testing.T) {
		if p := turnOf().approvalNeeded(&messages.ApprovalNeeded{Turn: 1, CallID: "c1"}); p.EventType() != "" {
			t.Fatalf("made %s", p.EventType())
		}
	})
}

func TestTurnApprove(t *testing.T) {
	tu := turnOf()
	if st := tu.approve(&messages.Approve{CallID: "c1", Answer: messages.AnswerAllow}, "s1"); st.tell != nil || st.respond == nil {
		t.Fatalf("no batch: %+v", st)
	}
	batch, calls := newToolBatch(1, []llm.ToolCall{{ID: "c1", Name: "bash", Args: `{"command":"make"}`}})
	tu.batch = batch
	if p := tu.approvalNeeded(&messages.ApprovalNeeded{Turn: 1, CallID: calls[0].ID}); p.EventType() != messages.ToolApprovalEvent.Type {
		t.Fatalf("the request made %q", p.EventType())
	}
	if st := tu.approve(&messages.Approve{CallID: calls[0].ID, Answer: "maybe"}, "s1"); st.tell != nil {
		t.Fatalf("a bad answer went to the executor: %+v", st)
	}
	st := tu.approve(&messages.Approve{CallID: calls[0].ID, Answer: messages.AnswerAllow, By: "cli"}, "s1")
	if a, ok := st.tell.(*messages.ApprovalAnswer); !ok || a.Answer != messages.AnswerAllow || a.By != "cli" {
		t.Fatalf("to the executor: %+v", st.tell)
	}
	if again := tu.approve(&messages.Approve{CallID: calls[0].ID, Answer: messages.AnswerDeny}, "s1"); again.tell != nil {
		t.Fatal("a call was answered twice")
	}
}
