package markdown

import (
	"strconv"
	"strings"
)

// marker is a list item's marker: a bullet (- + *) or a number followed by . or ).
type marker struct {
	ordered bool
	ch      byte // the bullet, or the number's delimiter
	start   int
	width   int  // columns from the line's start to the item's content
	empty   bool // nothing follows the marker on its line
}

// listMarkerOf reads the list marker l starts with (indented at most three columns).
func listMarkerOf(l string) (marker, bool) {
	ind := indentOf(l)
	if ind >= 4 {
		return marker{}, false
	}
	rest := l[ind:]
	var m marker
	n := 0
	if rest != "" && strings.IndexByte("-+*", rest[0]) >= 0 {
		m.ch, n = rest[0], 1
	} else {
		for n < len(rest) && n < 9 && '0' <= rest[n] && rest[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(rest) || (rest[n] != '.' && rest[n] != ')') {
			return marker{}, false
		}
		m.ordered, m.ch = true, rest[n]
		m.start, _ = strconv.Atoi(rest[:n])
		n++
	}
	after := rest[n:]
	if after != "" && after[0] != ' ' {
		return marker{}, false
	}
	sp := indentOf(after)
	m.empty = isBlank(after)
	if m.empty || sp > 4 { // content indented further is code inside the item
		sp = 1
	}
	m.width = ind + n + sp
	return m, true
}

// interrupts reports whether an item with this marker may interrupt a paragraph: it has
// content, and a numbered one starts at 1 (so "in 2024. we" stays text).
func (m marker) interrupts() bool { return !m.empty && (!m.ordered || m.start == 1) }

// sameList reports whether m continues a list that o started.
func (m marker) sameList(o marker) bool { return m.ordered == o.ordered && m.ch == o.ch }

// list consumes the items of one list, starting at p.i, whose first marker is first.
func (p *blockParser) list(first marker) {
	p.closePara()
	list := &Node{Kind: List, Ordered: first.ordered, Start: first.start, Tight: true}
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		m, ok := listMarkerOf(l)
		if !ok || !m.sameList(first) || isRule(l[indentOf(l):]) {
			break
		}
		body, blankAfter := p.item(m)
		children, gap := parseBlocks(body, p.depth+1)
		list.Children = append(list.Children, &Node{Kind: Item, Children: children})
		if gap {
			list.Tight = false
		}
		p.blank = blankAfter
		if blankAfter && p.i < len(p.lines) {
			if next, ok := listMarkerOf(p.lines[p.i]); ok && next.sameList(first) {
				list.Tight = false
			}
		}
	}
	p.out = append(p.out, list)
}

// item consumes one list item: its first line, the lines indented to its content, and lines
// that continue its last paragraph lazily. It returns the content with the item's indentation
// removed, and whether blank lines followed it.
func (p *blockParser) item(m marker) (body []string, blankAfter bool) {
	first := ""
	if l := p.lines[p.i]; !m.empty {
		first = l[m.width:]
	}
	body = []string{first}
	for p.i++; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		switch {
		case isBlank(l):
			if m.empty && len(body) == 1 { // an item may start with one blank line at most
				return body, true
			}
			body = append(body, "")
			continue
		case indentOf(l) >= m.width:
			body = append(body, l[m.width:])
			continue
		}
		if _, isItem := listMarkerOf(l); isItem || isBlank(body[len(body)-1]) || startsBlock(l) {
			break
		}
		body = append(body, strings.TrimLeft(l, " ")) // a lazy continuation line
	}
	for len(body) > 1 && isBlank(body[len(body)-1]) {
		body = body[:len(body)-1]
		blankAfter = true
	}
	return body, blankAfter
}

// tableAt reports whether a table starts at lines[i]: a row with a pipe, then a delimiter row
// (|---|:--:|) with as many cells.
func tableAt(lines []string, i int) bool {
	if i+1 >= len(lines) || !strings.Contains(lines[i], "|") || indentOf(lines[i+1]) >= 4 {
		return false
	}
	n := delimiterCells(lines[i+1])
	return n > 0 && n == len(cellsOf(lines[i]))
}

// delimiterCells is the number of cells of a table's delimiter row, 0 if l is not one.
func delimiterCells(l string) int {
	if !strings.Contains(l, "-") {
		return 0
	}
	cells := cellsOf(l)
	for _, c := range cells {
		c = strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return 0
		}
	}
	return len(cells)
}

// cellsOf splits a table row at its unescaped pipes, without the outer ones.
func cellsOf(row string) []string {
	s := strings.TrimSpace(row)
	s = strings.TrimPrefix(s, "|")
	if strings.HasSuffix(s, "|") && !strings.HasSuffix(s, `\|`) {
		s = s[:len(s)-1]
	}
	var cells []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '|':
			b.WriteByte('|')
			i++
		case s[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(s[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// table consumes a table: the header row at p.i, the delimiter row, and the rows up to a blank
// line or another block. Rows are cut or padded to the header's cells.
func (p *blockParser) table() {
	p.closePara()
	header := cellsOf(p.lines[p.i])
	t := &Node{Kind: Table, Children: []*Node{row(header, len(header), true)}}
	for p.i += 2; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		if isBlank(l) || startsBlock(l) {
			break
		}
		t.Children = append(t.Children, row(cellsOf(l), len(header), false))
	}
	p.out = append(p.out, t)
}

func row(cells []string, n int, header bool) *Node {
	r := &Node{Kind: TableRow, Header: header}
	for i := range n {
		c := &Node{Kind: TableCell}
		if i < len(cells) {
			c.Children = parseInline(cells[i])
		}
		r.Children = append(r.Children, c)
	}
	return r
}
