package main

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm/llmtest"
)

// TestModelSwitchKeepsKeysAtHome: a chat on openai/… with --base-url pointing at one server
// switches with /model to anthropic/…: the next request goes to Anthropic's own (configured)
// endpoint with its key, and the first server never sees that key. /model to a provider whose
// key is not set says so at once.
func TestModelSwitchKeepsKeysAtHome(t *testing.T) {
	const openaiKey, anthropicKey = "sk-openai-key-for-server-A", "sk-ant-key-for-server-B"
	first := llmtest.NewOpenAI(func(int, map[string]any) llmtest.Reply { return llmtest.Reply{Text: "hello from the first server"} })
	defer first.Close()
	second := llmtest.NewAnthropic(func(int, map[string]any) llmtest.Reply { return llmtest.Reply{Text: "hello from anthropic"} })
	defer second.Close()
	repo := newRepo(t, nil)
	env := testEnv(t, "OPENAI_API_KEY="+openaiKey, "ANTHROPIC_API_KEY="+anthropicKey, "ANTHROPIC_BASE_URL="+second.URL())
	cmd, stdin, out, stderr := startWithStdin(t, repo, env, "chat", "--mode", "ask", "--sandbox", "off",
		"--model", "openai/gpt-4o-mini", "--base-url", first.URL())
	step := func(line, want string) {
		t.Helper()
		io.WriteString(stdin, line+"\n")
		out.waitFor(t, want, 30*time.Second)
	}
	step("hi", "hello from the first server")
	step("/model anthropic/claude-sonnet-4-5", "model anthropic/claude-sonnet-4-5 for the next turns")
	step("and now?", "hello from anthropic")
	step("/model deepseek/deepseek-chat", "DEEPSEEK_API_KEY is not set")
	io.WriteString(stdin, "/exit\n")
	if code := waitExit(t, cmd, 30*time.Second); code != 0 {
		t.Fatalf("chat exit %d: %s", code, stderr.String())
	}
	for _, r := range first.Requests() {
		if strings.Contains(r.Header.Get("X-Api-Key")+r.Header.Get("Authorization"), anthropicKey) || strings.Contains(r.Path, "messages") {
			t.Errorf("the first server got Anthropic's request or key: %s %v", r.Path, r.Header)
		}
	}
	got := second.Requests()
	if len(got) != 1 || got[0].Header.Get("X-Api-Key") != anthropicKey {
		t.Fatalf("Anthropic's endpoint got %d requests (want 1, with its own key)", len(got))
	}
	if strings.Contains(got[0].Header.Get("X-Api-Key")+got[0].Header.Get("Authorization"), openaiKey) {
		t.Errorf("Anthropic's endpoint got the OpenAI key")
	}
}
