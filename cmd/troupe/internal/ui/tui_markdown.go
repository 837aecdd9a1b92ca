package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
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
// lists, quotes, tables and rules, wrapped to a width. It walks goldmark's syntax tree itself
// rather than using Glamour, whose syntax highlighter and HTML sanitizer cost every troupe
// command (not only the chat) about 20 ms and 6 MB at start-up.
type mdRenderer struct {
	st  mdStyles
	src []byte
}

var mdParser = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()

// renderMarkdown renders src for a terminal width cells wide.
func renderMarkdown(src string, width int, st mdStyles) string {
	r := &mdRenderer{st: st, src: []byte(src)}
	doc := mdParser.Parse(text.NewReader(r.src))
	return strings.Join(r.blocks(doc, max(width, 10)), "\n")
}

// blocks renders the block children of n, a blank line between them.
func (r *mdRenderer) blocks(n ast.Node, width int) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := r.block(c, width)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 && !tightItem(c) {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// tightItem is a block within an item of a tight list (no blank line before it).
func tightItem(n ast.Node) bool {
	if _, inItem := n.Parent().(*ast.ListItem); !inItem {
		return false
	}
	l, ok := n.Parent().Parent().(*ast.List)
	return ok && l.IsTight
}

func (r *mdRenderer) block(n ast.Node, width int) []string {
	switch n := n.(type) {
	case *ast.Heading:
		return r.wrap(r.st.heading.Render(strings.Repeat("#", n.Level)+" "+r.inline(n)), width)
	case *ast.Paragraph, *ast.TextBlock:
		return r.wrap(r.inline(n), width)
	case *ast.List:
		return r.list(n, width)
	case *ast.Blockquote:
		lines := r.blocks(n, width-2)
		for i, l := range lines {
			lines[i] = r.st.quote.Render("│ ") + l
		}
		return lines
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		var lines []string
		segs := n.Lines()
		for i := 0; i < segs.Len(); i++ {
			seg := segs.At(i)
			l := strings.TrimRight(string(seg.Value(r.src)), "\n")
			lines = append(lines, r.st.code.Render(textfmt.ClipRunes("  "+l, width)))
		}
		return lines
	case *ast.ThematicBreak:
		return []string{strings.Repeat("─", min(width, 40))}
	case *ast.HTMLBlock:
		var lines []string
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			lines = append(lines, textfmt.ClipRunes(strings.TrimRight(string(seg.Value(r.src)), "\n"), width))
		}
		return lines
	case *east.Table:
		return r.table(n, width)
	}
	return r.blocks(n, width)
}

// list renders items with a bullet or their number, their own blocks indented under it.
func (r *mdRenderer) list(l *ast.List, width int) []string {
	var out []string
	num := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		mark := "• "
		if l.IsOrdered() {
			mark = fmt.Sprintf("%d. ", num)
			num++
		}
		pad := strings.Repeat(" ", len(mark))
		lines := r.blocks(item, width-len(mark))
		for i, line := range lines {
			if i == 0 {
				lines[i] = mark + line
			} else if line != "" {
				lines[i] = pad + line
			}
		}
		if !l.IsTight && len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// table renders rows as cells joined by │, each line cut to the width.
func (r *mdRenderer) table(t *east.Table, width int) []string {
	var out []string
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, r.inline(cell))
		}
		line := strings.Join(cells, " │ ")
		if _, head := row.(*east.TableHeader); head {
			line = r.st.bold.Render(line)
		}
		out = append(out, ansi.Truncate(line, width, "…"))
	}
	return out
}

// inline renders the inline children of n as one styled string (soft breaks become spaces).
func (r *mdRenderer) inline(n ast.Node) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Value(r.src))
			if c.HardLineBreak() {
				b.WriteString("\n")
			} else if c.SoftLineBreak() {
				b.WriteString(" ")
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			b.WriteString(r.st.code.Render(r.plain(c)))
		case *ast.Emphasis:
			st := r.st.italic
			if c.Level >= 2 {
				st = r.st.bold
			}
			b.WriteString(st.Render(r.inline(c)))
		case *east.Strikethrough:
			b.WriteString(r.st.strike.Render(r.inline(c)))
		case *ast.Link:
			label := r.inline(c)
			b.WriteString(r.st.link.Render(label))
			if dest := string(c.Destination); dest != "" && dest != ansi.Strip(label) {
				b.WriteString(" (" + dest + ")")
			}
		case *ast.AutoLink:
			b.WriteString(r.st.link.Render(string(c.URL(r.src))))
		case *ast.Image:
			b.WriteString("[image: " + r.plain(c) + "]")
		case *ast.RawHTML:
			for i := 0; i < c.Segments.Len(); i++ {
				seg := c.Segments.At(i)
				b.Write(seg.Value(r.src))
			}
		default:
			b.WriteString(r.inline(c))
		}
	}
	return b.String()
}

// plain is the text of n's inline children without styles.
func (r *mdRenderer) plain(n ast.Node) string { return ansi.Strip(r.inline(n)) }

// wrap cuts a styled string into lines of at most width cells.
func (r *mdRenderer) wrap(s string, width int) []string {
	return strings.Split(ansi.Wrap(s, width, ""), "\n")
}
