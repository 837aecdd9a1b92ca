package main

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/mcptest"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm/llmtest"
)

// TestMCPPromptsAreChatCommands: through the real binary, a server's prompt is a slash
// command in the chat. /mcp lists it with its usage; a missing required argument is one line
// and no model call; /mcp__t__review with positional arguments sends the filled prompt to the
// model as the user's turn; a prompt the server adds mid-session (notifications/prompts/
// list_changed, after the model's call to grow) is a command at once.
func TestMCPPromptsAreChatCommands(t *testing.T) {
	repo := newRepo(t, nil)
	writeMCPJSON(t, repo, map[string]any{"t": map[string]any{"command": mcptest.Binary(t), "env": map[string]string{mcptest.Variable: mcptest.ModeTools}}})
	srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply {
		switch n {
		case 0:
			return llmtest.Reply{Text: "REVIEWED-IT"}
		case 1:
			return llmtest.Reply{Calls: []llmtest.Call{{Name: "mcp__t__grow", Args: `{}`}}}
		case 2:
			return llmtest.Reply{Text: "GREW-IT"}
		}
		return llmtest.Reply{Text: "GOT-GROWN"}
	})
	defer srv.Close()
	cmd, stdin, out, stderr := startWithStdin(t, repo, append(testEnv(t, "OPENAI_API_KEY=sk-test"), "HOME="+trustedHome(t, repo)), "chat", "--mode", "yolo",
		"--model", "openai/gpt-4o-mini", "--base-url", srv.URL())
	io.WriteString(stdin, "/mcp__t__review\n")
	out.waitFor(t, "/mcp__t__review: missing required argument code (usage: /mcp__t__review <code> [language])", 60*time.Second)
	io.WriteString(stdin, "/mcp\n")
	out.waitFor(t, "/mcp__t__review <code> [language]  Review a piece of code.", 30*time.Second)
	io.WriteString(stdin, "/mcp__t__review \"x := 1\" Go\n")
	out.waitFor(t, "REVIEWED-IT", 60*time.Second)
	io.WriteString(stdin, "grow the server\n")
	out.waitFor(t, "GREW-IT", 60*time.Second)
	// The server's new prompt is listed again off the session: ask /mcp until it shows.
	deadline := time.Now().Add(testwait.Scale(30 * time.Second))
	for !strings.Contains(out.text(), "/mcp__t__grown  Added by grow.") {
		if time.Now().After(deadline) {
			t.Fatalf("/mcp never listed the grown prompt:\n%s", out.text())
		}
		n := strings.Count(out.text(), "Review a piece of code.")
		io.WriteString(stdin, "/mcp\n")
		testwait.Until(t, 30*time.Second, func() bool { return strings.Count(out.text(), "Review a piece of code.") > n }, "/mcp to answer")
	}
	io.WriteString(stdin, "/mcp__t__grown\n")
	out.waitFor(t, "GOT-GROWN", 60*time.Second)
	io.WriteString(stdin, "/exit\n")
	if code := waitExit(t, cmd, 30*time.Second); code != 0 {
		t.Fatalf("chat exit %d: %s", code, stderr.String())
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("want 4 model requests (the refused command makes none), got %d", len(reqs))
	}
	if body := string(reqs[0].Body); !strings.Contains(body, `Please review this Go code:\nx := 1\n\nSay what could break.`) {
		t.Errorf("the first request lacks the filled prompt as the user's turn:\n%s", body)
	}
	if body := string(reqs[3].Body); !strings.Contains(body, "GROWN-PROMPT") {
		t.Errorf("the last request lacks the grown prompt:\n%s", body)
	}
}
