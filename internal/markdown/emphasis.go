package markdown

import "strings"

// emphasis pairs the delimiter runs into Emphasis, Strong and Strike nodes, as CommonMark's
// "process emphasis" does: each closer, left to right, with the nearest opener of its kind
// before it. What stays unpaired stays text.
func (p *inlineParser) emphasis() {
	for c := p.head; c != nil; {
		d := c.delim
		if d == nil || !d.canClose || d.n == 0 {
			c = c.next
			continue
		}
		o := p.opener(c)
		if o == nil {
			c = c.next
			continue
		}
		p.pair(o, c)
		if c.delim.n == 0 {
			next := c.next
			p.remove(c)
			c = next
		}
	}
}

// delimKind is what decides which openers a closer may take: its character, its length for ~
// or modulo 3 for * and _, and whether it can also open.
type delimKind struct {
	ch      byte
	n       int
	canOpen bool
}

// opener finds the opener that closer c closes: same character; for ~ the same length; for *
// and _ not a pair whose lengths sum to a multiple of 3 when either could both open and close
// (CommonMark's rule of three), unless both are multiples of 3. Where a closer found none, a
// later closer of its kind stops looking (CommonMark's openers_bottom: linear time).
func (p *inlineParser) opener(c *item) *item {
	cd := c.delim
	k := delimKind{cd.ch, cd.orig % 3, cd.canOpen}
	if cd.ch == '~' {
		k.n = cd.n
	}
	bottom := p.bottom[k]
	for o := c.prev; o != nil && o != bottom; o = o.prev {
		od := o.delim
		if od == nil || !od.canOpen || od.ch != cd.ch || od.n == 0 {
			continue
		}
		if cd.ch == '~' {
			if od.n == cd.n {
				return o
			}
			continue
		}
		if (od.canClose || cd.canOpen) && (od.orig+cd.orig)%3 == 0 && (od.orig%3 != 0 || cd.orig%3 != 0) {
			continue
		}
		return o
	}
	if p.bottom == nil {
		p.bottom = map[delimKind]*item{}
	}
	p.bottom[k] = c.prev
	return nil
}

// pair wraps the items between o and c in a node and uses up the delimiters it took.
func (p *inlineParser) pair(o, c *item) {
	use, kind := 1, Emphasis
	switch {
	case c.delim.ch == '~':
		use, kind = c.delim.n, Strike
	case o.delim.n >= 2 && c.delim.n >= 2:
		use, kind = 2, Strong
	}
	w := &Node{Kind: kind}
	for it := o.next; it != c; it = it.next {
		w.Children = append(w.Children, it.node)
	}
	wi := &item{node: w, prev: o, next: c}
	o.next, c.prev = wi, wi
	for _, it := range []*item{o, c} {
		it.delim.n -= use
		it.node.Literal = strings.Repeat(string(it.delim.ch), it.delim.n)
	}
	if o.delim.n == 0 {
		p.remove(o)
	}
}

func (p *inlineParser) remove(it *item) {
	if it.prev == nil {
		p.head = it.next
	} else {
		it.prev.next = it.next
	}
	if it.next == nil {
		p.tail = it.prev
	} else {
		it.next.prev = it.prev
	}
}
