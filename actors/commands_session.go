package actors

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// The session's answers about itself: /session, /reset and /exit.

// sessionFacts is what /session shows.
type sessionFacts struct {
	ID, Workspace, Agent string
	Started              time.Time
	Turns, Items         int
	LastSeq, Events      uint64
}

// shortSessionID is the id's last dash-separated part, as watch shows it (a unique prefix of
// the id works too).
func shortSessionID(id string) string {
	if i := strings.LastIndexByte(id, '-'); i >= 0 && len(id)-i > 1 {
		return id[i+1:]
	}
	return id
}

func sessionReport(f sessionFacts) string {
	started := "not recorded"
	if !f.Started.IsZero() {
		started = f.Started.Local().Format("2006-01-02 15:04:05")
	}
	return fmt.Sprintf("session     %s (short %s, agent %s)\nworkspace   %s\nstarted     %s\nturns       %d\n"+
		"log         %d entries in the model's view (last seq %d); %d events emitted\n"+
		"resume      troupe resume %s (after it ends)\nattach      troupe attach %s (from another terminal, while it runs)",
		f.ID, shortSessionID(f.ID), f.Agent, f.Workspace, started, f.Turns, f.Items, f.LastSeq, f.Events,
		shortSessionID(f.ID), shortSessionID(f.ID))
}

func (s *session) sessionCommand() string {
	f := sessionFacts{ID: s.start.ID, Workspace: s.start.Workspace, Agent: s.start.Agent, Items: len(s.items)}
	if f.Agent == "" {
		f.Agent = "root"
	}
	if s.meta != nil {
		f.Started, f.Turns = s.meta.Created, s.meta.Turns
	}
	if n := len(s.items); n > 0 {
		f.LastSeq = s.items[n-1].Seq
	}
	if s.links.emitter != nil {
		f.Events = s.links.emitter.Seq()
	}
	return sessionReport(f)
}

// resetBoundary is the boundary /reset appends: it replaces every entry so far, so the
// projection from here on starts empty; the log keeps everything.
func resetBoundary(items []projection.Item, keepGoal bool) (projection.Boundary, bool) {
	var from, to uint64
	for _, it := range items {
		seq := it.Seq
		if it.Boundary != nil {
			seq = it.Boundary.FromSeq
		}
		if from == 0 || (seq > 0 && seq < from) {
			from = seq
		}
		if it.Seq > to {
			to = it.Seq
		}
	}
	if to == 0 {
		return projection.Boundary{}, false
	}
	if from == 0 {
		from = 1
	}
	summary := "The user started a fresh context with /reset: nothing said before it applies. Wait for the user's next message."
	if keepGoal {
		summary = "The user started a fresh context with /reset: nothing said before it applies, except the goal (if one is set). Wait for the user's next message."
	}
	return projection.Boundary{FromSeq: from, ToSeq: to, Summary: summary, Mechanical: true, Reason: "/reset"}, true
}

// resetCommand is /reset [all]: a fresh context in the same session (the log keeps everything;
// the goal stays unless "all"). Commands run only while the session is idle, so no turn is
// cut in half: a turn that runs gets the busy answer instead.
func (s *session) resetCommand(arg string) string {
	all := strings.EqualFold(strings.TrimSpace(arg), "all")
	if a := strings.TrimSpace(arg); a != "" && !all {
		return fmt.Sprintf("/reset %s: use /reset (the goal stays) or /reset all (the goal is cleared too)", a)
	}
	if s.phase != phaseIdle {
		return "a turn is running; wait for it or cancel it, then /reset"
	}
	b, ok := resetBoundary(s.items, !all)
	if n := len(s.items); n > 0 && s.items[n-1].Boundary != nil && s.items[n-1].Boundary.Reason == "/reset" {
		ok = false // nothing was said since the last /reset
	}
	if !ok {
		if all {
			return s.clearGoalForReset("the context is already empty")
		}
		return "the context is already empty"
	}
	e, err := b.Entry()
	if err == nil {
		e.Time = time.Now().UTC()
		err = s.deps.Store.Append(s.start.ID, e)
	}
	if err != nil {
		return fmt.Sprintf("/reset: record the boundary: %v (the context is unchanged)", err)
	}
	before := s.contextTokens(s.request())
	s.items = append(s.items, projection.Item{Seq: e.Seq, Time: e.Time, Boundary: &b})
	s.budget.acct.Reset() // the last provider count was for the old context
	s.emit(messages.ContextCompactedEvent.Of(&messages.ContextCompactedData{Turn: s.turn, Reason: "/reset", FromSeq: b.FromSeq,
		ToSeq: b.ToSeq, TokensBefore: before, TokensAfter: s.contextTokens(s.request()), Mechanical: true, Summary: b.Summary}))
	msg := fmt.Sprintf("fresh context: entries %d–%d stay in the log (troupe log %s) but the model no longer sees them", b.FromSeq, b.ToSeq, shortSessionID(s.start.ID))
	if all {
		return s.clearGoalForReset(msg)
	}
	if s.done.goal != nil && s.done.goal.Status == messages.GoalActive {
		msg += "; the goal stays (/reset all clears it)"
	}
	return msg
}

func (s *session) clearGoalForReset(msg string) string {
	if s.done.goal == nil || s.done.goal.Status == messages.GoalCleared {
		return msg
	}
	return msg + "; " + s.goalCommand("clear")
}

// exitCommand is /exit: the client leaves. A chat ends its session, attach only detaches; the
// session itself does nothing until the client says which.
func exitCommand() *messages.InputAck {
	return &messages.InputAck{Routed: messages.RoutedExit, Output: "bye"}
}

// modelReport is /model without a name.
func modelReport(model, name, baseURL string, window int, canSwitch bool) string {
	host := "the provider's default endpoint"
	if baseURL != "" {
		if u, err := url.Parse(baseURL); err == nil && u.Host != "" {
			host = u.Host
		} else {
			host = baseURL
		}
	}
	price := "no list price known"
	if p, ok := llm.PriceOf(name); ok {
		price = fmt.Sprintf("$%.2f in / $%.2f out per million tokens", p.Input, p.Output)
		if p.Input == 0 && p.Output == 0 {
			price = "free (served locally)"
		}
	}
	how := "/model NAME switches for the next turns (same endpoint)"
	if !canSwitch {
		how = "to change it, end the session and run troupe resume ID --model NAME"
	}
	return fmt.Sprintf("model       %s (asked for as %s)\nendpoint    %s\ncontext     %d tokens\nprice       %s\n%s",
		model, name, host, window, price, how)
}

// modelCommand is /model [NAME]: show the model, or switch it for the next turns on the same
// endpoint. The client is built off the actor; the switch applies on it.
func (s *session) modelCommand(ctx actor.Context, arg string) *messages.InputAck {
	name := strings.TrimSpace(arg)
	if name == "" {
		return commandOutput(modelReport(s.deps.Model, s.deps.ModelName, s.start.BaseURL, s.window(), s.deps.Setup != nil))
	}
	if s.deps.Setup == nil {
		return commandOutput("this session cannot switch models; end it and run troupe resume ID --model " + name)
	}
	st := *s.start
	st.Model, st.PromptMode = qualifyModel(name, s.start.Model), s.promptModeName() // a resumed session's mode may be only in its meta
	s.reconfigure(ctx, &st, "/model")
	return nil
}

// qualifyModel gives a bare model name the current model's provider: on openai/gpt-4o-mini,
// /model gpt-4o means openai/gpt-4o (the endpoint stays the same anyway).
func qualifyModel(name, current string) string {
	provider, _, ok := strings.Cut(current, "/")
	if strings.ContainsAny(name, "/:") || !ok || strings.Contains(provider, ":") {
		return name
	}
	return provider + "/" + name
}

// promptCommand is /prompt [NAME]: show the prompt modes, or switch for the next turn.
func (s *session) promptCommand(ctx actor.Context, arg string) *messages.InputAck {
	name := strings.ToLower(strings.TrimSpace(arg))
	if s.deps.Setup == nil || s.deps.PromptModes == nil {
		return commandOutput("prompt mode " + s.promptModeName() + " (this session cannot switch; troupe resume ID --prompt-mode NAME)")
	}
	current, modesFor := s.promptModeName(), s.deps.PromptModes
	if name == "" {
		offActor(ctx, commandDiskTimeout, func() promptModeList {
			modes, err := modesFor()
			return promptModeList{modes: modes, err: err}
		}, func(r promptModeList, err error) {
			if err == nil {
				err = r.err
			}
			s.respond(ctx, commandOutput(promptModesReport(r.modes, current, err)))
		})
		return nil
	}
	if name == current {
		return commandOutput("prompt mode " + name + " already")
	}
	st := *s.start
	st.PromptMode = name
	s.reconfigure(ctx, &st, "/prompt")
	return nil
}

// The table's entries for the commands of this file and commands_tools.go.

func (s *session) runSession(_ actor.Context, _ string) *messages.InputAck {
	return commandOutput(s.sessionCommand())
}

func (s *session) runExit(_ actor.Context, _ string) *messages.InputAck { return exitCommand() }

func (s *session) runReset(_ actor.Context, arg string) *messages.InputAck {
	return commandOutput(s.resetCommand(arg))
}

func (s *session) runPermissions(_ actor.Context, _ string) *messages.InputAck {
	return commandOutput(s.permissionsCommand())
}

func (s *session) runTools(_ actor.Context, _ string) *messages.InputAck {
	return commandOutput(s.toolsCommand())
}
