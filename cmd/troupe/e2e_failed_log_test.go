package main

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm/llmtest"
)

// A session the provider refused: troupe log says why it failed, in the one line the run
// printed, and troupe sessions marks it failed.
func TestLogOfAFailedSessionSaysWhy(t *testing.T) {
	repo := newRepo(t, nil)
	srv := llmtest.NewOpenAI(func(int, map[string]any) llmtest.Reply {
		return llmtest.Reply{Status: 400, Text: "model does not support tools"}
	})
	defer srv.Close()
	env := testEnv(t, "OPENAI_API_KEY=sk-test")
	r := troupe(t, repo, env, "run", "--model", "openai/fake", "--base-url", srv.URL(), "list the files")
	if r.code == 0 {
		t.Fatalf("run succeeded against a server refusing tools:\n%s", r.stdout)
	}
	printed := strings.TrimSpace(r.stderr)
	if i := strings.LastIndex(printed, "\n"); i >= 0 {
		printed = printed[i+1:]
	}
	printed = strings.TrimPrefix(printed, "troupe: ")
	if !strings.Contains(printed, "does not support tools") {
		t.Fatalf("run printed %q, want the provider's reason", r.stderr)
	}
	ls := troupe(t, repo, env, "sessions")
	var id string
	for _, line := range strings.Split(ls.stdout, "\n")[1:] {
		if f := strings.Fields(line); len(f) > 1 {
			id = f[0]
			if f[1] != "failed" || !strings.Contains(line, "does not support tools") {
				t.Errorf("sessions shows %q, want failed and why:\n%s", f[1], ls.stdout)
			}
		}
	}
	if id == "" {
		t.Fatalf("sessions lists nothing: %s\n%s", ls.stdout, ls.stderr)
	}
	if js := troupe(t, repo, env, "sessions", "--json"); !strings.Contains(js.stdout, `"error":`) || !strings.Contains(js.stdout, "does not support tools") {
		t.Errorf("sessions --json lacks the failure's reason:\n%s", js.stdout)
	}
	lg := troupe(t, repo, env, "log", id)
	if lg.code != 0 {
		t.Fatalf("log: exit %d: %s", lg.code, lg.stderr)
	}
	if !strings.Contains(lg.stdout, "list the files") || !strings.Contains(lg.stdout, printed) {
		t.Errorf("log lacks the task or the reason %q:\n%s", printed, lg.stdout)
	}
}

// A chat started without words takes its first message, on one line, as its task: troupe
// sessions and the resume picker name it instead of a blank.
func TestChatTakesItsFirstMessageAsTask(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"text": "on it"}, {"text": "again"}]}`)
	r := troupeStdin(t, repo, testEnv(t), strings.NewReader("   fix the flaky parser test  \nand then the docs\n/exit\n"), "chat", "--model", model)
	if r.code != 0 || !strings.Contains(r.stdout, "on it") {
		t.Fatalf("chat: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	ls := troupe(t, repo, testEnv(t), "sessions")
	lines := strings.Split(strings.TrimSpace(ls.stdout), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[1], "  fix the flaky parser test") {
		t.Errorf("sessions does not name the chat by its first message:\n%s\n%s", ls.stdout, ls.stderr)
	}
}
