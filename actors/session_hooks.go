package actors

import (
	"fmt"
	"strings"
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

// maxStopHookRefusals bounds how many final answers in a row Stop hooks may refuse before the
// answer stands anyway (a hook that always exits 2 must not loop forever).
const maxStopHookRefusals = 8

// hookAnswerSlack is how long past the hooks' own bound the session waits for the executor.
const hookAnswerSlack = 10 * time.Second

// withHooks runs the hooks of msg's event and then next with their outcome; with none
// configured, next runs at once.
func (s *session) withHooks(ctx actor.Context, msg *messages.RunHooks, next func(*messages.HooksDone)) {
	event := hooks.Event(msg.Event)
	if !s.deps.Hooks.Wants(event) || s.links.toolexec == nil || s.cfg.Parent != "" && mainSessionOnly(event) {
		next(&messages.HooksDone{Turn: msg.Turn, Event: msg.Event})
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
		next(done)
	})
}

// mainSessionOnly says which events a subagent does not run, as in Claude Code: its start,
// task and end belong to its parent's turn (its tool calls and final answer, SubagentStop, do
// run hooks).
func mainSessionOnly(e hooks.Event) bool {
	return e == hooks.SessionStart || e == hooks.UserPromptSubmit || e == hooks.SessionEnd
}

// observeHooks runs the hooks of an event that decides nothing (PreModel, PostModel,
// PreCompact): the session does not wait for them.
func (s *session) observeHooks(ctx actor.Context, msg *messages.RunHooks) {
	s.withHooks(ctx, msg, func(*messages.HooksDone) {})
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

// hookContext gives the model what the hooks added, as a note in the log.
func (s *session) hookContext(ctx actor.Context, done *messages.HooksDone) bool {
	if len(done.Context) == 0 {
		return true
	}
	note := fmt.Sprintf("Context from the project's %s hooks:\n%s", done.Event, strings.Join(done.Context, "\n\n"))
	if err := s.commit(noteEntry(note)); err != nil {
		s.fail(ctx, messages.FailInternal, err.Error())
		return false
	}
	return true
}

// sessionStart runs the SessionStart hooks, then begins.
func (s *session) sessionStart(ctx actor.Context) {
	source := "startup"
	if s.cfg.Resume {
		source = "resume"
	}
	s.withHooks(ctx, &messages.RunHooks{Event: string(hooks.SessionStart), Source: source}, func(done *messages.HooksDone) {
		if s.hookContext(ctx, done) {
			s.begin(ctx)
		}
	})
}

// submitPrompt runs the UserPromptSubmit hooks on a prompt, then takes it: a block drops it
// (the user is told by its hook.finished event; a headless session has nothing else to do and
// fails), context goes to the model after it.
func (s *session) submitPrompt(ctx actor.Context, text string) {
	s.withHooks(ctx, &messages.RunHooks{Event: string(hooks.UserPromptSubmit), Prompt: text}, func(done *messages.HooksDone) {
		if done.Block || done.Stop {
			if !s.cfg.Interactive {
				s.fail(ctx, messages.FailConfig, "a UserPromptSubmit hook dropped the task: "+cmpOr(done.Reason, done.StopReason))
			}
			return
		}
		if err := s.commit(userEntry(text)); err != nil {
			s.fail(ctx, messages.FailInternal, err.Error())
			return
		}
		if !s.hookContext(ctx, done) {
			return
		}
		s.cur.newInput()
		s.lessonTask(text)
		s.callModel(ctx)
	})
}

// stopHooks runs the Stop (a subagent's: SubagentStop) hooks on a final answer that passed the
// definition of done: a block refuses it with the hook's reason and the loop goes on.
func (s *session) stopHooks(ctx actor.Context, text string, accept func()) {
	event := hooks.Stop
	if s.cfg.Parent != "" {
		event = hooks.SubagentStop
	}
	msg := &messages.RunHooks{Event: string(event), Message: text, StopHookActive: s.cur.stopHookRefusals > 0}
	s.withHooks(ctx, msg, func(done *messages.HooksDone) {
		if s.cur.cancelling != "" { // a Cancel came while the hooks ran
			s.endCancelledTurn(ctx)
			return
		}
		if !done.Block || done.Stop || s.cur.stopHookRefusals >= maxStopHookRefusals {
			s.cur.stopHookRefusals = 0
			accept()
			return
		}
		s.cur.stopHookRefusals++
		s.takeTurnStep(ctx, turnStep{next: turnCallsAgain, note: fmt.Sprintf("Your final answer was not accepted: a %s hook of the project refused it:\n%s\nContinue the task.", event, done.Reason)})
	})
}

// sessionEnd runs the SessionEnd hooks once, before the session finishes; false when the
// finish must wait for them.
func (s *session) sessionEnd(ctx actor.Context, out *messages.SessionFinishedData) bool {
	if !s.deps.Hooks.Wants(hooks.SessionEnd) || s.cur.endHooks || s.cfg.Parent != "" {
		return true
	}
	s.cur.endHooks = true
	reason := string(out.Status)
	if out.Error != "" {
		reason += ": " + out.Error
	}
	s.withHooks(ctx, &messages.RunHooks{Event: string(hooks.SessionEnd), Reason: reason}, func(*messages.HooksDone) {
		s.finish(ctx, out)
	})
	return false
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// compactTrigger is PreCompact's trigger: manual for /compact, auto otherwise.
func compactTrigger(reason string) string {
	if reason == "manual" {
		return "manual"
	}
	return "auto"
}
