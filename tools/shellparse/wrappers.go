package shellparse

import (
	"path"
	"strings"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// call records one simple command and looks through it when it runs another command or a
// script. stdin is the here-document or here-string fed to it, if any.
func (w *walker) call(words []word, redirs []string, stdin *syntax.Word, src string, depth int, via []string, wrapped bool) {
	if len(w.script.Commands) >= maxCommands {
		if len(w.script.Commands) == maxCommands {
			w.unknown("more than %d commands in one line", maxCommands)
			w.script.Commands = append(w.script.Commands, Command{Args: []string{"…"}})
		}
		return
	}
	cmd := Command{Redirects: redirs, Via: via, Depth: depth, Wrapped: wrapped}
	for _, wd := range words {
		cmd.Args = append(cmd.Args, wd.text)
		cmd.Dynamic = append(cmd.Dynamic, wd.dynamic)
	}
	w.script.Commands = append(w.script.Commands, cmd)
	prog := words[0]
	if prog.dynamic || prog.glob {
		w.unknown("the program name %q is known only when the command runs", textfmt.Clip(prog.text, 60))
		return
	}
	name := path.Base(prog.text)
	args := words[1:]
	inner := append(append([]string(nil), via...), name)
	switch name {
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "rbash":
		w.shell(name, args, stdin, depth, inner)
	case "eval":
		w.eval(args, src, depth, inner)
	case "sudo", "doas":
		w.script.Risks = append(w.script.Risks, name)
		w.wrapped(name, args, redirs, stdin, src, depth, inner)
	case "find":
		w.findExec(args, redirs, src, depth, inner)
	case "tee":
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") {
				w.script.Writes = append(w.script.Writes, a.text)
			}
		}
	default:
		w.wrapped(name, args, redirs, stdin, src, depth, inner)
	}
}

// wrapped looks through a wrapper that runs its operands as a command (env, nice, sudo…).
func (w *walker) wrapped(name string, args []word, redirs []string, stdin *syntax.Word, src string, depth int, via []string) {
	opts, ok := wrapperOptions[name]
	if !ok {
		return
	}
	i, values, problem := skipOptions(name, args, opts)
	if problem != "" {
		w.unknown("%s", problem)
		return
	}
	if name == "env" {
		for i < len(args) && !args[i].dynamic && isAssignment(args[i].text) {
			i++
		}
		if split := values.get("S", "split-string"); split != "" {
			w.parse(split+" "+joinWords(args[i:]), depth+1, via)
			return
		}
	}
	if name == "timeout" && i < len(args) {
		i++ // the duration
	}
	if name == "xargs" {
		if r := xargsReplace(values); r != "" && i < len(args) && strings.Contains(args[i].text, r) {
			w.unknown("xargs puts its input into the program name %q", textfmt.Clip(args[i].text, 60))
			return
		}
	}
	if (name == "sudo" || name == "doas") && values.has("s", "i", "shell", "login") {
		if i == len(args) {
			w.unknown("%s opens a shell that reads its commands from its input", name)
			return
		}
		w.parse(joinWords(args[i:]), depth+1, via) // sudo -s CMD runs CMD through a shell
		return
	}
	if name == "command" && values.has("v", "V") || i >= len(args) {
		return
	}
	at := len(w.script.Commands)
	w.call(args[i:], redirs, stdin, src, depth, via, true)
	if name == "xargs" && at < len(w.script.Commands) {
		w.script.Commands[at].MoreArgs = true
	}
}

// shell looks into bash -c 'script', and a shell reading a here-document.
func (w *walker) shell(name string, args []word, stdin *syntax.Word, depth int, via []string) {
	command := false
	i := 0
	for ; i < len(args); i++ {
		a := args[i].text
		if args[i].dynamic {
			break
		}
		if a == "--" || a == "-" {
			i++
			break
		}
		if a == "-o" || a == "+o" || a == "-O" || a == "+O" || a == "--rcfile" || a == "--init-file" {
			i++
			continue
		}
		if strings.HasPrefix(a, "--") {
			continue
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' {
			break
		}
		if a[0] == '-' && strings.Contains(a[1:], "c") {
			command = true
		}
	}
	switch {
	case command && i < len(args) && args[i].dynamic:
		w.unknown("%s -c runs a script known only when the command runs: %q", name, textfmt.Clip(args[i].text, 60))
	case command && i < len(args):
		w.parse(args[i].text, depth+1, via)
	case command:
		w.unknown("%s -c with no script", name)
	case i < len(args):
		// A script file: the program is the shell, the file's content is the file's business.
	case stdin != nil:
		body, ok := staticDocument(stdin)
		if !ok {
			w.unknown("%s reads a script built when the command runs", name)
			return
		}
		w.parse(body, depth+1, via)
	default:
		w.unknown("%s reads its script from its input", name)
	}
}

// eval parses its words, joined, as a script.
func (w *walker) eval(args []word, src string, depth int, via []string) {
	for _, a := range args {
		if a.dynamic {
			w.unknown("eval of a value known only when the command runs: %q", textfmt.Clip(a.text, 60))
			return
		}
	}
	if len(args) > 0 {
		w.parse(joinWords(args), depth+1, via)
	}
}

// findExec looks into find's -exec, -execdir, -ok and -okdir commands.
func (w *walker) findExec(args []word, redirs []string, src string, depth int, via []string) {
	for i := 0; i < len(args); i++ {
		switch args[i].text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		start := i + 1
		end := start
		for end < len(args) && args[end].text != ";" && args[end].text != "+" {
			end++
		}
		if start < end {
			w.call(args[start:end], nil, nil, src, depth, via, false)
		}
		i = end
	}
}

// staticDocument is a here-document's or here-string's text when it holds no expansion.
func staticDocument(doc *syntax.Word) (string, bool) {
	for _, p := range doc.Parts {
		switch p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.(*syntax.DblQuoted).Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return "", false
				}
			}
		default:
			return "", false
		}
	}
	body, err := expand.Document(nil, doc)
	return body, err == nil
}

func joinWords(ws []word) string {
	parts := make([]string, len(ws))
	for i, wd := range ws {
		parts[i] = wd.text
	}
	return strings.Join(parts, " ")
}

func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
