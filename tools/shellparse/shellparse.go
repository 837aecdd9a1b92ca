// Package shellparse is troupe's one understanding of a bash command line, built on
// mvdan.cc/sh/v3/syntax (the parser behind shfmt). The permission patterns, the shell-read
// detection, the protected-file checks and the sandbox hints all read commands through it, so
// a command is judged on what bash would run, not on how it is spelled.
//
// The contract (docs/ARCHITECTURE.md, "Permissions"):
//
//   - Every simple command is listed, wherever it sits: in a list, a pipeline, a subshell, a
//     function body, a command or process substitution, a here-document fed to a shell.
//   - Its words are given after quote removal, as bash passes them: "rm", r”m, \rm and
//     $'\x72m' all read rm. A word bash would expand at run time ($x, $(…), a glob) is kept as
//     written and marked dynamic.
//   - Wrappers are looked through: env, command, builtin, exec, nice, nohup, setsid, timeout,
//     time, stdbuf, xargs, find -exec, sudo and doas (noted in Risks). The command a wrapper
//     runs is listed again on its own, with Via naming the wrappers.
//   - bash|sh|zsh|dash|ksh -c 'script', eval with literal words, and a shell fed a literal
//     here-document are parsed recursively, at most MaxDepth levels deep.
//   - A redirection that opens a file for writing is a write (Writes), as are tee's operands.
//   - What cannot be known before the command runs is listed in Unknowns: a program name from
//     a variable, a substitution or a glob, eval of a value, a script from a variable or from
//     standard input, a script the parser cannot read, nesting deeper than MaxDepth, a wrapper
//     option troupe does not know. Unprovable is the one predicate that turns these into
//     "a human must decide".
package shellparse

import (
	"fmt"
	"path"
	"strings"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"mvdan.cc/sh/v3/syntax"
)

// MaxDepth bounds the nesting of scripts inside scripts (bash -c 'bash -c …', eval).
const MaxDepth = 8

// maxCommands bounds the simple commands listed for one command line; past it the rest is
// an Unknown, so a pathological line is decided in bounded time and asks.
const maxCommands = 20000

// Command is one simple command as bash would run it.
type Command struct {
	// Args are the words after quote removal; a dynamic word is kept as written.
	Args []string
	// Dynamic marks the words whose value is known only at run time.
	Dynamic []bool
	// Redirects are the command's redirections, rendered ("> out.txt", "2>&1").
	Redirects []string
	// Via names the wrappers looked through to reach this command, outermost first; empty
	// for a command as written.
	Via []string
	// Depth is 0 for the command line itself, 1 inside bash -c '…' or eval, and so on.
	Depth int
	// MoreArgs says the command is given further arguments when it runs (xargs rm): a
	// pattern matches it as if they were there.
	MoreArgs bool
	// Wrapped says the command is another's operands (sudo rm x lists rm x, Wrapped): the
	// same run, already listed whole. A command a script or find -exec runs is not Wrapped.
	Wrapped bool
}

// Program is the command's first word as bash sees it ("" for none).
func (c Command) Program() string {
	if len(c.Args) == 0 {
		return ""
	}
	return c.Args[0]
}

// Text is the command's words joined by single spaces.
func (c Command) Text() string { return strings.Join(c.Args, " ") }

// TextWithRedirects is Text followed by the redirections.
func (c Command) TextWithRedirects() string {
	if len(c.Redirects) == 0 {
		return c.Text()
	}
	return c.Text() + " " + strings.Join(c.Redirects, " ")
}

// Texts are the spellings a deny rule is matched against: Text, BaseText, and with MoreArgs
// both again followed by a placeholder argument.
func (c Command) Texts() []string {
	out := []string{c.Text()}
	if b := c.BaseText(); b != "" {
		out = append(out, b)
	}
	if c.MoreArgs {
		for _, t := range out {
			out = append(out, t+" …")
		}
	}
	return out
}

// BaseText is Text with a path-qualified program (/bin/rm, ./rm) cut to its base name, and
// "" when the program has no directory part.
func (c Command) BaseText() string {
	prog := c.Program()
	if !strings.Contains(prog, "/") {
		return ""
	}
	base := path.Base(prog)
	if base == "." || base == "/" {
		return ""
	}
	return strings.Join(append([]string{base}, c.Args[1:]...), " ")
}

// Script is what a command line does, as far as it can be known before it runs.
type Script struct {
	Commands []Command
	// Writes are the files the line opens for writing (redirections, tee), as written.
	Writes []string
	// Unknowns say, one line each, what cannot be known statically.
	Unknowns []string
	// Substitutes says the line has a command or process substitution.
	Substitutes bool
	// Risks notes privilege wrappers (sudo, doas) the line goes through.
	Risks []string
}

// Unprovable is the predicate shared by every caller that must decide a command before it
// runs: when it reports true, no rule about which program runs can be proven for this
// command line, and the decision belongs to a human (asked when one can be, refused when
// nobody can be). why says what could not be known.
func (s *Script) Unprovable() (why string, unprovable bool) {
	if len(s.Unknowns) == 0 {
		return "", false
	}
	why = s.Unknowns[0]
	if n := len(s.Unknowns) - 1; n > 0 {
		why += fmt.Sprintf(" (and %d more)", n)
	}
	return why, true
}

// Parse reads a bash command line. It never fails: what it cannot read becomes an Unknown.
func Parse(src string) *Script {
	s := &Script{}
	w := &walker{script: s}
	w.parse(src, 0, nil)
	return s
}

// walker collects one Script; its methods are the recursive descent.
type walker struct {
	script *Script
}

func (w *walker) unknown(format string, args ...any) {
	if len(w.script.Unknowns) < 64 {
		w.script.Unknowns = append(w.script.Unknowns, fmt.Sprintf(format, args...))
	}
}

// parse reads src as a script at depth, run through via.
func (w *walker) parse(src string, depth int, via []string) {
	if depth > MaxDepth {
		w.unknown("scripts nested more than %d levels deep", MaxDepth)
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		w.unknown("the shell syntax cannot be read (%s)", textfmt.Clip(err.Error(), 120))
		return
	}
	syntax.Walk(f, func(node syntax.Node) bool {
		switch n := node.(type) {
		case *syntax.Stmt:
			w.stmt(src, n, depth, via)
		case *syntax.CmdSubst, *syntax.ProcSubst:
			w.script.Substitutes = true
		}
		return true
	})
}

// stmt records a statement's redirections, and its simple command if it is one.
func (w *walker) stmt(src string, st *syntax.Stmt, depth int, via []string) {
	var redirs []string
	var stdin *syntax.Word // a here-document or here-string body, for a shell reading stdin
	for _, r := range st.Redirs {
		target := ""
		if r.Word != nil {
			target = wordOf(src, r.Word).text
		}
		n := ""
		if r.N != nil {
			n = r.N.Value
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			redirs = append(redirs, n+r.Op.String()+target)
			stdin = r.Hdoc
			continue
		case syntax.WordHdoc:
			stdin = r.Word
		}
		sep := " "
		if r.Op == syntax.DplIn || r.Op == syntax.DplOut {
			sep = ""
		}
		redirs = append(redirs, n+r.Op.String()+sep+target)
		if writes(r) {
			w.script.Writes = append(w.script.Writes, target)
		}
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return
	}
	words := make([]word, len(call.Args))
	for i, a := range call.Args {
		words[i] = wordOf(src, a)
	}
	w.call(words, redirs, stdin, src, depth, via, false)
}

// writes reports whether a redirection opens its target for writing.
func writes(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.RdrClob, syntax.RdrAll,
		syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
		return true
	case syntax.DplOut: // >&2 duplicates a descriptor; >&file writes file
		t := r.Word.Lit()
		return t != "-" && strings.Trim(t, "0123456789") != ""
	}
	return false
}
