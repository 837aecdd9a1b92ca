package actors

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/hooks"
)

// The session's side of hooks: it only routes. The executor runs them (toolexec_hooks.go) and
// tools/hooks decides; the session asks at its moments (start, a prompt, a model call, a
// compaction, a final answer, the end), continues with the outcome on its own goroutine
// (ReenterAfter), and emits each run as a hook.finished event. Without a hook for an event it
// continues at once.

// hookAnswerSlack is how long past the hooks' own bound the session waits for the executor.
const hookAnswerSlack = 10 * time.Second

// withHooks runs the hooks of msg's event, then carries out what their answer leads to
// (hookGate.answered); with none configured, at once.
func (s *session) withHooks(ctx actor.Context, msg *messages.RunHooks) {
	if msg == nil {
		return
	}
	event := hooks.Event(msg.Event)
	if !s.deps.Hooks.Wants(event) || s.links.toolexec == nil || s.cfg.Parent != "" && mainSessionOnly(event) {
		s.takeHookStep(ctx, s.hooks.answered(msg, &messages.HooksDone{Turn: msg.Turn, Event: msg.Event}, s.cur.cancelling != "", s.cfg.Interactive))
		return
	}
	msg.Turn, msg.PermissionMode = s.turn, string(s.cfg.mode())
	wait := time.Duration(s.deps.Hooks.MaxTimeoutS(event))*time.Second + hookAnswerSlack
	f := ctx.RequestFuture(s.links.toolexec, msg, wait)
	ctx.ReenterAfter(f, func(res any, err error) {
		done, ok := res.(*messages.HooksDone)
		if !ok || err != nil {
			done = &messages.HooksDone{Turn: msg.Turn, Event: msg.Event,
				Notices: []string{fmt.Sprintf("the %s hooks did not answer (%v); going on without them", msg.Event, err)}}
		}
		s.emit(hookRunEvents(done.Runs)...)
		if s.finished() {
			return // the session ended while its hooks ran
		}
		s.takeHookStep(ctx, s.hooks.answered(msg, done, s.cur.cancelling != "", s.cfg.Interactive))
	})
}

// takeHookStep carries out what the hooks' answer led to (hook_gate.go), in its order.
func (s *session) takeHookStep(ctx actor.Context, st hookStep) {
	if st.fail != "" {
		s.fail(ctx, st.fail, st.reason)
		return
	}
	var err error
	if st.prompt != "" {
		err = s.commit(userEntry(st.prompt))
	}
	if err == nil && st.context != "" {
		err = s.commit(noteEntry(st.context))
	}
	if err != nil {
		s.fail(ctx, messages.FailInternal, err.Error())
		return
	}
	switch st.next {
	case hookBegins:
		s.begin(ctx)
	case hookCallsModel:
		s.cur.newInput()
		s.emit(s.learn.task(st.prompt, s.turn+1))
		s.callModel(ctx)
	case hookAccepts:
		s.takeTurnStep(ctx, s.cur.accepted(st.answer, s.cfg.Interactive))
	case hookRefuses:
		s.takeTurnStep(ctx, turnStep{next: turnCallsAgain, note: st.refusal})
	case hookCancelled:
		s.endCancelledTurn(ctx)
	case hookFinishes:
		s.finish(ctx, st.ending)
	}
}

// mainSessionOnly says which events a subagent does not run, as in Claude Code: its start,
// task and end belong to its parent's turn (its tool calls and final answer, SubagentStop, do
// run hooks).
func mainSessionOnly(e hooks.Event) bool {
	return e == hooks.SessionStart || e == hooks.UserPromptSubmit || e == hooks.SessionEnd
}

// hookRunEvents is one hook.finished event per run.
func hookRunEvents(runs []messages.HookFinishedData) []messages.Payload {
	evs := make([]messages.Payload, len(runs))
	for i := range runs {
		evs[i] = messages.HookFinishedEvent.Of(&runs[i])
	}
	return evs
}

// onHooksRan emits the runs of the hooks around a tool call, told by the executor.
func (s *session) onHooksRan(ctx actor.Context, msg *messages.HooksRan) {
	if s.fromExecutor(ctx) {
		s.emit(hookRunEvents(msg.Runs)...)
	}
}

// compactTrigger is PreCompact's trigger: manual for /compact, auto otherwise.
func compactTrigger(reason string) string {
	if reason == "manual" {
		return "manual"
	}
	return "auto"
}
