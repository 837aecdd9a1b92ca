package main

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/mcptest"
	"github.com/troupe-dev/troupe/llm/llmtest"
)

// requestTools are the tool names of an OpenAI request body.
func requestTools(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range req.Tools {
		names = append(names, tl.Function.Name)
	}
	return names
}

// TestMCPListChangedReachesARunningSession: through the real binary, a server that adds a tool
// mid-session (the fault server's grow sends notifications/tools/list_changed) changes the
// session's tools between turns: the turn that grew it keeps its tools (the stable prefix holds
// within a turn), the chat says what changed, and the next turn offers the new tool.
func TestMCPListChangedReachesARunningSession(t *testing.T) {
	repo := newRepo(t, nil)
	writeMCPJSON(t, repo, map[string]any{"t": map[string]any{"command": mcptest.Binary(t), "env": map[string]string{mcptest.Variable: mcptest.ModeTools}}})
	srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply {
		switch n {
		case 0:
			return llmtest.Reply{Calls: []llmtest.Call{{Name: "mcp__t__grow", Args: `{}`}}}
		case 1:
			return llmtest.Reply{Text: "GREW-IT"}
		}
		return llmtest.Reply{Text: "SECOND-TURN"}
	})
	defer srv.Close()
	home := trustedHome(t, repo)
	cmd, stdin, out, stderr := startWithStdin(t, repo, append(testEnv(t, "OPENAI_API_KEY=sk-test"), "HOME="+home), "chat", "--mode", "yolo",
		"--model", "openai/gpt-4o-mini", "--base-url", srv.URL())
	io.WriteString(stdin, "grow the server\n")
	out.waitFor(t, "GREW-IT", 60*time.Second)
	line := out.waitFor(t, "mcp server t changed its tools", 60*time.Second)
	if !strings.Contains(line, "added mcp__t__grown") {
		t.Fatalf("the change line: %q", line)
	}
	io.WriteString(stdin, "and now?\n")
	out.waitFor(t, "SECOND-TURN", 60*time.Second)
	io.WriteString(stdin, "/exit\n")
	if code := waitExit(t, cmd, 30*time.Second); code != 0 {
		t.Fatalf("chat exit %d: %s", code, stderr.String())
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("want 3 requests, got %d", len(reqs))
	}
	has := func(n int, name string) bool {
		for _, tl := range requestTools(t, reqs[n].Body) {
			if tl == name {
				return true
			}
		}
		return false
	}
	if !has(0, "mcp__t__grow") || has(0, "mcp__t__grown") || has(1, "mcp__t__grown") {
		t.Fatal("the tools changed within the turn that grew the server")
	}
	if !has(2, "mcp__t__grown") || !has(2, "mcp__t__echo") {
		t.Fatalf("the next turn's tools: %v", requestTools(t, reqs[2].Body))
	}
}
