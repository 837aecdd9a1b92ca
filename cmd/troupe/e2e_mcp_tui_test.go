package main

import (
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/mcptest"
	"github.com/troupe-dev/troupe/llm/llmtest"
)

// TestTUIShowsMCPToolsChanged: in the full-screen chat (a real terminal under tmux), a server
// that adds a tool mid-session is one quiet line saying what changed, as in the line chat.
func TestTUIShowsMCPToolsChanged(t *testing.T) {
	repo := newRepo(t, nil)
	writeMCPJSON(t, repo, map[string]any{"t": map[string]any{"command": mcptest.Binary(t), "env": map[string]string{mcptest.Variable: mcptest.ModeTools}}})
	srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply {
		if n == 0 {
			return llmtest.Reply{Calls: []llmtest.Call{{Name: "mcp__t__grow", Args: `{}`}}}
		}
		return llmtest.Reply{Text: "GREW-IT"}
	})
	defer srv.Close()
	home := trustedHome(t, repo)
	tm := startTmux(t, repo, 120, 30, troupeShell(t, []string{"OPENAI_API_KEY=sk-test", "HOME=" + home},
		"chat", "--mode", "yolo", "--model", "openai/gpt-4o-mini", "--base-url", srv.URL()))
	tm.waitFor("Enter sends", 30*time.Second)
	tm.keys(true, "grow the server")
	tm.keys(false, "Enter")
	tm.waitFor("GREW-IT", 60*time.Second)
	tm.waitFor("mcp server t changed its tools: added mcp__t__grown", 60*time.Second)
}
