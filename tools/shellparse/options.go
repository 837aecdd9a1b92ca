package shellparse

import (
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/internal/textfmt"
)

// options is how a wrapper's options are spelled, so the command it runs is found after them.
// Short options are letters; an option with an argument takes the rest of its cluster or
// the next word; optional takes only the rest of its cluster. Long options take an argument
// after "=" or, when listed in longArg, the next word.
type options struct {
	flags, withArg, optional string
	long, longArg            []string
	digits                   bool // nice -5
}

// wrapperOptions are the wrappers looked through whose operands are a command (GNU coreutils,
// findutils, sudo and OpenBSD doas spellings).
var wrapperOptions = map[string]options{
	"env": {flags: "i0v", withArg: "uCS", long: []string{"ignore-environment", "null", "debug",
		"unset", "chdir", "split-string", "default-signal", "ignore-signal", "block-signal", "list-signal-handling"},
		longArg: []string{"unset", "chdir", "split-string"}},
	"command": {flags: "pvV"},
	"builtin": {},
	"exec":    {flags: "cl", withArg: "a"},
	"nice":    {withArg: "n", long: []string{"adjustment"}, longArg: []string{"adjustment"}, digits: true},
	"nohup":   {},
	"setsid":  {flags: "cfw", long: []string{"ctty", "fork", "wait"}},
	"timeout": {flags: "v", withArg: "sk", long: []string{"signal", "kill-after", "preserve-status", "foreground", "verbose"},
		longArg: []string{"signal", "kill-after"}},
	"time": {flags: "pvaq", withArg: "of", long: []string{"portability", "verbose", "append", "quiet", "output", "format"},
		longArg: []string{"output", "format"}},
	"stdbuf": {withArg: "ioe", long: []string{"input", "output", "error"}},
	"xargs": {flags: "0prtx", withArg: "adEILnPs", optional: "eil", long: []string{"null", "arg-file", "delimiter", "eof",
		"replace", "max-lines", "max-args", "max-procs", "max-chars", "interactive", "no-run-if-empty", "verbose",
		"exit", "open-tty", "process-slot-var"},
		longArg: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"}},
	"sudo": {flags: "AbEHiKklnPSsVv", withArg: "CDghprtTUu", long: []string{"askpass", "background", "preserve-env",
		"set-home", "login", "remove-timestamp", "reset-timestamp", "non-interactive", "preserve-groups", "stdin",
		"shell", "close-from", "chdir", "group", "host", "prompt", "role", "type", "command-timeout", "other-user", "user"},
		longArg: []string{"close-from", "chdir", "group", "host", "prompt", "role", "type", "command-timeout", "other-user", "user"}},
	"doas": {flags: "nsL", withArg: "uC"},
}

// optionValues are the options a wrapper was given, by letter or long name.
type optionValues map[string]string

func (v optionValues) has(names ...string) bool {
	for _, n := range names {
		if _, ok := v[n]; ok {
			return true
		}
	}
	return false
}

func (v optionValues) get(names ...string) string {
	for _, n := range names {
		if s := v[n]; s != "" {
			return s
		}
	}
	return ""
}

// skipOptions returns the index of the first operand after name's options and the options
// seen; problem is set when an option cannot be read (unknown, or known only at run time),
// since then the operand that is the command cannot be found.
func skipOptions(name string, args []word, opts options) (int, optionValues, string) {
	values := optionValues{}
	bad := func(a string) string {
		return fmt.Sprintf("%s is given an option troupe cannot read (%q), so the command it runs is unknown", name, textfmt.Clip(a, 40))
	}
	for i := 0; i < len(args); i++ {
		a := args[i].text
		if args[i].dynamic {
			if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "\"-") {
				return i, values, bad(a)
			}
			return i, values, ""
		}
		switch {
		case a == "--":
			return i + 1, values, ""
		case a == "-" && name == "env":
			values["i"] = ""
		case strings.HasPrefix(a, "--"):
			long, val, hasVal := strings.Cut(a[2:], "=")
			if !contains(opts.long, long) {
				return i, values, bad(a)
			}
			if !hasVal && contains(opts.longArg, long) {
				if i+1 >= len(args) {
					return len(args), values, ""
				}
				i++
				val = args[i].text
			}
			values[long] = val
		case len(a) > 1 && a[0] == '-':
			took, problem := shortCluster(a[1:], args, i, opts, values)
			if problem {
				return i, values, bad(a)
			}
			i += took
		default:
			return i, values, ""
		}
	}
	return len(args), values, ""
}

// shortCluster reads one cluster of short options (-vS 'x', -n5, -5) and returns how many of
// the following words it took.
func shortCluster(cluster string, args []word, i int, opts options, values optionValues) (int, bool) {
	for j := 0; j < len(cluster); j++ {
		c := cluster[j]
		rest := cluster[j+1:]
		switch {
		case opts.digits && c >= '0' && c <= '9':
			values["n"] = cluster[j:]
			return 0, false
		case strings.IndexByte(opts.withArg, c) >= 0:
			if rest != "" {
				values[string(c)] = rest
				return 0, false
			}
			if i+1 < len(args) {
				values[string(c)] = args[i+1].text
			}
			return 1, false
		case strings.IndexByte(opts.optional, c) >= 0:
			values[string(c)] = rest
			return 0, false
		case strings.IndexByte(opts.flags, c) >= 0:
			values[string(c)] = ""
		default:
			return 0, true
		}
	}
	return 0, false
}

// xargsReplace is the string xargs replaces with its input (-I R, -i[R], --replace[=R]).
func xargsReplace(values optionValues) string {
	if r := values.get("I", "i", "replace"); r != "" {
		return r
	}
	if values.has("i", "replace") {
		return "{}"
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
