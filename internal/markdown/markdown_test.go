package markdown

import (
	"fmt"
	"strings"
	"testing"
)

// dump writes the tree compactly: blocks one per line, inlines as (kind children) or "text".
func dump(n *Node) string {
	var b strings.Builder
	var walk func(n *Node, depth int)
	inline := func(ns []*Node) string { return inlines(ns) }
	walk = func(n *Node, depth int) {
		pad := strings.Repeat("  ", max(depth, 0))
		switch n.Kind {
		case Document:
		case Paragraph:
			fmt.Fprintf(&b, "%spara %s\n", pad, inline(n.Children))
		case Heading:
			fmt.Fprintf(&b, "%sh%d %s\n", pad, n.Level, inline(n.Children))
		case List:
			fmt.Fprintf(&b, "%slist ordered=%v start=%d tight=%v\n", pad, n.Ordered, n.Start, n.Tight)
		case Item:
			fmt.Fprintf(&b, "%sitem\n", pad)
		case Quote:
			fmt.Fprintf(&b, "%squote\n", pad)
		case CodeBlock:
			fmt.Fprintf(&b, "%scode %q %q\n", pad, n.Info, n.Lines)
		case HTMLBlock:
			fmt.Fprintf(&b, "%shtml %q\n", pad, n.Lines)
		case Rule:
			fmt.Fprintf(&b, "%srule\n", pad)
		case Table:
			fmt.Fprintf(&b, "%stable\n", pad)
		case TableRow:
			var cells []string
			for _, c := range n.Children {
				cells = append(cells, inline(c.Children))
			}
			fmt.Fprintf(&b, "%srow header=%v %s\n", pad, n.Header, strings.Join(cells, " | "))
			return
		}
		if n.Kind != Paragraph && n.Kind != Heading {
			for _, c := range n.Children {
				walk(c, depth+1)
			}
		}
	}
	walk(n, -1)
	return b.String()
}

func inlines(ns []*Node) string {
	var parts []string
	for _, n := range ns {
		switch n.Kind {
		case Text:
			parts = append(parts, fmt.Sprintf("%q", n.Literal))
		case SoftBreak:
			parts = append(parts, "soft")
		case HardBreak:
			parts = append(parts, "hard")
		case CodeSpan:
			parts = append(parts, fmt.Sprintf("(code %q)", n.Literal))
		case Emphasis:
			parts = append(parts, "(em "+inlines(n.Children)+")")
		case Strong:
			parts = append(parts, "(strong "+inlines(n.Children)+")")
		case Strike:
			parts = append(parts, "(del "+inlines(n.Children)+")")
		case Link:
			parts = append(parts, fmt.Sprintf("(link %q %s)", n.Dest, inlines(n.Children)))
		case Image:
			parts = append(parts, fmt.Sprintf("(img %q %s)", n.Dest, inlines(n.Children)))
		case AutoLink:
			parts = append(parts, fmt.Sprintf("(auto %q %q)", n.Dest, n.Literal))
		case RawHTML:
			parts = append(parts, fmt.Sprintf("(html %q)", n.Literal))
		}
	}
	return strings.Join(parts, " ")
}

func TestParse(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"atx and setext headings", "# One #\nTwo\n===\n## \nThree\n---\n",
			"h1 \"One\"\nh1 \"Two\"\nh2 \nh2 \"Three\"\n"},
		{"paragraph lines are soft breaks, two spaces or a backslash hard",
			"a\nb  \nc\\\nd", "para \"a\" soft \"b\" hard \"c\" hard \"d\"\n"},
		{"rule, not setext, after a blank line", "a\n\n---\n* * *", "para \"a\"\nrule\nrule\n"},
		{"fenced code keeps its lines and drops the fence's indentation",
			"  ```go run\n  x := 1\n\n    y\n  ```\nafter", "code \"go\" [\"x := 1\" \"\" \"  y\"]\npara \"after\"\n"},
		{"tilde fence closes only with tildes, unterminated runs to the end",
			"~~~\n```\n~~", "code \"\" [\"```\" \"~~\"]\n"},
		{"indented code, not inside a paragraph", "    code\n\n    more\n\ntext\n    lazy",
			"code \"\" [\"code\" \"\" \"more\"]\npara \"text\" soft \"lazy\"\n"},
		{"tight list with a nested list", "1. one\n2. two\n   - nested\n",
			"list ordered=true start=1 tight=true\n  item\n    para \"one\"\n  item\n    para \"two\"\n    list ordered=false start=0 tight=true\n      item\n        para \"nested\"\n"},
		{"blank lines between items make a list loose", "- a\n\n- b\n",
			"list ordered=false start=0 tight=false\n  item\n    para \"a\"\n  item\n    para \"b\"\n"},
		{"a new bullet character starts a new list", "- a\n* b\n",
			"list ordered=false start=0 tight=true\n  item\n    para \"a\"\nlist ordered=false start=0 tight=true\n  item\n    para \"b\"\n"},
		{"a number other than 1 does not interrupt a paragraph", "in\n2024. we\n1. one",
			"para \"in\" soft \"2024. we\"\nlist ordered=true start=1 tight=true\n  item\n    para \"one\"\n"},
		{"lazy continuation of an item", "- a\nb\n- c", "list ordered=false start=0 tight=true\n  item\n    para \"a\" soft \"b\"\n  item\n    para \"c\"\n"},
		{"quote with lazy continuation and a list", "> a\nb\n> - c\n\nd",
			"quote\n  para \"a\" soft \"b\"\n  list ordered=false start=0 tight=true\n    item\n      para \"c\"\npara \"d\"\n"},
		{"table: header, alignment row, short and long rows, escaped pipe",
			"| a | b |\n|:--|--:|\n| 1 |\n| 2 | x \\| y | z |\nafter\n\n# h",
			"table\n  row header=true \"a\" | \"b\"\n  row header=false \"1\" | \n  row header=false \"2\" | \"x | y\"\n  row header=false \"after\" | \nh1 \"h\"\n"},
		{"no table without a matching delimiter row", "a | b\n--|--|--\n", "para \"a | b\" soft \"--|--|--\"\n"},
		{"HTML blocks: a block tag interrupts a paragraph, a lone tag does not",
			"text\n<div>\nin\n</div>\n\ntext\n<span>\n\n<x-tag>\nx", "para \"text\"\nhtml [\"<div>\" \"in\" \"</div>\"]\npara \"text\" soft (html \"<span>\")\nhtml [\"<x-tag>\" \"x\"]\n"},
		{"emphasis and strong", "*a* _b_ **c** __d__ ***e*** *f **g** h*",
			"para (em \"a\") \" \" (em \"b\") \" \" (strong \"c\") \" \" (strong \"d\") \" \" (em (strong \"e\")) \" \" (em \"f \" (strong \"g\") \" h\")\n"},
		{"no emphasis: intraword underscores, spaced stars, unmatched", "snake_case_word ** x ** *y",
			"para \"snake\" \"_\" \"case\" \"_\" \"word \" \"**\" \" x \" \"**\" \" \" \"*\" \"y\"\n"},
		{"intraword stars are emphasis", "2*3*4", "para \"2\" (em \"3\") \"4\"\n"},
		{"strikethrough with one or two tildes, not three", "~a~ ~~b~~ ~~~c~~~",
			"para (del \"a\") \" \" (del \"b\") \" ~~~c~~~\"\n"},
		{"code spans", "`a` `` b ` c `` `` ` `` `open", "para (code \"a\") \" \" (code \"b ` c\") \" \" (code \"`\") \" `open\"\n"},
		{"escapes and entities", `\*x\* \a &amp; &copy; &#65; &nope; AT&T`,
			"para \"*x* \\\\a & © A &nope; AT&T\"\n"},
		{"links and images", `[a *b*](/u "t") ![alt](i.png) [c](<d e>) [ref][x] [no](`,
			"para (link \"/u\" \"a \" (em \"b\")) \" \" (img \"i.png\" \"alt\") \" \" (link \"d e\" \"c\") \" [ref][x] [no](\"\n"},
		{"link destination with balanced parentheses", "[w](https://en.wikipedia.org/wiki/Go_(language))",
			"para (link \"https://en.wikipedia.org/wiki/Go_(language)\" \"w\")\n"},
		{"autolinks", "<https://go.dev> <me@x.org> a < b",
			"para (auto \"https://go.dev\" \"https://go.dev\") \" \" (auto \"mailto:me@x.org\" \"me@x.org\") \" a < b\"\n"},
		{"bare links without trailing punctuation", "See www.x.org/a, https://y.io/b_(c). (https://z.io) xhttp://no",
			"para \"See \" (auto \"http://www.x.org/a\" \"www.x.org/a\") \", \" (auto \"https://y.io/b_(c)\" \"https://y.io/b_(c)\") \". (\" (auto \"https://z.io\" \"https://z.io\") \") xhttp://no\"\n"},
		{"HTML blocks that end at their own end, not a blank line",
			"<!-- note -->\n```\ncode\n```\n<pre>\na\n\nb\n</pre>\n<!--\nx\n-->\ntext",
			"html [\"<!-- note -->\"]\ncode \"\" [\"code\"]\nhtml [\"<pre>\" \"a\" \"\" \"b\" \"</pre>\"]\nhtml [\"<!--\" \"x\" \"-->\"]\npara \"text\"\n"},
		{"inline HTML", "a <b>c</b> <!-- d --> e", "para \"a \" (html \"<b>\") \"c\" (html \"</b>\") \" \" (html \"<!-- d -->\") \" e\"\n"},
		{"tabs and CRLF", "-\tone\r\n\r\n\t\ttwo\r\n", "list ordered=false start=0 tight=false\n  item\n    para \"one\"\n    code \"\" [\"two\"]\n"},
		{"quotes nest 32 deep, deeper markers are text", strings.Repeat(">", 34) + " x",
			nestedQuotes(32) + strings.Repeat("  ", 32) + "para \">> x\"\n"},
		{"empty input", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := dump(Parse(c.src)); got != c.want {
				t.Errorf("Parse(%q):\n%s\nwant:\n%s", c.src, got, c.want)
			}
		})
	}
}

// FuzzParse checks that no input panics or loops, and that text is never lost whole: a
// non-blank input gives at least one block.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"# a\n- b\n> c\n```\nd\n", "| a |\n|---|\n| b |", "*a **b** c* `d` [e](f) <g@h>", "\t-\t>\t1."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc := Parse(s)
		if strings.TrimSpace(s) != "" && len(doc.Children) == 0 {
			t.Errorf("Parse(%q) gave no blocks", s)
		}
	})
}

// TestLargeInputsInLinearTime parses inputs that a naive parser reads in quadratic time (each
// [ or ` or unmatched * searching the rest of the text, each nested container its rest): 200 KB
// each, which would take minutes and hit the test's timeout if it did.
func TestLargeInputsInLinearTime(t *testing.T) {
	for _, s := range []string{
		strings.Repeat("[", 200000),
		strings.Repeat("`` ` ", 50000),
		strings.Repeat("a* ", 70000),
		strings.Repeat("*a ", 70000),
		strings.Repeat("> ", 20000) + "x",
		strings.Repeat("- ", 20000) + "x",
		strings.Repeat("[x", 100000) + "]",
	} {
		if doc := Parse(s); len(doc.Children) == 0 {
			t.Errorf("Parse(%q…) gave no blocks", s[:10])
		}
	}
}

func nestedQuotes(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i) + "quote\n")
	}
	return b.String()
}
