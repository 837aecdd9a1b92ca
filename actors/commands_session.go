package actors

import (
	"fmt"
	"net/url"
	"strings"
	"time"

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

// sessionView is /session.
func sessionView(snap commandSnapshot, _ string) string { return sessionReport(snap.Session) }

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

// runReset is /reset [all]: a fresh context in the same session (the log keeps everything;
// the goal stays unless "all"). Commands run only while the session is idle, so no turn is
// cut in half: a turn that runs gets the busy answer instead.
func runReset(h commandHost, arg string) *messages.InputAck {
	all := strings.EqualFold(strings.TrimSpace(arg), "all")
	if a := strings.TrimSpace(arg); a != "" && !all {
		return commandOutput(fmt.Sprintf("/reset %s: use /reset (the goal stays) or /reset all (the goal is cleared too)", a))
	}
	if !h.Idle() {
		return commandOutput("a turn is running; wait for it or cancel it, then /reset")
	}
	snap := h.Snapshot()
	b, changed, err := h.ResetContext(!all)
	switch {
	case err != nil:
		return commandOutput(fmt.Sprintf("/reset: %v (the context is unchanged)", err))
	case !changed && all:
		return commandOutput(clearGoalForReset(h, snap.Status.Goal, "the context is already empty"))
	case !changed:
		return commandOutput("the context is already empty")
	}
	msg := fmt.Sprintf("fresh context: entries %d–%d stay in the log (troupe log %s) but the model no longer sees them", b.FromSeq, b.ToSeq, shortSessionID(snap.Session.ID))
	if all {
		return commandOutput(clearGoalForReset(h, snap.Status.Goal, msg))
	}
	if g := snap.Status.Goal; g != nil && g.Status == messages.GoalActive {
		msg += "; the goal stays (/reset all clears it)"
	}
	return commandOutput(msg)
}

// clearGoalForReset is /reset all's second half: the goal, if one is set, is cleared too.
func clearGoalForReset(h commandHost, goal *messages.Goal, msg string) string {
	if goal == nil || goal.Status == messages.GoalCleared {
		return msg
	}
	return msg + "; " + h.Goal("clear")
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
	how := "/model NAME switches for the next turns (another provider uses its own endpoint and key)"
	if !canSwitch {
		how = "to change it, end the session and run troupe resume ID --model NAME"
	}
	return fmt.Sprintf("model       %s (asked for as %s)\nendpoint    %s\ncontext     %d tokens\nprice       %s\n%s",
		model, name, host, window, price, how)
}

// runModel is /model [NAME]: show the model, or switch it for the next turns (on the same
// endpoint within a provider; another provider uses its own, see llm.EndpointFor). The client
// is built off the actor; the switch applies on it.
func runModel(h commandHost, arg string) *messages.InputAck {
	m := h.Snapshot().Model
	name := strings.TrimSpace(arg)
	if name == "" {
		return commandOutput(modelView(m))
	}
	if !m.CanSwitch {
		return commandOutput("this session cannot switch models; end it and run troupe resume ID --model " + name)
	}
	// A resumed session's prompt mode may be only in its meta: the snapshot has it either way.
	return reconfigure(h, qualifyModel(name, m.Wire), m.PromptMode, "/model")
}

// modelView is /model without a name: the model in use, then the models the configured
// providers offer (llm.KnownModels), the current one marked.
func modelView(m modelFacts) string {
	return modelReport(m.Model, m.Name, m.BaseURL, m.Window, m.CanSwitch) + "\n" + knownModelsReport(m.Known, m.Wire)
}

// knownModelsReport lists the known models, * marking the one in use.
func knownModelsReport(known []string, current string) string {
	if len(known) == 0 {
		return "models      none known: set a provider's API key (OPENAI_API_KEY, ANTHROPIC_API_KEY, …) or name any model"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "models (%d known for the configured providers; any other name works too):", len(known))
	for _, k := range known {
		mark := " "
		if k == current {
			mark = "*"
		}
		fmt.Fprintf(&b, "\n %s %s", mark, k)
	}
	return b.String()
}

// qualifyModel gives a bare model name the current model's provider: on openai/gpt-4o-mini,
// /model gpt-4o means openai/gpt-4o (on the same endpoint).
func qualifyModel(name, current string) string {
	provider, _, ok := strings.Cut(current, "/")
	if strings.ContainsAny(name, "/:") || !ok || strings.Contains(provider, ":") {
		return name
	}
	return provider + "/" + name
}

// runPrompt is /prompt [NAME]: show the prompt modes, or switch for the next turn.
func runPrompt(h commandHost, arg string) *messages.InputAck {
	m := h.Snapshot().Model
	name := strings.ToLower(strings.TrimSpace(arg))
	current := m.PromptMode
	if !m.CanSwitchPrompt {
		return commandOutput("prompt mode " + current + " (this session cannot switch; troupe resume ID --prompt-mode NAME)")
	}
	if name == "" {
		modesFor := h.PromptModes()
		h.Later(commandDiskTimeout, func() func() string {
			modes, err := modesFor()
			return func() string { return promptModesReport(modes, current, err) }
		}, func(err error) string { return promptModesReport(nil, current, err) })
		return nil
	}
	if name == current {
		return commandOutput("prompt mode " + name + " already")
	}
	return reconfigure(h, m.Wire, name, "/prompt")
}
