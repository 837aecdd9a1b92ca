package markdown

import (
	"strings"
)

// blockParser turns lines into blocks. Each container (the document, a quote, a list item) has
// its own: a container's lines are collected, their markers stripped, and parsed by a new one.
type blockParser struct {
	depth int // containers around these lines: past maxDepth, none opens (bounded recursion)
	lines []string
	i     int
	out   []*Node
	para  []string // the open paragraph's lines
	blank bool     // the previous line was blank
	gap   bool     // a blank line separated two of out's blocks (makes a list item loose)
}

// maxDepth is how deep quotes and lists nest; deeper markers are text.
const maxDepth = 32

// parseBlocks parses lines, inside depth containers, into blocks, and reports whether a blank
// line separated two of them.
func parseBlocks(lines []string, depth int) ([]*Node, bool) {
	p := &blockParser{lines: lines, depth: depth}
	for p.i < len(p.lines) {
		p.line()
	}
	p.closePara()
	return p.out, p.gap
}

// line consumes the line at p.i and any that belong to the block it starts.
func (p *blockParser) line() {
	line := p.lines[p.i]
	if isBlank(line) {
		p.closePara()
		p.blank = true
		p.i++
		return
	}
	if p.blank && len(p.out) > 0 {
		p.gap = true
	}
	p.blank = false
	inPara := len(p.para) > 0
	ind := indentOf(line)
	if ind >= 4 {
		if inPara { // indented code cannot interrupt a paragraph
			p.para = append(p.para, line[ind:])
			p.i++
		} else {
			p.indentedCode()
		}
		return
	}
	rest := line[ind:]
	if level := setextLevel(rest); inPara && level > 0 {
		p.closeHeading(level)
		p.i++
		return
	}
	if ch, n, info, ok := fenceOf(rest); ok {
		p.fenced(ind, ch, n, info)
		return
	}
	if level, text, ok := atxHeading(rest); ok {
		p.closePara()
		p.out = append(p.out, &Node{Kind: Heading, Level: level, Children: parseInline(text)})
		p.i++
		return
	}
	if isRule(rest) {
		p.closePara()
		p.out = append(p.out, &Node{Kind: Rule})
		p.i++
		return
	}
	if _, ok := quoteRest(rest); ok && p.depth < maxDepth {
		p.quote()
		return
	}
	if m, ok := listMarkerOf(line); ok && p.depth < maxDepth && (!inPara || m.interrupts()) {
		p.list(m)
		return
	}
	if h := htmlStart(rest); h.ok && (h.interrupts || !inPara) {
		p.htmlBlock(h.end)
		return
	}
	if tableAt(p.lines, p.i) {
		p.table()
		return
	}
	p.para = append(p.para, rest)
	p.i++
}

// closePara ends the open paragraph, if any.
func (p *blockParser) closePara() {
	if len(p.para) == 0 {
		return
	}
	text := strings.TrimRight(strings.Join(p.para, "\n"), " \t")
	p.out = append(p.out, &Node{Kind: Paragraph, Children: parseInline(text)})
	p.para = nil
}

// closeHeading turns the open paragraph into a heading (a setext underline followed it).
func (p *blockParser) closeHeading(level int) {
	text := strings.TrimSpace(strings.Join(p.para, "\n"))
	p.out = append(p.out, &Node{Kind: Heading, Level: level, Children: parseInline(text)})
	p.para = nil
}

// fenced consumes a fenced code block opened at p.i: up to its closing fence, or the end.
func (p *blockParser) fenced(ind int, ch byte, n int, info string) {
	p.closePara()
	var body []string
	for p.i++; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		if li := indentOf(l); li < 4 {
			if c, m, rest, ok := fenceOf(l[li:]); ok && c == ch && m >= n && rest == "" {
				p.i++
				break
			}
		}
		body = append(body, stripIndent(l, ind))
	}
	if f := strings.Fields(info); len(f) > 0 {
		info = f[0]
	}
	p.out = append(p.out, &Node{Kind: CodeBlock, Info: info, Lines: body})
}

// indentedCode consumes lines indented four columns or more (and the blank lines among them).
func (p *blockParser) indentedCode() {
	var body []string
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		if !isBlank(l) && indentOf(l) < 4 {
			break
		}
		body = append(body, stripIndent(l, 4))
	}
	for len(body) > 0 && isBlank(body[len(body)-1]) {
		body = body[:len(body)-1]
		p.blank = true
	}
	p.out = append(p.out, &Node{Kind: CodeBlock, Lines: body})
}

// htmlBlock consumes lines of HTML up to the line holding end, or up to a blank line.
func (p *blockParser) htmlBlock(end string) {
	p.closePara()
	var body []string
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		if end == "" && isBlank(l) {
			break
		}
		body = append(body, l)
		from := 0
		if len(body) == 1 { // the end is looked for after the opener
			from = min(len(l), indentOf(l)+2)
		}
		if end != "" && strings.Contains(strings.ToLower(l[from:]), end) {
			p.i++
			break
		}
	}
	p.out = append(p.out, &Node{Kind: HTMLBlock, Lines: body})
}

// quote consumes a block quote: its marked lines and the unmarked lines that continue its
// last paragraph.
func (p *blockParser) quote() {
	p.closePara()
	var body []string
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if ind := indentOf(l); ind < 4 {
			if r, ok := quoteRest(l[ind:]); ok {
				body = append(body, r)
				p.i++
				continue
			}
		}
		if isBlank(l) || len(body) == 0 || isBlank(body[len(body)-1]) || startsBlock(l) {
			break
		}
		body = append(body, strings.TrimLeft(l, " "))
		p.i++
	}
	children, _ := parseBlocks(body, p.depth+1)
	p.out = append(p.out, &Node{Kind: Quote, Children: children})
}

// startsBlock reports whether l would interrupt a paragraph (so it cannot continue one lazily).
func startsBlock(l string) bool {
	ind := indentOf(l)
	if ind >= 4 {
		return false
	}
	rest := l[ind:]
	if _, _, _, ok := fenceOf(rest); ok {
		return true
	}
	if _, _, ok := atxHeading(rest); ok {
		return true
	}
	if _, ok := quoteRest(rest); ok {
		return true
	}
	_, isItem := listMarkerOf(l)
	return isRule(rest) || isItem
}

func isBlank(l string) bool { return strings.TrimLeft(l, " \t") == "" }

// indentOf is the number of spaces l starts with.
func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// stripIndent removes up to n leading spaces from l.
func stripIndent(l string, n int) string {
	return l[min(n, indentOf(l)):]
}

// fenceOf reads a code fence (``` or ~~~, three or more) and the text after it.
func fenceOf(rest string) (ch byte, n int, info string, ok bool) {
	if rest == "" || (rest[0] != '`' && rest[0] != '~') {
		return 0, 0, "", false
	}
	ch = rest[0]
	for n < len(rest) && rest[n] == ch {
		n++
	}
	info = strings.TrimSpace(rest[n:])
	if n < 3 || (ch == '`' && strings.Contains(info, "`")) {
		return 0, 0, "", false
	}
	return ch, n, info, true
}

// atxHeading reads "## text ##".
func atxHeading(rest string) (level int, text string, ok bool) {
	for level < len(rest) && rest[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(rest) && rest[level] != ' ' && rest[level] != '\t') {
		return 0, "", false
	}
	text = strings.TrimSpace(rest[level:])
	if t := strings.TrimRight(text, "#"); t == "" {
		text = ""
	} else if t != text && (t[len(t)-1] == ' ' || t[len(t)-1] == '\t') {
		text = strings.TrimSpace(t)
	}
	return level, text, true
}

// isRule reports a thematic break: three or more of one of - * _, spaces between allowed.
func isRule(rest string) bool {
	var ch byte
	n := 0
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == ' ' || c == '\t':
		case (c == '-' || c == '*' || c == '_') && (ch == 0 || ch == c):
			ch = c
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// setextLevel reads a setext underline: 1 for ===, 2 for ---, else 0.
func setextLevel(rest string) int {
	t := strings.TrimRight(rest, " \t")
	switch {
	case t == "":
		return 0
	case strings.Trim(t, "=") == "":
		return 1
	case strings.Trim(t, "-") == "":
		return 2
	}
	return 0
}

// quoteRest strips a block quote's marker and the one space after it.
func quoteRest(rest string) (string, bool) {
	if rest == "" || rest[0] != '>' {
		return "", false
	}
	r := rest[1:]
	if r != "" && r[0] == ' ' {
		r = r[1:]
	}
	return r, true
}

// htmlOpen is what an HTML line opens: a block that may interrupt a paragraph or not, and the
// text whose line ends it (a blank line when empty).
type htmlOpen struct {
	ok, interrupts bool
	end            string
}

// htmlStart reads the line that opens an HTML block, if rest is one: a comment, processing
// instruction, declaration or CDATA (each up to its own end), <script>, <pre>, <style> or
// <textarea> (up to its closing tag), a block-level tag such as <div> or <details>, or a line
// holding one other tag and nothing else (which cannot interrupt a paragraph); the last two end
// at a blank line.
func htmlStart(rest string) htmlOpen {
	for _, pre := range [...]struct{ open, end string }{{"<!--", "-->"}, {"<?", "?>"}, {"<![CDATA[", "]]>"}} {
		if strings.HasPrefix(rest, pre.open) {
			return htmlOpen{true, true, pre.end}
		}
	}
	if len(rest) < 2 || rest[0] != '<' {
		return htmlOpen{}
	}
	if rest[1] == '!' && len(rest) > 2 && isLetter(rest[2]) {
		return htmlOpen{true, true, ">"}
	}
	name := strings.TrimPrefix(rest[1:], "/")
	end := 0
	for end < len(name) && (isAlnum(name[end]) || name[end] == '-') {
		end++
	}
	if end == 0 || !isLetter(name[0]) {
		return htmlOpen{}
	}
	tag := strings.ToLower(name[:end])
	switch {
	case rest[1] != '/' && (tag == "script" || tag == "pre" || tag == "style" || tag == "textarea"):
		return htmlOpen{true, true, "</" + tag + ">"}
	case strings.Contains(blockTags, " "+tag+" "):
		return htmlOpen{ok: true, interrupts: true}
	}
	if t := strings.TrimRight(rest, " \t"); strings.IndexByte(t, '>') == len(t)-1 {
		return htmlOpen{ok: true}
	}
	return htmlOpen{}
}

// blockTags are the HTML tags that open a block whatever follows them on the line (a string,
// not a map: a map literal this size would be built at initialisation).
const blockTags = " address article aside blockquote body center details dialog div dl fieldset" +
	" figure footer form h1 h2 h3 h4 h5 h6 header hr html li main nav ol p pre script section" +
	" style summary table tbody td textarea tfoot th thead tr ul "

func isLetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
func isAlnum(c byte) bool  { return isLetter(c) || ('0' <= c && c <= '9') }
