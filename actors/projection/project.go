package projection

import (
	"strings"
	"time"

	"github.com/troupe-dev/troupe/llm"
)

// Defaults of Input.
const (
	DefaultIdleGap      = 30 * time.Minute // about when provider prompt caches expire
	DefaultKeepOutputs  = 6
	DefaultPreviewBytes = 1024
)

// StateBlock is one piece of app state shown to the model after the conversation: the goal, the
// todo list, the changed files, the running agents.
type StateBlock struct {
	Title, Body string
}

// Input is everything a projection depends on. Project reads nothing else, so the same Input
// always gives the same messages.
type Input struct {
	Items []Item    // the log, as FromEntries gives it
	Now   time.Time // the time of the call; an idle gap may end here
	// IdleGap is the pause after which older tool outputs become previews; 0 means
	// DefaultIdleGap and a negative value turns the microcompact off.
	IdleGap time.Duration
	// KeepOutputs is how many of the latest tool results stay whole after an idle gap; 0 means
	// DefaultKeepOutputs and a negative value keeps none.
	KeepOutputs int
	// PreviewBytes bounds the head of an elided output; 0 (or less) means DefaultPreviewBytes.
	PreviewBytes int
	// State is appended as a final "[troupe state]" user message when not empty.
	State []StateBlock
	// Echo, when set, prepares assistant messages for the model the call goes to (Echo.Apply).
	Echo *Echo
}

// Echo says which model a call goes to, for what its assistant messages carry: reasoning is
// echoed only to the model that wrote it (docs/DESIGN-NOTES.md "Provider errors and
// retries"). The adapters compare a message's Model with the request's model name, so
// messages stamped Stamp (the full provider/model string) are stamped Model (the name the
// provider is asked for), and every other model's reasoning is dropped.
type Echo struct{ Stamp, Model string }

// Apply prepares one message as Echo says.
func (e Echo) Apply(m *llm.Message) {
	if m.Role != llm.RoleAssistant {
		return
	}
	if m.Model == e.Stamp {
		m.Model = e.Model
	} else {
		m.Reasoning, m.ReasoningBlocks = "", nil
	}
}

// StateHeader opens the state message.
const StateHeader = "[troupe state]"

// Project builds the messages of the next model call from in. In order: the last compact
// boundary, rendered, in place of everything it replaced; the entries after it, verbatim
// except that after an idle gap older tool outputs become previews; the state blocks. State
// comes last so that the conversation before it stays a stable prefix for prompt caches.
//
// Project is pure and deterministic. It never modifies in.Items; the messages it returns share
// their ToolCalls arrays with the items (capped, so appending to one copies) and must not be
// modified in place: a Projector's answers share their backing array with the ones before
// them (see Projector). If the items' messages pass Violations, so do the returned ones.
func Project(in Input) []llm.Message {
	var p Projector
	return p.Project(in)
}

// renderState renders blocks as "## Title\nBody" sections under StateHeader.
func renderState(blocks []StateBlock) string {
	var sb strings.Builder
	sb.WriteString(StateHeader)
	for _, s := range blocks {
		sb.WriteString("\n\n## " + strings.TrimSpace(s.Title) + "\n" + strings.TrimRight(s.Body, "\n"))
	}
	return sb.String()
}
