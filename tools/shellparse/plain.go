package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Plain is a command line made of nothing but simple commands of static words (no expansion,
// glob, tilde, assignment or redirection) joined by && and |: the shapes a plain file read
// takes (cd DIR && nl -ba a.go | sed -n '1,80p').
type Plain struct {
	// Commands are the simple commands in order, each as its words after quote removal.
	Commands [][]string
	// Ops[i] joins Commands[i] and Commands[i+1]: "&&" or "|".
	Ops []string
}

// ParsePlain reads src as a Plain command line; ok is false for anything else.
func ParsePlain(src string) (Plain, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) != 1 || len(f.Last) > 0 {
		return Plain{}, false
	}
	var p Plain
	ok := p.add(src, f.Stmts[0])
	return p, ok && len(p.Commands) > 0
}

func (p *Plain) add(src string, st *syntax.Stmt) bool {
	if st.Negated || st.Background || st.Coprocess || st.Disown || len(st.Redirs) > 0 || len(st.Comments) > 0 {
		return false
	}
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		op := ""
		switch c.Op {
		case syntax.AndStmt:
			op = "&&"
		case syntax.Pipe:
			op = "|"
		default:
			return false
		}
		if !p.add(src, c.X) {
			return false
		}
		p.Ops = append(p.Ops, op)
		return p.add(src, c.Y)
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 || len(c.Args) == 0 {
			return false
		}
		words := make([]string, len(c.Args))
		for i, a := range c.Args {
			w := wordOf(src, a)
			if w.dynamic || w.glob || tilde(a) {
				return false
			}
			words[i] = w.text
		}
		p.Commands = append(p.Commands, words)
		return true
	}
	return false
}

// tilde reports a word bash would start with a tilde expansion.
func tilde(w *syntax.Word) bool {
	lit, ok := w.Parts[0].(*syntax.Lit)
	return ok && strings.HasPrefix(lit.Value, "~")
}
