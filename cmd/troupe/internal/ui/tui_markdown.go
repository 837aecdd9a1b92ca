package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	md "github.com/troupe-dev/troupe/internal/markdown"
	"github.com/troupe-dev/troupe/internal/textfmt"
)

// mdStyles are how markdown elements look; with NO_COLOR only text attributes are used.
type mdStyles struct {
	heading, bold, italic, code, strike, link, quote lipgloss.Style
}

func newMDStyles(noColor bool) mdStyles {
	plain := lipgloss.NewStyle()
	s := mdStyles{heading: plain.Bold(true), bold: plain.Bold(true), italic: plain.Italic(true),
		code: plain, strike: plain.Strikethrough(true), link: plain.Underline(true), quote: plain.Faint(true)}
	if !noColor {
		s.heading = s.heading.Foreground(lipgloss.Color("13"))
		s.code = plain.Foreground(lipgloss.Color("11"))
		s.link = s.link.Foreground(lipgloss.Color("14"))
	}
	return s
}

// mdRenderer turns a complete answer's markdown into terminal lines: headings, emphasis, code,
// lists, quotes, tables and rules, wrapped to a width. It walks internal/markdown's tree rather
// than using Glamour, whose syntax highlighter and HTML sanitizer cost every troupe command (not
// only the chat) about 20 ms and 6 MB at start-up, or goldmark, whose initialisation cost every
// command about 1.4 ms (internal/markdown).
type mdRenderer struct {
	st mdStyles
}

// renderMarkdown renders src for a terminal width cells wide.
func renderMarkdown(src string, width int, st mdStyles) string {
	r := &mdRenderer{st: st}
	return strings.Join(r.blocks(md.Parse(src).Children, max(width, 10), false), "\n")
}

// blocks renders blocks, a blank line between them unless they are the blocks of an item of a
// tight list.
func (r *mdRenderer) blocks(ns []*md.Node, width int, tight bool) []string {
	var out []string
	for _, c := range ns {
		lines := r.block(c, width)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

func (r *mdRenderer) block(n *md.Node, width int) []string {
	switch n.Kind {
	case md.Heading:
		return r.wrap(r.st.heading.Render(strings.Repeat("#", n.Level)+" "+r.inline(n.Children)), width)
	case md.Paragraph:
		return r.wrap(r.inline(n.Children), width)
	case md.List:
		return r.list(n, width)
	case md.Quote:
		lines := r.blocks(n.Children, width-2, false)
		for i, l := range lines {
			lines[i] = r.st.quote.Render("│ ") + l
		}
		return lines
	case md.CodeBlock:
		var lines []string
		for _, l := range n.Lines {
			lines = append(lines, r.st.code.Render(textfmt.ClipRunes("  "+l, width)))
		}
		return lines
	case md.Rule:
		return []string{strings.Repeat("─", min(width, 40))}
	case md.HTMLBlock:
		var lines []string
		for _, l := range n.Lines {
			lines = append(lines, textfmt.ClipRunes(l, width))
		}
		return lines
	case md.Table:
		return r.table(n, width)
	}
	return r.blocks(n.Children, width, false)
}

// list renders items with a bullet or their number, their own blocks indented under it.
func (r *mdRenderer) list(l *md.Node, width int) []string {
	var out []string
	num := l.Start
	for _, item := range l.Children {
		mark := "• "
		if l.Ordered {
			mark = fmt.Sprintf("%d. ", num)
			num++
		}
		markWidth := ansi.StringWidth(mark) // • is three bytes but one cell
		pad := strings.Repeat(" ", markWidth)
		lines := r.blocks(item.Children, width-markWidth, l.Tight)
		if len(lines) == 0 {
			lines = []string{""}
		}
		for i, line := range lines {
			if i == 0 {
				lines[i] = mark + line
			} else if line != "" {
				lines[i] = pad + line
			}
		}
		if !l.Tight && len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// table renders rows as cells joined by │, each line cut to the width.
func (r *mdRenderer) table(t *md.Node, width int) []string {
	var out []string
	for _, row := range t.Children {
		var cells []string
		for _, cell := range row.Children {
			cells = append(cells, r.inline(cell.Children))
		}
		line := strings.Join(cells, " │ ")
		if row.Header {
			line = r.st.bold.Render(line)
		}
		out = append(out, ansi.Truncate(line, width, "…"))
	}
	return out
}

// inline renders inline nodes as one styled string (soft breaks become spaces).
func (r *mdRenderer) inline(ns []*md.Node) string {
	var b strings.Builder
	for _, c := range ns {
		switch c.Kind {
		case md.Text, md.RawHTML:
			b.WriteString(c.Literal)
		case md.SoftBreak:
			b.WriteString(" ")
		case md.HardBreak:
			b.WriteString("\n")
		case md.CodeSpan:
			b.WriteString(r.st.code.Render(c.Literal))
		case md.Emphasis:
			b.WriteString(r.st.italic.Render(r.inline(c.Children)))
		case md.Strong:
			b.WriteString(r.st.bold.Render(r.inline(c.Children)))
		case md.Strike:
			b.WriteString(r.st.strike.Render(r.inline(c.Children)))
		case md.Link:
			label := r.inline(c.Children)
			b.WriteString(r.st.link.Render(label))
			if c.Dest != "" && c.Dest != ansi.Strip(label) {
				b.WriteString(" (" + c.Dest + ")")
			}
		case md.AutoLink:
			b.WriteString(r.st.link.Render(c.Literal))
		case md.Image:
			b.WriteString("[image: " + ansi.Strip(r.inline(c.Children)) + "]")
		default:
			b.WriteString(r.inline(c.Children))
		}
	}
	return b.String()
}

// wrap cuts a styled string into lines of at most width cells.
func (r *mdRenderer) wrap(s string, width int) []string {
	return strings.Split(ansi.Wrap(s, width, ""), "\n")
}
