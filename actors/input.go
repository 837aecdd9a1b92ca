package actors

import (
	"fmt"
	"github.com/troupe-dev/troupe/internal/nearest"
	"sort"
	"strings"
)

// Input routes: what a line of user input is (DESIGN §3: empty is ignored, a known /command is
// handled locally and never reaches the model, an unknown one gets help with the nearest match,
// anything else goes to the model).
const (
	inputEmpty   = "empty"
	inputCommand = "command"
	inputUnknown = "unknown_command"
	inputModel   = "model"
)

// inputRoute is the routing decision for one line.
type inputRoute struct {
	Kind    string
	Command string // without the slash
	Arg     string
	Nearest string // for unknown commands: the closest known one, if close enough
}

// localCommands are the commands a session answers itself, with their help lines.
var localCommands = map[string]string{
	"help":     "list the commands",
	"status":   "show model, mode, context use, tokens, compactions and goal (no model call)",
	"goal":     "show the goal; /goal <objective> sets it; /goal pause|resume|clear|complete",
	"compact":  "compact the context now; /compact <focus> says what to keep",
	"mode":     "show the permission mode; /mode plan|ask|auto-edit|yolo switches it",
	"worktree": "the git worktrees subagents worked in: /worktree list | merge NAME | drop NAME",
}

// routeInput classifies a line of input. A line starting with "/" followed by a path-like word
// ("/usr/bin is slow") is text for the model, not a command.
func classifyInput(text string, commands map[string]string) inputRoute {
	t := strings.TrimSpace(text)
	if t == "" {
		return inputRoute{Kind: inputEmpty}
	}
	if !strings.HasPrefix(t, "/") || strings.HasPrefix(t, "//") {
		return inputRoute{Kind: inputModel}
	}
	word, arg, _ := strings.Cut(t[1:], " ")
	if word == "" || strings.ContainsAny(word, "/.\\") {
		return inputRoute{Kind: inputModel}
	}
	word = strings.ToLower(word)
	if _, ok := commands[word]; ok {
		return inputRoute{Kind: inputCommand, Command: word, Arg: strings.TrimSpace(arg)}
	}
	return inputRoute{Kind: inputUnknown, Command: word, Nearest: nearestCommand(word, commands)}
}

// commandHelp lists the commands, sorted.
func commandHelp(commands map[string]string) string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("commands:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  /%-8s %s\n", n, commands[n])
	}
	return b.String()
}

// nearestCommand returns the known command closest to word, if within 2 edits.
func nearestCommand(word string, commands map[string]string) string {
	names := make([]string, 0, len(commands))
	for c := range commands {
		names = append(names, c)
	}
	sort.Strings(names) // a tie goes to the name that sorts first, whatever the map order
	return nearest.Best(word, names, 2)
}
