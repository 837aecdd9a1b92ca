package actors

import (
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/hooks"
)

// hookGate is the session's state around the project's hooks at its moments (start, a prompt,
// a final answer, the end). It builds each moment's request and decides what the hooks' answer
// leads to, as a hookStep; it never emits, commits or sends — the session runs the hooks and
// carries the step out (session_hooks.go).
type hookGate struct {
	// stopRefusals counts final answers Stop hooks refused in a row.
	stopRefusals int
	// endAsked says the SessionEnd hooks were asked; ending is the outcome that waits on them.
	endAsked bool
	ending   *messages.SessionFinishedData
}

// hookNext is where the session goes once the hooks of a moment answered.
type hookNext int

const (
	hookGoesOn     hookNext = iota // nothing waits on these hooks (PreModel, PostModel, PreCompact, a dropped prompt)
	hookBegins                     // SessionStart ran: the session takes its first step
	hookCallsModel                 // the prompt was taken: a new input, the model is called
	hookAccepts                    // Stop hooks let the final answer (answer) stand
	hookRefuses                    // a Stop hook refused the answer: the turn goes on with refusal
	hookCancelled                  // a Cancel came while the Stop hooks ran: the turn ends
	hookFinishes                   // SessionEnd ran: the session finishes with ending
)

// hookStep is what the hooks' answer leads to, in the order the session carries it out: the
// failure (and nothing else), the prompt recorded, the hooks' context as a note, then next.
type hookStep struct {
	fail    messages.FailKind
	reason  string
	prompt  string // the user's prompt, to record
	context string // what the hooks added, a note to the model
	next    hookNext
	answer  string                        // hookAccepts
	refusal string                        // hookRefuses: the note to the model
	ending  *messages.SessionFinishedData // hookFinishes
}

// maxStopHookRefusals bounds how many final answers in a row Stop hooks may refuse before the
// answer stands anyway (a hook that always exits 2 must not loop forever).
const maxStopHookRefusals = 8

// start is the SessionStart request.
func (g *hookGate) start(resume bool) *messages.RunHooks {
	source := "startup"
	if resume {
		source = "resume"
	}
	return &messages.RunHooks{Event: string(hooks.SessionStart), Source: source}
}

// prompt is the UserPromptSubmit request for a line of user input.
func (g *hookGate) prompt(text string) *messages.RunHooks {
	return &messages.RunHooks{Event: string(hooks.UserPromptSubmit), Prompt: text}
}

// stop is the Stop request (a subagent's: SubagentStop) for a final answer that passed the
// definition of done.
func (g *hookGate) stop(text string, subagent bool) *messages.RunHooks {
	event := hooks.Stop
	if subagent {
		event = hooks.SubagentStop
	}
	return &messages.RunHooks{Event: string(event), Message: text, StopHookActive: g.stopRefusals > 0}
}

// end is the SessionEnd request, asked once, before the session finishes with out; nil when the
// finish need not wait (no such hooks, already asked, or a subagent, whose end is its parent's).
func (g *hookGate) end(out *messages.SessionFinishedData, wanted, subagent bool) *messages.RunHooks {
	if !wanted || g.endAsked || subagent {
		return nil
	}
	g.endAsked, g.ending = true, out
	reason := string(out.Status)
	if out.Error != "" {
		reason += ": " + out.Error
	}
	return &messages.RunHooks{Event: string(hooks.SessionEnd), Reason: reason}
}

// answered decides on the hooks' answer (done) to the request asked: a prompt a hook blocks is
// dropped (the user sees why in its hook.finished event; a headless session has nothing else to
// do and fails); a Stop hook's block refuses the answer with its reason, a bounded number of
// times in a row; what the hooks add goes to the model as a note.
func (g *hookGate) answered(asked *messages.RunHooks, done *messages.HooksDone, cancelling, interactive bool) hookStep {
	switch hooks.Event(asked.Event) {
	case hooks.SessionStart:
		return hookStep{context: hookNote(done), next: hookBegins}
	case hooks.UserPromptSubmit:
		if done.Block || done.Stop {
			if interactive {
				return hookStep{next: hookGoesOn}
			}
			return hookStep{fail: messages.FailConfig, reason: "a UserPromptSubmit hook dropped the task: " + cmpOr(done.Reason, done.StopReason)}
		}
		g.newInput()
		return hookStep{prompt: asked.Prompt, context: hookNote(done), next: hookCallsModel}
	case hooks.Stop, hooks.SubagentStop:
		if cancelling {
			return hookStep{next: hookCancelled}
		}
		if !done.Block || done.Stop || g.stopRefusals >= maxStopHookRefusals {
			g.stopRefusals = 0
			return hookStep{next: hookAccepts, answer: asked.Message}
		}
		g.stopRefusals++
		return hookStep{next: hookRefuses, refusal: fmt.Sprintf("Your final answer was not accepted: a %s hook of the project refused it:\n%s\nContinue the task.", asked.Event, done.Reason)}
	case hooks.SessionEnd:
		out := g.ending
		g.ending = nil
		return hookStep{next: hookFinishes, ending: out}
	}
	return hookStep{next: hookGoesOn}
}

// newInput starts the Stop refusals in a row over: the user spoke.
func (g *hookGate) newInput() { g.stopRefusals = 0 }

// hookNote is what the hooks added, as a note to the model ("" when nothing).
func hookNote(done *messages.HooksDone) string {
	if len(done.Context) == 0 {
		return ""
	}
	return fmt.Sprintf("Context from the project's %s hooks:\n%s", done.Event, strings.Join(done.Context, "\n\n"))
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
