package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word: its value after quote removal when it is static, else its source
// text; glob says an unquoted part holds glob or brace characters bash may expand.
type word struct {
	text    string
	dynamic bool
	glob    bool
}

// wordOf reads w as bash would before running the command: quotes removed, escapes applied.
// A word with an expansion is dynamic and keeps its source text.
func wordOf(src string, w *syntax.Word) word {
	var b strings.Builder
	out := word{}
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[") || braces(p.Value) {
				out.glob = true
			}
			b.WriteString(unescapeBare(p.Value))
		case *syntax.SglQuoted:
			if !p.Dollar {
				b.WriteString(p.Value)
				continue
			}
			v, _, err := expand.Format(nil, p.Value, nil)
			if err != nil {
				out.dynamic = true
			}
			v, _, _ = strings.Cut(v, "\x00") // bash stops a $'…' string at a NUL
			b.WriteString(v)
		case *syntax.DblQuoted:
			for _, inner := range p.Parts {
				lit, ok := inner.(*syntax.Lit)
				if !ok {
					out.dynamic = true
					continue
				}
				b.WriteString(unescapeDouble(lit.Value))
			}
		default: // parameter, command, arithmetic and process expansions, extended globs
			out.dynamic = true
		}
	}
	if out.dynamic {
		out.text = sourceOf(src, w)
	} else {
		out.text = b.String()
	}
	return out
}

// sourceOf is w's text in src.
func sourceOf(src string, w syntax.Node) string {
	start, end := int(w.Pos().Offset()), int(w.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return "?"
	}
	return src[start:end]
}

// unescapeBare removes the backslashes bash removes from an unquoted word: \x is x, and a
// backslash before a newline joins the lines.
func unescapeBare(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes bash removes inside double quotes: before $ ` " \
// and a newline only.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// braces reports an unquoted brace expansion ({a,b} or {1..3}), which bash expands into
// several words.
func braces(s string) bool {
	open := strings.IndexByte(s, '{')
	if open < 0 {
		return false
	}
	rest := s[open:]
	return strings.Contains(rest, "}") && (strings.Contains(rest, ",") || strings.Contains(rest, ".."))
}
