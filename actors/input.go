package actors

import (
	"strings"

	"github.com/troupe-dev/troupe/internal/nearest"
)

// inputKind is what a line of user input is: empty is ignored, a known /command is handled
// locally and never reaches the model, an unknown one gets help with the nearest match,
// anything else goes to the model.
type inputKind string

// The input routes.
const (
	inputEmpty   inputKind = "empty"
	inputCommand inputKind = "command"
	inputUnknown inputKind = "unknown_command"
	inputModel   inputKind = "model"
	inputShell   inputKind = "shell" // "!command": Arg is the command
)

// inputRoute is the routing decision for one line.
type inputRoute struct {
	Kind    inputKind
	Command string // without the slash
	Arg     string
	Nearest string // for unknown commands: the closest known one, if close enough
}

// classifyInput classifies a line of input. A line starting with "/" followed by a path-like word
// ("/usr/bin is slow") is text for the model, not a command.
func classifyInput(text string) inputRoute {
	t := strings.TrimSpace(text)
	if t == "" {
		return inputRoute{Kind: inputEmpty}
	}
	if command, ok := strings.CutPrefix(t, "!"); ok {
		return inputRoute{Kind: inputShell, Arg: strings.TrimSpace(command)}
	}
	if !strings.HasPrefix(t, "/") || strings.HasPrefix(t, "//") {
		return inputRoute{Kind: inputModel}
	}
	word, arg, _ := strings.Cut(t[1:], " ")
	if word == "" || strings.ContainsAny(word, "/.\\") {
		return inputRoute{Kind: inputModel}
	}
	if isMCPPromptCommand(word) { // a prompt's name keeps its case (commands_mcp_prompt.go)
		return inputRoute{Kind: inputCommand, Command: word, Arg: strings.TrimSpace(arg)}
	}
	word = strings.ToLower(word)
	if _, ok := lookupCommand(word); ok {
		return inputRoute{Kind: inputCommand, Command: word, Arg: strings.TrimSpace(arg)}
	}
	return inputRoute{Kind: inputUnknown, Command: word, Nearest: nearest.Best(word, commandNames(), 2)}
}
