package actors

import (
	"errors"
	"strings"
	"testing"

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
			want: stepSummary{next: turnAsks, committed: true, events: []messages.EventType{finished}}},
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
