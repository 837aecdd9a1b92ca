package tools

import (
	"strconv"
	"strings"

	"github.com/troupe-dev/troupe/tools/shellparse"
)

// Models trained on other harnesses (Codex above all) read files with the shell: cat a.go,
// sed -n '1,80p' a.go, head -n 50 a.go, nl -ba a.go, tail a.go. When such a bash call is
// nothing but a plain read of workspace files and it succeeded, file truth counts it as the
// read_file it stands for: the same baseline, whole or partial in the same way. Otherwise the
// model's next edit is refused with "read_file it first", and a weak model loops there.
//
// Codex's own habit is a pipeline, nl -ba a.go | sed -n '1,120p' (its safe-command list
// approves exactly that), and a few models turn it round, sed -n '1,80p' a.go | nl -ba -v 1.
// Those two shapes (a numbering command, nl or cat -n, and one sed -n range over one file)
// read the same lines as the sed -n alone, so they count as that partial read.
//
// The parse is deliberately narrow: any other pipe, a redirection, a glob, an expansion, a
// list (but for one leading cd), an unknown flag or a second command makes the call not a
// read, so a misjudged command costs only the old refusal, never a baseline the model did not
// see.

// lineChoice is which lines of a file a read command prints.
type lineChoice struct {
	first, last int // 1-based; last 0 means up to the end of the file
	lastN       int // > 0: the file's last lastN lines (tail -n N); first and last unused
}

var wholeFile = lineChoice{first: 1}

// span is the lines of a file of total lines that the choice printed; ok is false when it
// printed none of a non-empty file.
func (c lineChoice) span(total int) (start, end int, ok bool) {
	switch {
	case total == 0:
		return 1, 0, true // an empty file: any read saw all of it
	case c.lastN > 0:
		return max(1, total-c.lastN+1), total, true
	}
	end = total
	if c.last > 0 {
		end = min(c.last, total)
	}
	return c.first, end, c.first <= total
}

// shellRead is one file a read command prints, as the command names it.
type shellRead struct {
	path  string
	lines lineChoice
	dir   string // the directory a leading cd moved to, which a relative path is in; "" for none
}

// parseShellRead returns the files command reads when it is only a plain read (cat, nl, head,
// tail or sed -n 'N,Mp' with simple flags and plain file operands, or a numbered sed -n range
// of one file: see numberedRange), and nil otherwise. One leading "cd DIR &&" is allowed:
// Codex sends its working directory with every shell call, and the Codex mapping writes it so
// (see inDirectory). The words are read by tools/shellparse (ParsePlain), as bash reads them.
func parseShellRead(command string) []shellRead {
	plain, ok := shellparse.ParsePlain(command)
	if !ok {
		return nil
	}
	cmds, ops := plain.Commands, plain.Ops
	dir := ""
	if len(ops) > 0 && ops[0] == "&&" {
		cd := cmds[0]
		if len(cd) != 2 || cd[0] != "cd" || cd[1] == "" || cd[1] == "-" {
			return nil
		}
		dir, cmds, ops = cd[1], cmds[1:], ops[1:]
	}
	var paths []string
	var lines lineChoice
	switch {
	case len(ops) == 0:
		paths, lines, ok = plainRead(cmds[0])
	case len(ops) == 1 && ops[0] == "|":
		paths, lines, ok = numberedRange(cmds[0], cmds[1])
	default:
		return nil
	}
	if !ok || len(paths) == 0 {
		return nil
	}
	reads := make([]shellRead, len(paths))
	for i, p := range paths {
		if p == "" || p == "-" {
			return nil // stdin, or an empty name: not a file of the workspace
		}
		reads[i] = shellRead{path: p, lines: lines, dir: dir}
	}
	return reads
}

// plainRead parses one read command: its file operands and the lines it prints of each.
func plainRead(words []string) ([]string, lineChoice, bool) {
	if len(words) < 2 {
		return nil, lineChoice{}, false
	}
	switch words[0] {
	case "cat":
		return catOperands(words[1:])
	case "nl":
		return nlOperands(words[1:])
	case "head":
		return headTailOperands(words[1:], false)
	case "tail":
		return headTailOperands(words[1:], true)
	case "sed":
		return sedOperands(words[1:])
	}
	return nil, lineChoice{}, false
}

// numberedRange reads the two sides of a pipe as Codex's numbered partial read: a numbering
// command over one file into sed -n 'A,Bp', or sed -n 'A,Bp' over one file into a numbering
// command. Numbering keeps one output line per input line, so either way the model saw lines
// A..B of the file.
func numberedRange(first, second []string) ([]string, lineChoice, bool) {
	if first[0] == "sed" {
		paths, lines, ok := sedOperands(first[1:])
		stdin, numbers := numberingOperands(second)
		return paths, lines, ok && numbers && len(stdin) == 0
	}
	paths, numbers := numberingOperands(first)
	if !numbers || len(paths) != 1 || second[0] != "sed" {
		return nil, lineChoice{}, false
	}
	stdin, lines, ok := sedScriptOperands(second[1:])
	return paths, lines, ok && len(stdin) == 0
}

// numberingOperands returns the operands of nl, or of cat told to number lines (-n, -b), with
// the flags nlOperands and catOperands accept; ok is false for any other command.
func numberingOperands(words []string) ([]string, bool) {
	switch words[0] {
	case "nl":
		paths, _, ok := nlOperands(words[1:])
		return paths, ok
	case "cat":
		paths, _, ok := catOperands(words[1:])
		return paths, ok && catNumbers(words[1:])
	}
	return nil, false
}

// catNumbers reports whether cat's flags (those before a "--") number the lines it prints.
func catNumbers(args []string) bool {
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--number" || a == "--number-nonblank":
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "nb"):
			return true
		}
	}
	return false
}

// splitOperands walks a command's arguments: option(args, i) handles the option at args[i]
// and returns how many more words it took (-1: not understood); the rest are operands.
func splitOperands(args []string, option func(args []string, i int) int) ([]string, bool) {
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(operands, args[i+1:]...), true
		case len(a) > 1 && a[0] == '-':
			took := option(args, i)
			if took < 0 || i+took >= len(args) {
				return nil, false
			}
			i += took
		default:
			operands = append(operands, a)
		}
	}
	return operands, true
}

// catOperands accepts cat's display flags; -s (squeezing blank lines) hides lines, so it is
// not a plain read.
func catOperands(args []string) ([]string, lineChoice, bool) {
	long := map[string]bool{"--number": true, "--number-nonblank": true, "--show-all": true,
		"--show-ends": true, "--show-tabs": true, "--show-nonprinting": true}
	paths, ok := splitOperands(args, func(args []string, i int) int {
		a := args[i]
		if long[a] || !strings.HasPrefix(a, "--") && strings.Trim(a[1:], "nbAEeTtv") == "" {
			return 0
		}
		return -1
	})
	return paths, wholeFile, ok
}

// nlOperands accepts nl's numbering style, format, width and start flags; every line is
// printed, one output line for each line read.
func nlOperands(args []string) ([]string, lineChoice, bool) {
	values := map[string]map[string]bool{
		"-b": {"a": true, "t": true, "n": true},
		"-n": {"ln": true, "rn": true, "rz": true},
	}
	paths, ok := splitOperands(args, func(args []string, i int) int {
		a := args[i]
		if len(a) < 2 {
			return -1
		}
		flag, value, took := a[:2], a[2:], 0
		if value == "" && i+1 < len(args) {
			value, took = args[i+1], 1
		}
		if allowed, ok := values[flag]; ok && allowed[value] {
			return took
		}
		if flag == "-w" && positiveInt(value) > 0 || flag == "-v" && (value == "0" || positiveInt(value) > 0) {
			return took
		}
		return -1
	})
	return paths, wholeFile, ok
}

// headTailOperands accepts head's and tail's line counts (-n N, -nN, -N, --lines=N; tail also
// -n +N) and header flags; byte counts (-c) and following (-f) are not plain reads.
func headTailOperands(args []string, tail bool) ([]string, lineChoice, bool) {
	lines := lineChoice{first: 1, last: 10}
	if tail {
		lines = lineChoice{lastN: 10}
	}
	count := func(v string) bool {
		switch n := positiveInt(strings.TrimPrefix(v, "+")); {
		case n == 0 || !tail && strings.HasPrefix(v, "+"):
			return false
		case tail && strings.HasPrefix(v, "+"):
			lines = lineChoice{first: n}
		case tail:
			lines = lineChoice{lastN: n}
		default:
			lines = lineChoice{first: 1, last: n}
		}
		return true
	}
	paths, ok := splitOperands(args, func(args []string, i int) int {
		a := args[i]
		switch {
		case a == "-q" || a == "-v" || a == "--quiet" || a == "--silent" || a == "--verbose":
			return 0
		case (a == "-n" || a == "--lines") && i+1 < len(args):
			if count(args[i+1]) {
				return 1
			}
		case strings.HasPrefix(a, "--lines="):
			if count(strings.TrimPrefix(a, "--lines=")) {
				return 0
			}
		case strings.HasPrefix(a, "-n") && len(a) > 2:
			if count(a[2:]) {
				return 0
			}
		case positiveInt(a[1:]) > 0: // the old form, head -20
			if count(a[1:]) {
				return 0
			}
		}
		return -1
	})
	return paths, lines, ok
}

// sedOperands accepts only sed -n with one script printing one range (N,Mp, N,$p or Np) of
// one file: with several files sed numbers the lines across them.
func sedOperands(args []string) ([]string, lineChoice, bool) {
	operands, lines, ok := sedScriptOperands(args)
	if !ok || len(operands) != 1 {
		return nil, lineChoice{}, false
	}
	return operands, lines, true
}

// sedScriptOperands parses sed -n with one script printing one range, and returns its file
// operands however many there are (none: it reads its input).
func sedScriptOperands(args []string) ([]string, lineChoice, bool) {
	quiet, script, scripts := false, "", 0
	operands, ok := splitOperands(args, func(args []string, i int) int {
		switch args[i] {
		case "-n", "--quiet", "--silent":
			quiet = true
			return 0
		case "-e", "-ne":
			quiet = quiet || args[i] == "-ne"
			if i+1 < len(args) {
				script, scripts = args[i+1], scripts+1
				return 1
			}
		}
		return -1
	})
	if !ok || !quiet {
		return nil, lineChoice{}, false
	}
	if scripts == 0 && len(operands) > 0 {
		script, scripts, operands = operands[0], 1, operands[1:]
	}
	lines, printsRange := sedRange(script)
	if scripts != 1 || !printsRange {
		return nil, lineChoice{}, false
	}
	return operands, lines, true
}

// sedRange parses a sed script of one print command over a line range.
func sedRange(script string) (lineChoice, bool) {
	body, isPrint := strings.CutSuffix(strings.TrimSpace(script), "p")
	if !isPrint {
		return lineChoice{}, false
	}
	from, to, isRange := strings.Cut(body, ",")
	first := positiveInt(from)
	if first == 0 {
		return lineChoice{}, false
	}
	switch {
	case !isRange:
		return lineChoice{first: first, last: first}, true
	case to == "$":
		return lineChoice{first: first}, true
	}
	last := positiveInt(to)
	if last == 0 {
		return lineChoice{}, false
	}
	return lineChoice{first: first, last: max(first, last)}, true // N,M with M < N prints line N
}

// positiveInt is s as a positive decimal number of plain digits, or 0.
func positiveInt(s string) int {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}
