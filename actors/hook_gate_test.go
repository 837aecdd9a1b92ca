package actors

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/hooks"
)

func TestHookGateAnswered(t *testing.T) {
	g0 := hookGate{}
	added := &messages.HooksDone{Context: []string{"branch is main"}}
	tests := []struct {
		name        string
		refusals    int
		asked       *messages.RunHooks
		done        *messages.HooksDone
		cancelling  bool
		interactive bool
		next        hookNext
		fail        messages.FailKind
		prompt      string
		context     bool
		refusalsOut int
	}{
		{name: "start goes on to begin", asked: g0.start(false), done: &messages.HooksDone{}, next: hookBegins},
		{name: "start's context is a note", asked: g0.start(true), done: added, next: hookBegins, context: true},
		{name: "prompt taken with its context", refusals: 3, asked: g0.prompt("fix it"), done: added, next: hookCallsModel, prompt: "fix it", context: true},
		{name: "blocked prompt dropped in a chat", asked: g0.prompt("x"), done: &messages.HooksDone{Block: true}, interactive: true, next: hookGoesOn},
		{name: "blocked prompt fails a headless run", asked: g0.prompt("x"), done: &messages.HooksDone{Block: true, Reason: "no"}, fail: messages.FailConfig},
		{name: "stopped prompt fails a headless run", asked: g0.prompt("x"), done: &messages.HooksDone{Stop: true}, fail: messages.FailConfig},
		{name: "stop lets the answer stand", refusals: 2, asked: g0.stop("done", false), done: &messages.HooksDone{}, next: hookAccepts},
		{name: "stop refuses", refusals: 2, asked: g0.stop("done", false), done: &messages.HooksDone{Block: true, Reason: "tests fail"}, next: hookRefuses, refusalsOut: 3},
		{name: "subagent stop refuses", asked: g0.stop("done", true), done: &messages.HooksDone{Block: true}, next: hookRefuses, refusalsOut: 1},
		{name: "refusals are bounded", refusals: maxStopHookRefusals, asked: g0.stop("done", false), done: &messages.HooksDone{Block: true}, next: hookAccepts},
		{name: "a stop decision ends the refusals", refusals: 1, asked: g0.stop("done", false), done: &messages.HooksDone{Block: true, Stop: true}, next: hookAccepts},
		{name: "cancel while the stop hooks ran", refusals: 1, asked: g0.stop("done", false), done: &messages.HooksDone{Block: true}, cancelling: true, next: hookCancelled, refusalsOut: 1},
		{name: "observed hooks decide nothing", asked: &messages.RunHooks{Event: string(hooks.PreModel)}, done: added, next: hookGoesOn},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &hookGate{stopRefusals: tc.refusals}
			st := g.answered(tc.asked, tc.done, tc.cancelling, tc.interactive)
			if st.fail != tc.fail || (tc.fail == "" && st.next != tc.next) {
				t.Fatalf("step = next %d fail %q, want next %d fail %q", st.next, st.fail, tc.next, tc.fail)
			}
			if st.prompt != tc.prompt || (st.context != "") != tc.context {
				t.Fatalf("prompt %q context %q, want prompt %q context %v", st.prompt, st.context, tc.prompt, tc.context)
			}
			if g.stopRefusals != tc.refusalsOut {
				t.Fatalf("refusals = %d, want %d", g.stopRefusals, tc.refusalsOut)
			}
			if st.next == hookAccepts && st.answer != "done" {
				t.Fatalf("accepted answer = %q", st.answer)
			}
			if st.next == hookRefuses && !strings.Contains(st.refusal, tc.asked.Event) {
				t.Fatalf("refusal %q does not name the %s hook", st.refusal, tc.asked.Event)
			}
		})
	}
}

func TestHookGateStopAndEnd(t *testing.T) {
	g := &hookGate{}
	if g.stop("a", false).StopHookActive {
		t.Fatal("first Stop request says a hook is already active")
	}
	if ev := g.stop("a", true).Event; ev != string(hooks.SubagentStop) {
		t.Fatalf("a subagent's stop event = %s", ev)
	}
	g.stopRefusals = 1
	if !g.stop("a", false).StopHookActive {
		t.Fatal("Stop request after a refusal does not say a hook is active")
	}

	out := &messages.SessionFinishedData{Status: messages.StatusFailed, Error: "boom"}
	if g.end(out, false, false) != nil || g.end(out, true, true) != nil {
		t.Fatal("SessionEnd asked with no such hooks, or for a subagent")
	}
	ask := g.end(out, true, false)
	if ask == nil || ask.Reason != "failed: boom" {
		t.Fatalf("SessionEnd request = %+v", ask)
	}
	if g.end(out, true, false) != nil {
		t.Fatal("SessionEnd asked twice")
	}
	st := g.answered(ask, &messages.HooksDone{}, false, false)
	if st.next != hookFinishes || st.ending != out {
		t.Fatalf("after SessionEnd: next %d ending %v", st.next, st.ending)
	}
}
