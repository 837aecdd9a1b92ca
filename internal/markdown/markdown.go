// Package markdown parses the Markdown a model writes into a small tree that the terminal
// renderer walks (cmd/troupe/internal/ui): CommonMark's blocks and inlines, with GitHub's
// tables, strikethrough and bare links. It keeps what a terminal shows and drops the rest
// (link reference definitions stay text; HTML is kept as written).
//
// It replaces goldmark, whose packages compile some twenty regular expressions (linkify's
// {1,256} repetitions among them) and fill tables at initialisation: about 1.4 ms of CPU and
// 290 page faults in every troupe process, `troupe version` included, whether or not it ever
// renders Markdown (bench/SIZES.md). Nothing here runs before Parse is called.
package markdown

import "strings"

// Kind says what a Node is.
type Kind uint8

// Block kinds, then inline kinds.
const (
	Document  Kind = iota
	Paragraph      // inline children
	Heading        // Level; inline children
	List           // Ordered, Start, Tight; Item children
	Item           // block children
	Quote          // block children
	CodeBlock      // Info, Lines
	HTMLBlock      // Lines
	Rule
	Table     // TableRow children, the first the header
	TableRow  // Header; TableCell children
	TableCell // inline children

	Text      // Literal
	SoftBreak // a line break inside a paragraph (shown as a space)
	HardBreak // a line ending in two spaces or a backslash
	CodeSpan  // Literal
	Emphasis  // inline children
	Strong    // inline children
	Strike    // inline children
	Link      // Dest; inline children (the label)
	Image     // Dest; inline children (the description)
	AutoLink  // Dest, Literal (as written)
	RawHTML   // Literal
)

// Node is one element of the tree. Which fields mean something depends on Kind.
type Node struct {
	Kind     Kind
	Children []*Node
	Literal  string
	Lines    []string // a code or HTML block's lines, without their line ends
	Info     string   // a fenced code block's language
	Dest     string   // a link's or image's destination
	Level    int      // a heading's level, 1 to 6
	Start    int      // an ordered list's first number
	Ordered  bool
	Tight    bool // a list whose items are not separated by blank lines
	Header   bool // the header row of a table
}

// Parse parses src into a Document node.
func Parse(src string) *Node {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	src = strings.ReplaceAll(src, "\r", "\n")
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	for i, l := range lines {
		lines[i] = expandTabs(l)
	}
	children, _ := parseBlocks(lines, 0)
	return &Node{Kind: Document, Children: children}
}

// expandTabs turns the tabs of a line's prefix of indentation and container markers (quotes,
// list markers) into spaces at four-column stops, so that indentation is counted in columns.
func expandTabs(l string) string {
	end := 0
	for end < len(l) && strings.IndexByte(" \t>-+*.)0123456789", l[end]) >= 0 {
		end++
	}
	if !strings.Contains(l[:end], "\t") {
		return l
	}
	var b strings.Builder
	col := 0
	for i := 0; i < end; i++ {
		if l[i] == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteByte(l[i])
		col++
	}
	b.WriteString(l[end:])
	return b.String()
}
