package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/llm"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// View draws, top to bottom: the conversation (its newest part, or scrolled), the agent tree
// when toggled, the approval dialog or the input, a spinner line while a turn runs, and the
// status line. Every line fits the width; the conversation gets the rows the rest leaves.
func (m *tuiModel) View() tea.View {
	if m.quitting {
		return tea.NewView("")
	}
	now := m.cfg.now()
	var bottom []string
	if m.showTree {
		frame := renderFrame(m.tree, m.cfg.id, frameHeader{status: "agents (Ctrl-T hides)"}, now, m.width, max(m.height/3, 4))
		frame[0] = strings.TrimPrefix(frame[0], "troupe watch · ")
		bottom = append(bottom, strings.Join(frame, "\n"))
	}
	if m.busy {
		bottom = append(bottom, m.spinnerLine(now))
	}
	if len(m.hint) > 0 && len(m.asks) == 0 {
		bottom = append(bottom, m.hintLine())
	}
	if len(m.asks) > 0 {
		bottom = append(bottom, m.dialogView(m.width, max(m.height*2/3, 8)))
	} else {
		bottom = append(bottom, m.input.View())
	}
	bottom = append(bottom, m.statusLine(now))
	tail := strings.Join(bottom, "\n")
	room := max(m.height-lipgloss.Height(tail), 1)
	view := tea.NewView(m.transcriptView(room) + "\n" + tail)
	view.AltScreen = true
	view.WindowTitle = "troupe · " + ShortID(m.cfg.id)
	return view
}

// transcriptHeight is roughly the rows the conversation gets (for paging).
func (m *tuiModel) transcriptHeight() int { return max(m.height-4, 1) }

// transcriptView is the conversation's lines that fit in rows, the newest at the bottom unless
// scrolled up.
func (m *tuiModel) transcriptView(rows int) string {
	var lines []string
	for _, e := range m.log.entries {
		lines = append(lines, m.drawnLines(e)...)
	}
	if len(lines) == 0 {
		lines = m.wrapStyled(fmt.Sprintf("troupe chat · %s · mode %s · session %s\n"+
			"Enter sends · Alt-Enter new line · Esc or Ctrl-C cancels a turn · Ctrl-C clears the input, "+
			"twice on an empty input leaves · Ctrl-T agents · "+
			"Ctrl-O expands a tool call (Alt-Up/Alt-Down picks one) · PgUp/PgDn scroll · /help · /exit", m.cfg.model, m.cfg.mode, m.cfg.id), m.width, m.st.dim)
	}
	m.scroll = min(m.scroll, max(len(lines)-rows, 0))
	end := len(lines) - m.scroll
	start := max(end-rows, 0)
	shown := lines[start:end]
	if m.scroll > 0 && len(shown) > 0 { // say there is more below, and how to get there
		shown[len(shown)-1] = m.st.selected.Render(textfmt.ClipRunes(fmt.Sprintf(" ↓ %d more lines (PgDn) ", m.scroll), m.width))
	}
	for len(shown) < rows {
		shown = append([]string{""}, shown...)
	}
	return strings.Join(shown, "\n")
}

// drawnEntry is an entry as last drawn, kept while it cannot change (it is complete, and the
// width and its expansion are the same), so a redraw does not wrap and render it again.
type drawnEntry struct {
	width    int
	expanded bool
	lines    []string
}

func (m *tuiModel) drawnLines(e *entry) []string {
	final := !e.open && (e.kind != entryTool || e.done) && e != m.picked
	if d, ok := m.drawn[e]; ok && final && d.width == m.width && d.expanded == e.expanded {
		return d.lines
	}
	lines := m.entryLines(e)
	if final {
		m.drawn[e] = drawnEntry{width: m.width, expanded: e.expanded, lines: lines}
	}
	return lines
}

// maxExpanded bounds an expanded tool call's lines.
const maxExpanded = 60

// entryLines draws one entry of the conversation, each line within the width.
func (m *tuiModel) entryLines(e *entry) []string {
	w := m.width
	switch e.kind {
	case entryUser:
		return append([]string{""}, m.wrap(m.st.user.Render("› ")+e.text, w)...)
	case entryAnswer:
		if e.open {
			return m.wrap(e.text, w)
		}
		return strings.Split(m.md.render(e.text, w), "\n")
	case entryReasoning:
		lines := m.wrap(strings.TrimSpace(e.text), w-2)
		if !e.open && len(lines) > 3 {
			lines = append(lines[:2], fmt.Sprintf("… (%d more lines of reasoning)", len(lines)-2))
		}
		for i, l := range lines {
			lines[i] = m.st.dim.Render("  " + l)
		}
		return lines
	case entryTool:
		return m.toolLines(e, w)
	}
	return m.wrapStyled(e.text, w, m.st.dim)
}

func (m *tuiModel) toolLines(e *entry, w int) []string {
	line := textfmt.ClipRunes(e.toolLine(), w)
	if e == m.picked {
		line = m.st.selected.Render("▸") + strings.TrimPrefix(line, "→")
	}
	switch {
	case e.done && e.failed:
		line = strings.Replace(line, "✗", m.st.fail.Render("✗"), 1)
	case e.done:
		line = strings.Replace(line, "✓", m.st.ok.Render("✓"), 1)
	}
	out := []string{line}
	if !e.expanded {
		return out
	}
	detail := strings.Split(strings.TrimRight(e.detail(), "\n"), "\n")
	if len(detail) > maxExpanded {
		detail = append(detail[:maxExpanded], fmt.Sprintf("… %d more lines", len(detail)-maxExpanded))
	}
	for _, l := range detail {
		out = append(out, m.st.diffLine(textfmt.ClipRunes("  │ "+ansi.Strip(l), w)))
	}
	return out
}

// wrap cuts text into lines of at most width cells, words kept whole where they fit.
func (m *tuiModel) wrap(text string, width int) []string {
	return strings.Split(ansi.Wrap(text, max(width, 10), ""), "\n")
}

func (m *tuiModel) wrapStyled(text string, width int, st lipgloss.Style) []string {
	lines := m.wrap(text, width)
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return lines
}

// spinnerFrames turn while the model thinks or a tool runs.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func (m *tuiModel) spinnerLine(now time.Time) string {
	frame := spinnerFrames[int(now.UnixMilli()/100)%len(spinnerFrames)]
	what := m.log.phase
	if what == "" {
		what = phaseThinking
	}
	hint := "Esc or Ctrl-C cancels"
	if len(m.asks) > 0 {
		what, hint = stateApproval, "Ctrl-C cancels" // Esc answers the dialog
	}
	if m.cancelling {
		hint = "cancelling…"
	}
	took := max(now.Sub(m.busySince), 0)
	elapsed := fmtElapsed(took)
	if took < time.Minute {
		elapsed = fmt.Sprintf("%.1fs", took.Seconds())
	}
	return textfmt.ClipRunes(fmt.Sprintf("%s %s… %s · %s", frame, what, elapsed, hint), m.width)
}

// costLabel is the session's cost at its model's list price; "cost –" for a model the price
// table does not know (never a guess).
func costLabel(model string, in, out int) string {
	p, ok := llm.PriceOf(model)
	if !ok {
		return "cost –"
	}
	switch c := p.Cost(in, 0, out); {
	case c == 0:
		return "cost $0"
	case c < 0.01:
		return "cost <$0.01"
	default:
		return fmt.Sprintf("cost $%.2f", c)
	}
}

// statusLine is model · mode · context % · tokens · cost · elapsed, then the keys that fit.
func (m *tuiModel) statusLine(now time.Time) string {
	ctx := "ctx –"
	if pct := m.log.contextPct; pct >= 0 {
		ctx = fmt.Sprintf("ctx %.0f%%", pct)
	}
	parts := []string{orDash(m.cfg.model), "mode " + orDash(m.cfg.mode), ctx,
		fmt.Sprintf("tokens %s in / %s out", fmtTokens(m.log.inTokens), fmtTokens(m.log.outTokens)),
		costLabel(m.cfg.model, m.log.inTokens, m.log.outTokens), fmtElapsed(now.Sub(m.started))}
	line := " " + strings.Join(parts, " · ")
	if m.leaveArmed {
		line = " Ctrl-C again leaves (the session ends; troupe resume continues it) · any other key stays"
	} else if keys := "  ^T agents ^O expand ^C^C exit "; ansi.StringWidth(line+keys) <= m.width {
		line += strings.Repeat(" ", m.width-ansi.StringWidth(line+keys)) + keys
	}
	line = textfmt.ClipRunes(line, m.width)
	if pad := m.width - ansi.StringWidth(line); pad > 0 {
		line += strings.Repeat(" ", pad)
	}
	return m.st.status.Render(line)
}
