package markdown

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// inlineParser turns a block's text into inline nodes. Runs of * _ ~ are kept as delimiter
// items in a list; emphasis pairs them up once the whole text is read (emphasis.go).
type inlineParser struct {
	src        string
	pos        int
	text       []byte // text not yet put in a node
	head, tail *item
	// noCloser[n] is set once a run of n backticks was found to have no closing run after it:
	// later runs of n need not look again (text full of backticks is read in linear time).
	noCloser map[int]bool
	// lastClose is where the text's last ] is (-1: none), unknown until a link looks for it.
	lastClose int
	// bottom[k] is the item below which no opener exists for closers of kind k (opener).
	bottom map[delimKind]*item
}

// item is one inline node in the parser's list; delim is set for a run of * _ ~.
type item struct {
	node       *Node
	delim      *delim
	prev, next *item
}

// delim is a delimiter run: its character, how many are left unmatched (n), how many it had,
// and whether it may open or close emphasis (CommonMark's flanking rules).
type delim struct {
	ch                byte
	n, orig           int
	canOpen, canClose bool
}

// unknown is a position not looked for yet.
const unknown = -2

// parseInline parses text into inline nodes.
func parseInline(text string) []*Node {
	p := &inlineParser{src: text, lastClose: unknown}
	for p.pos < len(p.src) {
		p.step()
	}
	p.flush()
	p.emphasis()
	var out []*Node
	for it := p.head; it != nil; it = it.next {
		out = append(out, it.node)
	}
	return out
}

func (p *inlineParser) step() {
	s, c := p.src, p.src[p.pos]
	switch {
	case c == '\\':
		p.escape()
	case c == '`':
		p.codeSpan()
	case c == '*' || c == '_' || c == '~':
		p.delimRun(c)
	case c == '[' || (c == '!' && strings.HasPrefix(s[p.pos:], "![")):
		if !p.link() {
			p.literal(1)
		}
	case c == '<':
		if !p.autoLink() && !p.rawHTML() {
			p.literal(1)
		}
	case c == '&':
		p.entity()
	case c == '\n':
		p.lineBreak()
	case c == 'h' || c == 'f' || c == 'w':
		if !p.bareLink() {
			p.literal(1)
		}
	default:
		p.literal(1)
	}
}

// literal keeps the next n bytes as text.
func (p *inlineParser) literal(n int) {
	p.text = append(p.text, p.src[p.pos:p.pos+n]...)
	p.pos += n
}

// push appends a node after the pending text.
func (p *inlineParser) push(n *Node, d *delim) {
	p.flush()
	p.add(n, d)
}

func (p *inlineParser) flush() {
	if len(p.text) > 0 {
		p.add(&Node{Kind: Text, Literal: string(p.text)}, nil)
		p.text = p.text[:0]
	}
}

func (p *inlineParser) add(n *Node, d *delim) {
	it := &item{node: n, delim: d, prev: p.tail}
	if p.tail == nil {
		p.head = it
	} else {
		p.tail.next = it
	}
	p.tail = it
}

// escape reads a backslash: an escaped punctuation character, a hard break before a line end,
// or a backslash.
func (p *inlineParser) escape() {
	switch {
	case p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n':
		p.pos += 2
		p.push(&Node{Kind: HardBreak}, nil)
	case p.pos+1 < len(p.src) && isASCIIPunct(p.src[p.pos+1]):
		p.pos++
		p.literal(1)
	default:
		p.literal(1)
	}
}

// codeSpan reads `code`: a run of backticks up to a run as long. Without one, the backticks
// are text.
func (p *inlineParser) codeSpan() {
	n := runLen(p.src, p.pos, '`')
	open := p.pos + n
	for i := open; i < len(p.src) && !p.noCloser[n]; {
		j := strings.IndexByte(p.src[i:], '`')
		if j < 0 {
			break
		}
		j += i
		m := runLen(p.src, j, '`')
		if m == n {
			code := strings.ReplaceAll(p.src[open:j], "\n", " ")
			if len(code) > 1 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
				code = code[1 : len(code)-1]
			}
			p.pos = j + m
			p.push(&Node{Kind: CodeSpan, Literal: code}, nil)
			return
		}
		i = j + m
	}
	if p.noCloser == nil {
		p.noCloser = map[int]bool{}
	}
	p.noCloser[n] = true
	p.literal(n)
}

// delimRun reads a run of * _ or ~ and whether it can open or close emphasis.
func (p *inlineParser) delimRun(c byte) {
	start, n := p.pos, runLen(p.src, p.pos, c)
	end := start + n
	p.pos = end
	if c == '~' && n > 2 {
		p.text = append(p.text, p.src[start:end]...)
		return
	}
	before, after := ' ', ' '
	if start > 0 {
		before, _ = utf8.DecodeLastRuneInString(p.src[:start])
	}
	if end < len(p.src) {
		after, _ = utf8.DecodeRuneInString(p.src[end:])
	}
	left := !unicode.IsSpace(after) && (!isPunct(after) || unicode.IsSpace(before) || isPunct(before))
	right := !unicode.IsSpace(before) && (!isPunct(before) || unicode.IsSpace(after) || isPunct(after))
	d := &delim{ch: c, n: n, orig: n, canOpen: left, canClose: right}
	if c == '_' { // intraword _ is not emphasis (snake_case)
		d.canOpen = left && (!right || isPunct(before))
		d.canClose = right && (!left || isPunct(after))
	}
	p.push(&Node{Kind: Text, Literal: p.src[start:end]}, d)
}

// lineBreak reads a line end inside a block: hard after two spaces, soft otherwise.
func (p *inlineParser) lineBreak() {
	trimmed := strings.TrimRight(string(p.text), " ")
	kind := SoftBreak
	if len(p.text)-len(trimmed) >= 2 {
		kind = HardBreak
	}
	p.text = append(p.text[:0], trimmed...)
	p.pos++
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	p.push(&Node{Kind: kind}, nil)
}

// entity reads &name; &#123; or &#x1F; as the character it names; anything else is text.
func (p *inlineParser) entity() {
	end := strings.IndexByte(p.src[p.pos:], ';')
	if end > 1 && end <= 33 {
		ref := p.src[p.pos : p.pos+end+1]
		if s := html.UnescapeString(ref); s != ref && validEntity(ref) {
			p.text = append(p.text, s...)
			p.pos += end + 1
			return
		}
	}
	p.literal(1)
}

// validEntity reports &name; or a numeric reference, nothing else in between.
func validEntity(ref string) bool {
	body := strings.TrimPrefix(ref[1:len(ref)-1], "#")
	for i := 0; i < len(body); i++ {
		if !isAlnum(body[i]) {
			return false
		}
	}
	return body != ""
}

func runLen(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

func isASCIIPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

func isPunct(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }
