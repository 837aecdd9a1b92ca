package ui

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/troupe-dev/troupe/internal/textfmt"

	"github.com/troupe-dev/troupe/messages"
)

// The two views of the agent tree: a frame redrawn in place on a terminal, and one plain line
// per state change when the output is piped.

// frameHeader is what the watcher knows beyond the tree: where it is connected, how busy the
// bus is.
type frameHeader struct {
	status string // "node n123 (pid 123)", or what the watcher waits for
	rate   int    // events in the last second
}

// renderFrame draws the tree within focus as at most height lines, none wider than width: a
// header, a column header, one row per agent (children under their parent), then the pending
// approvals with how to answer them. Finished top-level trees give way first when it does not
// fit.
func renderFrame(t *agentTree, focus string, h frameHeader, now time.Time, width, height int) []string {
	rows := t.rows(focus)
	running := 0
	for _, r := range rows {
		if r.Running() {
			running++
		}
	}
	out := []string{fmt.Sprintf("troupe watch · %s · %d running · %d events/s", h.status, running, h.rate)}
	if len(rows) == 0 {
		if focus != "" {
			out = append(out, fmt.Sprintf("no events from session %s or its agents yet", focus))
		} else {
			out = append(out, `no sessions running: start one with troupe run --detach "task"`)
		}
		return clipLines(out, width)
	}
	var footer []string
	for _, ap := range t.approvals(focus) {
		footer = append(footer, fmt.Sprintf("? %s %s (%s): %s — troupe approve %s allow|deny|allow-session",
			ap.call.id, ap.agent.Handle, ShortID(ap.agent.Session), ap.call.summary, ap.call.id))
	}
	budget := height - 1 - len(out) - 1 - len(footer) // keep the last line free so nothing scrolls
	rows, hidden := fitRows(rows, budget)
	out = append(out, tableLines(rows, now)...)
	if hidden > 0 {
		out = append(out, fmt.Sprintf("… %d more agents (troupe watch SESSION shows one tree)", hidden))
	}
	return clipLines(append(out, footer...), width)
}

// fitRows drops whole finished top-level trees, oldest first, then cuts the tail, until the
// rows fit in budget. It returns the rows kept and how many were left out.
func fitRows(rows []treeRow, budget int) ([]treeRow, int) {
	total := len(rows)
	if total <= budget {
		return rows, 0
	}
	budget = max(budget-1, 1) // a line says how many were left out
	for len(rows) > budget {
		start, end := -1, -1
		for i := 0; i < len(rows); {
			j := i + 1
			for j < len(rows) && len(rows[j].last) > 0 {
				j++
			}
			if treeFinished(rows[i:j]) {
				start, end = i, j
				break
			}
			i = j
		}
		if start < 0 {
			break
		}
		rows = append(rows[:start:start], rows[end:]...)
	}
	if len(rows) > budget {
		rows = rows[:budget]
	}
	return rows, total - len(rows)
}

func treeFinished(rows []treeRow) bool {
	for _, r := range rows {
		if r.outcome == "" {
			return false
		}
	}
	return true
}

// tableLines lays the rows out in aligned columns under a column header.
func tableLines(rows []treeRow, now time.Time) []string {
	cells := [][]string{{"AGENT", "SESSION", "ROLE", "STATE", "TURN", "TOKENS", "TIME", "TASK"}}
	for _, r := range rows {
		detail := firstLineOf(r.Task)
		if r.outcome != "" && r.outcome != string(messages.StatusDone) && r.detail != "" {
			detail = r.detail
		}
		cells = append(cells, []string{
			treePrefix(r.last) + r.where(),
			ShortID(r.Session),
			orDash(r.Role),
			textfmt.ClipRunes(r.State(), 48),
			fmt.Sprint(r.Turns),
			fmtTokens(r.Tokens()),
			fmtElapsed(r.Elapsed(now)),
			detail,
		})
	}
	widths := []int{16, 6, 8, 28, 4, 6, 4, 0} // minimums, so columns hold still while states change
	for _, row := range cells {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	lines := make([]string, 0, len(cells))
	for _, row := range cells {
		var b strings.Builder
		for i, c := range row {
			switch {
			case i == len(row)-1:
				b.WriteString(c)
			case i >= 4 && i <= 6: // numbers align right
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)) + c + "  ")
			default:
				b.WriteString(c + strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)) + "  ")
			}
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	return lines
}

// where is the agent's handle, with "@worker" for one that runs on a worker.
func (a *agent) where() string {
	if a.Worker == "" {
		return a.Handle
	}
	return a.Handle + "@" + a.Worker
}

// treePrefix draws the branches in front of an agent: last[i] tells whether the agent (or its
// ancestor) at depth i+1 is the last child of its parent.
func treePrefix(last []bool) string {
	if len(last) == 0 {
		return ""
	}
	var b strings.Builder
	for _, l := range last[:len(last)-1] {
		if l {
			b.WriteString("   ")
		} else {
			b.WriteString("│  ")
		}
	}
	if last[len(last)-1] {
		b.WriteString("└─ ")
	} else {
		b.WriteString("├─ ")
	}
	return b.String()
}

// agentLine is the plain form of an agent's state, for piped output:
// "12:01:02 3f9a1c root/verify_retries verifier tool bash go test ./...". The short id is the
// top-level session's, so every line of one tree carries the same one.
func agentLine(t *agentTree, a *agent, ts time.Time, loc *time.Location) string {
	line := fmt.Sprintf("%s %s %s %s %s", ts.In(loc).Format("15:04:05"), ShortID(t.rootOf(a).Session), a.where(),
		orDash(a.Role), a.State())
	if d := lineDetail(a, ts); d != "" {
		line += " · " + d
	}
	return line
}

// lineDetail is what follows the state in a plain line.
func lineDetail(a *agent, ts time.Time) string {
	switch {
	case a.outcome != "":
		parts := []string{textfmt.Count(a.Turns, "turn"), fmtTokens(a.Tokens()) + " tokens"}
		if e := a.Elapsed(ts); e > 0 {
			parts = append(parts, fmtElapsed(e))
		}
		if a.detail != "" {
			parts = append(parts, textfmt.ClipRunes(a.detail, 160))
		}
		return strings.Join(parts, " · ")
	case len(a.asks) > 0:
		c := a.asks[0]
		return fmt.Sprintf("%s %s · troupe approve %s allow|deny|allow-session", c.id, c.summary, c.id)
	case len(a.tools) > 0:
		return ""
	case a.phase == phaseStarted:
		parts := []string{}
		for _, p := range []string{a.Model, a.Mode, textfmt.ClipRunes(firstLineOf(a.Task), 100)} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		return strings.Join(parts, " · ")
	case a.phase == string(messages.AgentQueued):
		return textfmt.ClipRunes(firstLineOf(a.Task), 100)
	case a.phase == phaseThinking && a.Turns > 0:
		return fmt.Sprintf("turn %d", a.Turns)
	}
	return ""
}

// lineKey identifies a state worth a line: a new turn, a new approval request and a new
// outcome count as changes; a refreshed detail does not.
func lineKey(a *agent) string {
	switch s := a.State(); {
	case s == phaseThinking:
		return fmt.Sprintf("%s %d", s, a.Turns)
	case s == stateApproval:
		return s + " " + a.asks[0].id
	default:
		return s
	}
}

// transient states pass too quickly to be worth a line of their own.
func transient(state string) bool { return state == phaseWorking || state == phaseIdle }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// fmtTokens is a token count for people: 950, 12.4k, 1.2M.
func fmtTokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}

// fmtElapsed is a duration for people: 42s, 3m07s, 1h02m; "-" when unknown.
func fmtElapsed(d time.Duration) string {
	switch {
	case d <= 0:
		return "-"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

func clipLines(lines []string, width int) []string {
	if width <= 0 {
		return lines
	}
	for i, l := range lines {
		lines[i] = textfmt.ClipRunes(l, width)
	}
	return lines
}
