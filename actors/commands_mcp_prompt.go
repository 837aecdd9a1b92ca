package actors

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// MCP servers' prompts are the chat's slash commands, as in Claude Code:
// /mcp__<server>__<prompt> [args…]. Arguments are positional in the prompt's own order
// (quote one with spaces; words past the last argument join it); a required one that is
// missing is one line naming it. The filled prompt's messages go to the model as the user's
// turn (through the UserPromptSubmit hooks like typed text). /mcp lists the prompts.

// mcpPromptWait bounds finding, starting and asking the server for a prompt: within the
// client's wait for an answer to its input (actors/client.go), so a late prompt never starts
// a turn the client has given up on. A server slower to start answers the next try.
const (
	mcpPromptWait      = 12 * time.Second
	mcpPromptStartWait = 8 * time.Second
)

// isMCPPromptCommand says whether a command word names an MCP prompt.
func isMCPPromptCommand(word string) bool {
	return strings.HasPrefix(strings.ToLower(word), "mcp__")
}

// runMCPPrompt is /mcp__<server>__<prompt> [args…].
func runMCPPrompt(h commandHost, word, arg string) *messages.InputAck {
	p := h.Snapshot().MCPPrompts
	if p == nil {
		return commandOutput(fmt.Sprintf("/%s: no MCP servers are configured, so there are no prompt commands (troupe mcp add adds a server)", word))
	}
	words, err := splitPromptArgs(arg)
	if err != nil {
		return commandOutput(fmt.Sprintf("/%s: %v", word, err))
	}
	h.LaterInput(mcpPromptWait, func() (string, string) {
		deadline := time.Now().Add(mcpPromptWait - time.Second)
		server, prompt, why := findMCPPrompt(p, word)
		if why != "" {
			return "", why
		}
		args, err := bindPromptArgs(prompt, words)
		if err != nil {
			return "", fmt.Sprintf("/%s: %v (usage: %s)", word, err, promptUsage(server, prompt))
		}
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		defer cancel()
		res := p.Get(ctx, server, prompt.Name, args)
		switch {
		case res.IsError:
			return "", fmt.Sprintf("/%s: %s", word, textfmt.ClipLine(res.Output, 300))
		case strings.TrimSpace(res.Output) == "":
			return "", fmt.Sprintf("/%s: the server's prompt has no text; nothing was sent", word)
		}
		return res.Output, ""
	}, func(err error) string {
		return fmt.Sprintf("/%s: the server did not answer within %s (%v); try again once /mcp shows it ready", word, mcpPromptWait, err)
	})
	return nil
}

// findMCPPrompt finds the server and prompt a command word names, starting the server it
// names if it has not started; why says what is wrong when there is none.
func findMCPPrompt(p mcpPrompter, word string) (server string, prompt messages.MCPPromptSpec, why string) {
	statuses := p.Statuses(nil)
	var start []string
	for _, st := range statuses {
		if st.State != messages.MCPReady && strings.HasPrefix(strings.ToLower(word), strings.ToLower(tools.MCPToolName(st.Server, ""))) {
			start = append(start, st.Server)
		}
	}
	if len(start) > 0 {
		statuses = p.Statuses(start)
	}
	var names []string
	for _, exact := range []bool{true, false} {
		for _, st := range statuses {
			for _, pr := range st.Prompts {
				name := "/" + tools.MCPToolName(st.Server, pr.Name)
				if exact {
					names = append(names, name)
				}
				if name[1:] == word || !exact && strings.EqualFold(name[1:], word) {
					return st.Server, pr, ""
				}
			}
		}
	}
	why = fmt.Sprintf("unknown command /%s: no MCP server offers that prompt", word)
	for _, st := range statuses {
		if st.State != messages.MCPReady && slices.Contains(start, st.Server) {
			why = fmt.Sprintf("/%s: mcp server %s is %s: %s", word, st.Server, st.State, st.LastError)
		}
	}
	if len(names) > 0 {
		why += " (the prompts: " + strings.Join(names, ", ") + ")"
	}
	return "", messages.MCPPromptSpec{}, why
}

// splitPromptArgs splits a command's argument into words: spaces separate, "double" or
// 'single' quotes keep spaces in one word.
func splitPromptArgs(arg string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range arg {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a %c quote is not closed", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// bindPromptArgs gives the words to the prompt's arguments in order; words past the last
// argument join it. A required argument left without a word is an error naming it.
func bindPromptArgs(p messages.MCPPromptSpec, words []string) (map[string]string, error) {
	if len(p.Arguments) == 0 {
		if len(words) > 0 {
			return nil, fmt.Errorf("the prompt takes no arguments, and %d were given", len(words))
		}
		return nil, nil
	}
	args := map[string]string{}
	for i, a := range p.Arguments {
		switch {
		case i >= len(words):
		case i == len(p.Arguments)-1:
			args[a.Name] = strings.Join(words[i:], " ")
		default:
			args[a.Name] = words[i]
		}
	}
	var missing []string
	for _, a := range p.Arguments {
		if _, ok := args[a.Name]; !ok && a.Required {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing required argument %s", strings.Join(missing, ", "))
	}
	return args, nil
}

// promptUsage is a prompt command with its arguments: <required> [optional].
func promptUsage(server string, p messages.MCPPromptSpec) string {
	parts := []string{"/" + tools.MCPToolName(server, p.Name)}
	for _, a := range p.Arguments {
		if a.Required {
			parts = append(parts, "<"+a.Name+">")
		} else {
			parts = append(parts, "["+a.Name+"]")
		}
	}
	return strings.Join(parts, " ")
}

// mcpPromptLines are /mcp's lines for a server's prompts: usage and description.
func mcpPromptLines(st *messages.MCPServerStatus) string {
	var b strings.Builder
	for _, p := range st.Prompts {
		fmt.Fprintf(&b, "  %s", promptUsage(st.Server, p))
		if p.Description != "" {
			fmt.Fprintf(&b, "  %s", textfmt.ClipLine(p.Description, 120))
		}
		b.WriteString("\n")
	}
	return b.String()
}
