package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
)

// The approval dialog: the oldest pending request of this session or one of its subagents, with
// the exact command or diff, answered with y / n / a or by choosing with the arrows and Enter. A request answered
// elsewhere (troupe approve, another terminal) closes it.

// pendingAsk is an approval request waiting in the dialog, with the session that made it (the
// chat's own, or a subagent's: call ids repeat across sessions).
type pendingAsk struct {
	session string
	*messages.ApprovalRequestedData
}

// onSubagentEvent puts the approval requests of this chat's subagents in the dialog and drops
// them once decided; every other envelope of another session only feeds the agent tree.
func (m *tuiModel) onSubagentEvent(env *messages.Envelope) tea.Cmd {
	if env.Type != messages.EventToolApproval && env.Type != messages.EventToolDecision && env.Type != messages.EventToolRejected {
		return nil
	}
	a := m.tree.agents[env.Session]
	if a == nil || !m.tree.within(a, m.cfg.id) {
		return nil
	}
	v, err := env.DecodeData()
	if err != nil {
		return nil
	}
	switch d := v.(type) {
	case *messages.ApprovalRequestedData:
		if !m.asking(env.Session, d.CallID) {
			m.asks = append(m.asks, pendingAsk{env.Session, d})
		}
	case *messages.DecisionData:
		if d.Decision != messages.DecisionAsked && m.dropAsk(env.Session, d.CallID) {
			m.log.note("approval of %s (%s) answered: %s", d.CallID, a.Handle, d.Decision)
		}
	}
	return nil
}

// dialogChoice is one answer the dialog offers.
type dialogChoice struct {
	key, label string
	answer     messages.Answer
}

var dialogChoices = []dialogChoice{
	{"y", "allow", messages.AnswerAllow},
	{"n", "deny", messages.AnswerDeny},
	{"a", "allow for this session", messages.AnswerAllowSession},
}

// dialogKey answers the open request, or moves the selection.
func (m *tuiModel) dialogKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "left", "up", "shift+tab":
		m.choice = (m.choice + len(dialogChoices) - 1) % len(dialogChoices)
	case "right", "down", "tab":
		m.choice = (m.choice + 1) % len(dialogChoices)
	case "enter":
		return m.answer(dialogChoices[m.choice].answer)
	case "esc":
		return m.answer(messages.AnswerDeny)
	default:
		for _, c := range dialogChoices {
			if strings.EqualFold(k.String(), c.key) {
				return m.answer(c.answer)
			}
		}
	}
	return nil
}

// answer sends the answer to the oldest request and closes its dialog; a failure (answered
// elsewhere first, the turn ended) becomes a note.
func (m *tuiModel) answer(answer messages.Answer) tea.Cmd {
	ask := m.asks[0]
	m.asks, m.choice = m.asks[1:], 0
	s := m.cfg.session
	return func() tea.Msg {
		if err := s.Approve(ask.session, ask.CallID, answer, "chat"); err != nil {
			return noteMsg(fmt.Sprintf("approval of %s: %v", ask.CallID, err))
		}
		return nil
	}
}

// dropAsk closes the dialog of a call settled elsewhere; it reports whether one was open.
func (m *tuiModel) dropAsk(session, call string) bool {
	for i, a := range m.asks {
		if a.session == session && a.CallID == call {
			m.asks = append(m.asks[:i], m.asks[i+1:]...)
			if i == 0 {
				m.choice = 0
			}
			return true
		}
	}
	return false
}

func (m *tuiModel) asking(session, call string) bool {
	for _, a := range m.asks {
		if a.session == session && a.CallID == call {
			return true
		}
	}
	return false
}

// dialogView draws the oldest request in a box of the given width, at most maxLines tall
// (a long diff is cut, with how much was left out).
func (m *tuiModel) dialogView(width, maxLines int) string {
	a := m.asks[0]
	s := a.Summary
	head := "Allow " + s.Tool
	if a.session != m.cfg.id {
		if ag := m.tree.agents[a.session]; ag != nil && ag.Handle != "" {
			head = ag.Handle + ": " + head
		}
	}
	if s.Operation != "" {
		head += " (" + s.Operation + ")"
	}
	if s.Path != "" {
		head += " " + s.Path
	}
	if s.Size > 0 {
		head += fmt.Sprintf(", %d bytes", s.Size)
	}
	if more := len(m.asks) - 1; more > 0 {
		head += fmt.Sprintf("  (+%d more waiting)", more)
	}
	inner := max(width-4, 10)
	lines := []string{m.st.title.Render(textfmt.ClipRunes(head, inner))}
	var body []string
	if s.Command != "" {
		body = append(body, textfmt.WrapRunes("$ "+s.Command, inner)...)
	}
	if s.Diff != "" {
		for _, l := range strings.Split(strings.TrimRight(s.Diff, "\n"), "\n") {
			body = append(body, m.st.diffLine(textfmt.ClipRunes(l, inner)))
		}
	}
	if a.Reason != "" {
		body = append(body, m.st.dim.Render(textfmt.ClipRunes("("+firstLineOf(a.Reason)+")", inner)))
	}
	room := max(maxLines-5, 1) // border, head, choices
	if len(body) > room {
		cut := len(body) - room + 1
		body = append(body[:room-1], m.st.dim.Render(fmt.Sprintf("… %d more lines", cut)))
	}
	lines = append(lines, body...)
	var opts []string
	for i, c := range dialogChoices {
		label := fmt.Sprintf("[%s] %s", c.key, c.label)
		if i == m.choice {
			label = m.st.selected.Render("> " + label)
		} else {
			label = "  " + label
		}
		opts = append(opts, label)
	}
	lines = append(lines, strings.Join(opts, " "))
	return m.st.dialog.Width(width).Render(strings.Join(lines, "\n"))
}
