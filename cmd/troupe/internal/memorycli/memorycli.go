// Package memorycli is the logic of troupe memory beside its flags: which memory a command
// line names, the request a change sends to the Node, and the exit code of the reply.
package memorycli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/messages"
)

// Target is the memory --user and --project name: "user" or "project", or "" for both when
// need is false (listing). A change needs exactly one.
func Target(user, project, need bool) (string, error) {
	switch {
	case user && project && need:
		return "", clierr.Usagef("say --user or --project, not both")
	case user && !project:
		return "user", nil
	case project && !user:
		return "project", nil
	case need:
		return "", clierr.Usagef("say which memory: --user (your profile) or --project (this project's facts)")
	}
	return "", nil
}

// Name is how a message names the memory target is: the user profile or the project facts.
func Name(target string) string {
	if target == "user" {
		return "the user profile"
	}
	return "the project facts"
}

// Request is the change request of action (add, remove, replace, clear) with its arguments;
// use names the subcommand in the error of an empty text.
func Request(use, action, target string, args []string) (*messages.MemoryRequest, error) {
	req := &messages.MemoryRequest{Action: action, Target: target}
	switch action {
	case "add":
		req.Content = args[0]
	case "remove":
		req.OldText = args[0]
	case "replace":
		req.OldText, req.Content = args[0], args[1]
	}
	if strings.TrimSpace(req.Content+req.OldText) == "" && action != "clear" {
		return nil, clierr.Usagef("memory %s: the text is empty", use)
	}
	return req, nil
}

// Show writes the reply (ui.Memory) and returns its exit code: 1 for a refused change when
// failIfRefused, or for a damaged or unavailable memory (ui.Memory said which).
func Show(stdout, stderr io.Writer, reply *messages.MemoryReply, asJSON, failIfRefused bool) error {
	if err := ui.Memory(stdout, stderr, reply, asJSON); err != nil {
		return err
	}
	if reply.Refused && failIfRefused {
		return &clierr.Error{Code: clierr.Failed}
	}
	for _, b := range reply.Books {
		if b.Error != "" {
			return &clierr.Error{Code: clierr.Failed}
		}
	}
	return nil
}

// ConfirmClear asks, at a terminal, before every entry of a memory goes; elsewhere (a script,
// a pipe) it refuses, as a usage error, and says how to clear anyway: nothing is forgotten
// that nobody agreed to forget.
func ConfirmClear(in io.Reader, out io.Writer, onTerminal bool, target string) error {
	what := Name(target)
	if !onTerminal {
		return clierr.Usagef("not clearing %s without asking: troupe memory clear --%s --yes clears it", what, target)
	}
	fmt.Fprintf(out, "Forget every entry of %s? [y/N] ", what)
	line, _ := bufio.NewReader(in).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		return clierr.Failf("not cleared")
	}
	return nil
}
