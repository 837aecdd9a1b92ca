package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// inputHistory is the lines sent in this chat, oldest first, walked with up and down. Walking
// away from a line being typed keeps it, so coming back down restores it.
type inputHistory struct {
	lines []string
	pos   int    // index into lines while walking; len(lines) when not walking
	draft string // what was being typed when the walk began
}

// add records a sent line (a repeat of the last one is kept once) and ends any walk.
func (h *inputHistory) add(line string) {
	if strings.TrimSpace(line) != "" && (len(h.lines) == 0 || h.lines[len(h.lines)-1] != line) {
		h.lines = append(h.lines, line)
	}
	h.pos, h.draft = len(h.lines), ""
}

// older returns the line before the current one; ok is false at the oldest.
func (h *inputHistory) older(current string) (string, bool) {
	if h.pos == 0 || len(h.lines) == 0 {
		return "", false
	}
	if h.pos >= len(h.lines) {
		h.pos, h.draft = len(h.lines), current
	}
	h.pos--
	return h.lines[h.pos], true
}

// newer returns the line after the current one, or the draft past the newest; ok is false
// when not walking.
func (h *inputHistory) newer() (string, bool) {
	if h.pos >= len(h.lines) {
		return "", false
	}
	h.pos++
	if h.pos == len(h.lines) {
		return h.draft, true
	}
	return h.lines[h.pos], true
}

// maxInputLines is the tallest the input grows before it scrolls.
const maxInputLines = 6

// newInput is the multi-line editor: Enter sends (the model handles it), Alt-Enter,
// Shift-Enter or Ctrl-J start a new line.
func newInput(noColor bool) textarea.Model {
	in := textarea.New()
	in.Prompt = "› "
	in.Placeholder = "ask, or /help · Enter sends · Alt-Enter new line"
	in.ShowLineNumbers = false
	in.CharLimit = 0
	in.DynamicHeight = true
	in.MinHeight = 1
	in.MaxHeight = maxInputLines  // what shows; a longer text scrolls
	in.MaxContentHeight = 1 << 16 // and is not refused
	in.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("alt+enter", "shift+enter", "ctrl+j"))
	st := textarea.DefaultStyles(true)
	plain := lipgloss.NewStyle()
	for _, s := range []*textarea.StyleState{&st.Focused, &st.Blurred} {
		s.CursorLine, s.EndOfBuffer, s.Text, s.Prompt = plain, plain, plain, plain
		if noColor {
			s.Placeholder, s.Selection = plain, plain
		}
	}
	st.Cursor.Blink = false
	if noColor {
		st.Cursor.Color = nil // the block cursor is reverse video alone
	}
	in.SetStyles(st)
	in.Focus()
	return in
}

// historyKey moves through the history when the cursor is on the first line (up) or the last
// (down), so up and down still move within a multi-line input.
func historyKey(in *textarea.Model, h *inputHistory, k tea.KeyPressMsg) bool {
	switch k.String() {
	case "up":
		if in.Line() != 0 {
			return false
		}
		if line, ok := h.older(in.Value()); ok {
			in.SetValue(line)
			return true
		}
	case "down":
		if in.Line() != in.LineCount()-1 {
			return false
		}
		if line, ok := h.newer(); ok {
			in.SetValue(line)
			return true
		}
	}
	return false
}
