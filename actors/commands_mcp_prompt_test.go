package actors

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// LaterInput runs its work at once: text sent to the model is recorded as a call, an answer
// as an answer.
func (f *fakeHost) LaterInput(_ time.Duration, work func() (string, string), late func(error) string) {
	if f.timedOut != nil {
		f.answers = append(f.answers, late(f.timedOut))
		return
	}
	text, out := work()
	if text != "" {
		f.calls = append(f.calls, "user turn: "+text)
		return
	}
	f.answers = append(f.answers, out)
}

// fakePrompter is one server "gh" with two prompts; Get echoes the arguments it got.
type fakePrompter struct {
	started []string
	got     map[string]string
}

func (p *fakePrompter) Statuses(start []string) []*messages.MCPServerStatus {
	p.started = append(p.started, start...)
	st := &messages.MCPServerStatus{Server: "gh", State: messages.MCPStopped}
	if len(p.started) > 0 {
		st.State, st.Prompts = messages.MCPReady, []messages.MCPPromptSpec{
			{Name: "Review", Description: "Review a change.", Arguments: []messages.MCPPromptArg{{Name: "pr", Required: true}, {Name: "focus"}}},
			{Name: "hello"},
		}
	}
	return []*messages.MCPServerStatus{st}
}

func (p *fakePrompter) Get(_ context.Context, server, name string, args map[string]string) *messages.MCPCallResult {
	p.got = args
	return &messages.MCPCallResult{Output: "review " + args["pr"] + " for " + args["focus"]}
}

// TestMCPPromptCommands: a prompt command starts its server, fills the prompt's arguments in
// order (quotes keep spaces, extra words join the last) and sends the text as the user's
// turn; a missing required argument, an unclosed quote and an unknown prompt are one line.
func TestMCPPromptCommands(t *testing.T) {
	p := &fakePrompter{}
	h := &fakeHost{snap: commandSnapshot{MCPPrompts: p}}
	run := func(line string) {
		r := classifyInput(line)
		if ack := runCommand(h, r); ack != nil {
			h.answers = append(h.answers, ack.Output)
		}
	}
	run(`/mcp__gh__Review 42 error handling and "tests"`)
	if len(h.calls) != 1 || h.calls[0] != "user turn: review 42 for error handling and tests" || len(p.started) != 1 || p.started[0] != "gh" {
		t.Fatalf("calls %q, started %q", h.calls, p.started)
	}
	run(`/mcp__gh__review "a b"`) // case-insensitive when no prompt matches exactly
	if p.got["pr"] != "a b" || len(h.calls) != 2 {
		t.Errorf("quoted: %v %q", p.got, h.calls)
	}
	for line, want := range map[string]string{
		"/mcp__gh__Review":       "/mcp__gh__Review: missing required argument pr (usage: /mcp__gh__Review <pr> [focus])",
		`/mcp__gh__Review "open`: `/mcp__gh__Review: a " quote is not closed`,
		"/mcp__gh__hello there":  "/mcp__gh__hello: the prompt takes no arguments, and 1 were given (usage: /mcp__gh__hello)",
		"/mcp__gh__nope":         "unknown command /mcp__gh__nope: no MCP server offers that prompt (the prompts: /mcp__gh__Review, /mcp__gh__hello)",
	} {
		h.answers = nil
		run(line)
		if len(h.answers) != 1 || h.answers[0] != want {
			t.Errorf("%s: %q, want %q", line, h.answers, want)
		}
	}
	h = &fakeHost{}
	if ack := runCommand(h, classifyInput("/mcp__gh__Review 1")); ack == nil || !strings.Contains(ack.Output, "no MCP servers are configured") {
		t.Errorf("without servers: %+v", ack)
	}
}

// TestMCPViewListsPrompts: /mcp shows each prompt command with its usage.
func TestMCPViewListsPrompts(t *testing.T) {
	out := mcpView((&fakePrompter{started: []string{"gh"}}).Statuses(nil))
	if !strings.Contains(out, "\n  /mcp__gh__Review <pr> [focus]  Review a change.\n  /mcp__gh__hello") {
		t.Errorf("/mcp:\n%s", out)
	}
}
