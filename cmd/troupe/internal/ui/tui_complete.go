package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/troupe-dev/troupe/internal/textfmt"
)

// completeMsg is what a Tab found for the input as it was when Tab was pressed.
type completeMsg struct {
	line string
	c    Completion
}

// complete starts completing the end of the input (Tab). The completion runs as a command,
// off Update, since an @path reads a folder.
func (m *tuiModel) complete() tea.Cmd {
	c, line := m.cfg.complete, m.input.Value()
	return func() tea.Msg { return completeMsg{line: line, c: c.Complete(line)} }
}

// onComplete applies a completion to the input, unless the input changed meanwhile (Ctrl-C
// cleared it, a key was typed): then it is dropped. Several candidates show on the hint line
// until the next key.
func (m *tuiModel) onComplete(msg completeMsg) {
	if m.input.Value() != msg.line {
		return
	}
	next, changed := msg.c.Apply(msg.line)
	if changed {
		m.input.SetValue(next)
	}
	switch n := len(msg.c.Candidates); {
	case n == 0:
		word := msg.line[msg.c.From:]
		if strings.HasPrefix(word, "@") {
			m.hint = []string{fmt.Sprintf("no file or folder matches %s", word)}
		} else if strings.HasPrefix(msg.line, "/") {
			m.hint = []string{"nothing to complete here (/help lists the commands)"}
		}
	case n > 1 || msg.c.More > 0:
		m.hint = msg.c.Candidates
		if msg.c.More > 0 {
			m.hint = append(m.hint, fmt.Sprintf("… %d more", msg.c.More))
		}
	default:
		m.hint = nil
	}
}

// hintLine is the hint under the spinner: the candidates of the last Tab, within two lines.
func (m *tuiModel) hintLine() string {
	lines := strings.Split(wrapPlain(m.hint, m.width), "\n")
	if len(lines) > 2 {
		lines = lines[:2]
		lines[1] = textfmt.ClipRunes(lines[1], m.width-2) + " …"
	}
	return m.st.dim.Render(strings.Join(lines, "\n"))
}

// wrapPlain lays items out two spaces apart, breaking lines so none is wider than width.
func wrapPlain(items []string, width int) string {
	var b strings.Builder
	col := 0
	for _, w := range items {
		n := len([]rune(w))
		if col > 0 && col+1+n > width {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteString("  ")
			col += 2
		}
		b.WriteString(textfmt.ClipRunes(w, width))
		col += n
	}
	return b.String()
}
