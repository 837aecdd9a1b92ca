package tools

import (
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Shell habits of models trained on other harnesses, repaired for any tool whose schema takes a
// string command and a timeout in seconds (bash): Codex's argv arrays and the millisecond
// timeouts of Codex and Claude Code. Both only apply where the call as sent would be invalid
// or meaningless here, so a call in our own form is never changed.

// msTimeoutFloor is the smallest "timeout" read as milliseconds: bash's own limit is 600
// seconds, so a larger number cannot mean seconds here, while Claude Code's and Codex's
// timeouts (milliseconds) are at least a second.
const msTimeoutFloor = 1000

// millisecondTimeout reads {"timeout": 10000} as ten seconds when the schema takes timeout_s and
// not timeout, and the value is at least msTimeoutFloor. It runs before the aliases (which
// would carry the number over as seconds).
func (s *argsSchema) millisecondTimeout(args map[string]any) []Repair {
	v, ok := args["timeout"]
	if !ok || s.has("timeout") || !s.has("timeout_s") || args["timeout_s"] != nil {
		return s.durationTimeout(args)
	}
	n, isNum := v.(json.Number)
	if text, isText := v.(string); isText { // digits as text, as the XML call formats send them
		n, isNum = json.Number(strings.TrimSpace(text)), true
	}
	ms, err := n.Float64()
	if !isNum || err != nil || ms < msTimeoutFloor {
		return s.durationTimeout(args)
	}
	millisecondsTimeout("timeout")(args) // Claude Code's Bash conversion: a positive number, so no refusal
	return []Repair{newRepair(RepairShellForm, fmt.Sprintf("timeout: %s (milliseconds)", n), fmt.Sprintf("timeout_s: %s", args["timeout_s"]))}
}

// timeoutDuration is a duration written with its unit: "30s", "2 min", "1.5m", "120000ms",
// "90 seconds", "1h".
var timeoutDuration = lazyre.New(`^\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|msecs?|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\s*$`)

// durationTimeout reads a timeout written as a duration with its unit ({"timeout": "30s"},
// {"timeout_s": "2m"}), as models write Go's, systemd's and Docker's durations, into whole
// seconds (rounded up). A string without a unit is left to the aliases and coercion; a unit
// makes the number certain, so no floor applies.
func (s *argsSchema) durationTimeout(args map[string]any) []Repair {
	if !s.has("timeout_s") {
		return nil
	}
	for _, key := range []string{"timeout_s", "timeout"} {
		text, ok := args[key].(string)
		if !ok || key == "timeout" && (s.has("timeout") || args["timeout_s"] != nil) {
			continue
		}
		secs, ok := durationSeconds(text)
		if !ok {
			continue
		}
		delete(args, key)
		args["timeout_s"] = json.Number(fmt.Sprint(secs))
		return []Repair{newRepair(RepairShellForm, fmt.Sprintf("%s: %q", key, text), fmt.Sprintf("timeout_s: %d", secs))}
	}
	return nil
}

// durationSeconds reads a duration written with its unit (timeoutDuration) as whole seconds,
// rounded up, at least one.
func durationSeconds(text string) (int64, bool) {
	if len(text) > 32 { // no duration is longer; a hostile one costs nothing
		return 0, false
	}
	m := timeoutDuration.FindStringSubmatch(strings.ToLower(text))
	if m == nil {
		return 0, false
	}
	var n float64
	if _, err := fmt.Sscan(m[1], &n); err != nil || n <= 0 {
		return 0, false
	}
	unit := map[byte]float64{'m': 60, 'h': 3600, 's': 1}[m[2][0]]
	if strings.HasPrefix(m[2], "ms") || strings.HasPrefix(m[2], "milli") {
		unit = 0.001
	}
	return max(int64(n*unit+0.999), 1), true
}

// argvCommand joins a command sent as an argv array (Codex's shell: ["bash", "-lc", "ls"]) into
// the one command line the schema's string command takes; a list whose every element is a
// whole command line is those commands in order, joined by &&.
func (s *argsSchema) argvCommand(args map[string]any) []Repair {
	argv, ok := args["command"].([]any)
	if !ok || !s.has("command") || len(argv) == 0 {
		return nil
	}
	words := make([]string, len(argv))
	lines := 0 // elements that are whole command lines (a blank inside)
	for i, w := range argv {
		word, ok := w.(string)
		if !ok {
			return nil // not an argv: let validation say what is wrong
		}
		words[i] = word
		if strings.ContainsAny(strings.TrimSpace(word), " \t\n") {
			lines++
		}
	}
	var line string
	switch {
	case lines == len(words):
		// a list of command lines (["npm install", "npm test"]): run in order, each only
		// when the one before it succeeded; quoting each as one word would run a program
		// named "npm install"
		trimmed := make([]string, len(words))
		for i, w := range words {
			trimmed[i] = strings.TrimSpace(w)
		}
		line = strings.Join(trimmed, " && ")
	default:
		line = commandLine(words) // an argv: a program (a path may hold a blank), then its arguments
	}
	args["command"] = line
	before, _ := json.Marshal(argv)
	return []Repair{newRepair(RepairShellForm, "command: "+string(before), "command: "+strings.TrimSpace(line))}
}

// shellEntity is an XML entity a model escaped a shell operator with.
var shellEntity = lazyre.New(`&(?:amp|lt|gt|quot|#39|apos);`)

// escapedCommand decodes a command whose shell operators were written as XML entities
// ("git status &amp;&amp; git diff", "ls 2&gt;/dev/null": cline#10064, Roo-Code#2114, Grok in
// tetsuo-ai/AgenC#1280). In a command the entity is never what the model meant (bash reads
// "&amp;&amp;" as a syntax error), so it is decoded when the command holds no raw '&', '<' or
// '>' beside the entities, which would mean the text was not escaped as a whole.
func (s *argsSchema) escapedCommand(args map[string]any) []Repair {
	cmd, ok := args["command"].(string)
	if !ok || !s.has("command") || !shellEntity.MatchString(cmd) || strings.ContainsAny(shellEntity.ReplaceAllString(cmd, ""), "&<>") {
		return nil
	}
	args["command"] = html.UnescapeString(cmd)
	return []Repair{newRepair(RepairShellForm, "command: "+cmd, "command: "+args["command"].(string))}
}

// paddedCommand trims the blanks around a command, as XML-ish formats pad a value with the
// spaces or line breaks around it (<parameter=command> git status </parameter>): bash ignores
// them, and a command that is only blanks stays as sent for validation to name. A trailing
// backslash keeps what follows it (an escaped space is an argument).
func (s *argsSchema) paddedCommand(args map[string]any) []Repair {
	cmd, ok := args["command"].(string)
	if !ok || !s.has("command") {
		return nil
	}
	trimmed := strings.TrimLeft(cmd, " \t\r\n")
	if right := strings.TrimRight(trimmed, " \t\r\n"); !strings.HasSuffix(right, `\`) {
		trimmed = right
	}
	if trimmed == cmd || trimmed == "" {
		return nil
	}
	args["command"] = trimmed
	return []Repair{newRepair(RepairShellForm, fmt.Sprintf("command: %q", cmd), fmt.Sprintf("command: %q", trimmed))}
}

// echoedArgs drops the arguments a command's schema does not declare whose text the command
// already holds: a model that sends {"command": "cat ./a.md", "file_path": "./a.md"} named the
// file twice (llxprt-code#303, ShellTool.run), and the command runs on it either way. Only text
// of two characters or more counts, and only in a closed schema, which would refuse the call.
func (s *argsSchema) echoedArgs(args map[string]any) []Repair {
	cmd, ok := args["command"].(string)
	if !ok || !s.has("command") || !s.closed {
		return nil
	}
	var repairs []Repair
	for _, key := range slices.Sorted(maps.Keys(args)) {
		v, isText := args[key].(string)
		v = strings.TrimSpace(v)
		if !isText || s.has(key) || s.aliasOf(key) != "" || len(v) < 2 || !strings.Contains(cmd, v) {
			continue
		}
		delete(args, key)
		repairs = append(repairs, newRepair(RepairDroppedNote, fmt.Sprintf("%s: %q (the command names it)", key, v), ""))
	}
	return repairs
}
