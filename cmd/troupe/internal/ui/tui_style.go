package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// styles are the TUI's looks. With NO_COLOR every one is plain or a text attribute (bold,
// faint, reverse): no colour at all.
type styles struct {
	user, title, dim, selected lipgloss.Style
	ok, fail, add, del         lipgloss.Style
	dialog, status             lipgloss.Style
}

func newStyles(noColor bool) styles {
	plain := lipgloss.NewStyle()
	s := styles{
		user:     plain.Bold(true),
		title:    plain.Bold(true),
		dim:      plain.Faint(true),
		selected: plain.Reverse(true),
		ok:       plain, fail: plain, add: plain, del: plain,
		dialog: plain.Border(lipgloss.RoundedBorder()).Padding(0, 1),
		status: plain.Reverse(true),
	}
	if noColor {
		return s
	}
	s.user = s.user.Foreground(lipgloss.Color("12"))
	s.ok = plain.Foreground(lipgloss.Color("10"))
	s.fail = plain.Foreground(lipgloss.Color("9"))
	s.add = plain.Foreground(lipgloss.Color("2"))
	s.del = plain.Foreground(lipgloss.Color("1"))
	s.dialog = s.dialog.BorderForeground(lipgloss.Color("11"))
	s.status = plain.Foreground(lipgloss.Color("252")).Background(lipgloss.Color("236"))
	return s
}

// diffLine colours one line of a unified diff.
func (s styles) diffLine(l string) string {
	switch {
	case strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++"):
		return s.add.Render(l)
	case strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---"):
		return s.del.Render(l)
	}
	return l
}

// markdown renders complete answers (tui_markdown.go) and remembers the last rendering of each
// text and width, so a redraw does not render it again.
type markdown struct {
	st    mdStyles
	cache map[mdKey]string
}

type mdKey struct {
	text  string
	width int
}

// maxMarkdownCache bounds the remembered renderings; past it they are dropped and redone.
const maxMarkdownCache = 256

func newMarkdown(noColor bool) *markdown {
	return &markdown{st: newMDStyles(noColor), cache: map[mdKey]string{}}
}

// render is text as markdown within width, indented by two cells.
func (md *markdown) render(text string, width int) string {
	k := mdKey{text, width}
	if out, ok := md.cache[k]; ok {
		return out
	}
	lines := strings.Split(renderMarkdown(text, width-2, md.st), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	out := strings.Join(lines, "\n")
	if len(md.cache) >= maxMarkdownCache {
		clear(md.cache)
	}
	md.cache[k] = out
	return out
}
