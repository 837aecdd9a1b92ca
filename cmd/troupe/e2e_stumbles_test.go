package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm/llmtest"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/sandbox"
)

// Usage errors are validated before anything else, exit 2, and point at the misused command's
// own help; --version works like the version command.
func TestUsageErrorsPointAtTheirOwnHelp(t *testing.T) {
	repo := newRepo(t, nil)
	env := testEnv(t)
	v := troupe(t, repo, env, "--version")
	if v.code != 0 || !strings.HasPrefix(v.stdout, "troupe ") {
		t.Errorf("--version: exit %d, stdout %q, stderr %q", v.code, v.stdout, v.stderr)
	}
	for _, tc := range []struct {
		args []string
		hint string
	}{
		{[]string{"log"}, "see 'troupe log --help'"},
		{[]string{"log", "--bogus", "x"}, "see 'troupe log --help'"},
		{[]string{"mode", "someid", "bogus"}, "see 'troupe mode --help'"},
		{[]string{"run", "--max-turns", "-1", "--model", "scripted:x", "hi"}, "--max-turns -1"},
	} {
		r := troupe(t, repo, env, tc.args...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tc.args, r.code, r.stderr)
		}
		if !strings.Contains(r.stderr, tc.hint) || strings.Contains(r.stderr, "troupe troupe") {
			t.Errorf("%v: stderr %q, want it to contain %q", tc.args, r.stderr, tc.hint)
		}
		if n := strings.Count(r.stderr, "\n"); n != 1 {
			t.Errorf("%v: %d lines on stderr, want one: %q", tc.args, n, r.stderr)
		}
	}
	// A failure that is not a usage error gets no help hint and exit 1.
	r := troupe(t, repo, env, "approve", "call_1", "allow")
	if r.code != 1 || strings.Contains(r.stderr, "--help") {
		t.Errorf("approve with no node: exit %d, stderr %q", r.code, r.stderr)
	}
}

// A provider error is said once, in plain words: no "retryable"/"fatal" class names, not once
// on stdout and again on stderr.
func TestProviderErrorIsSaidOnceInPlainWords(t *testing.T) {
	repo := newRepo(t, nil)
	srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply { return llmtest.Reply{Status: 401} })
	defer srv.Close()
	r := troupe(t, repo, testEnv(t, "OPENAI_API_KEY=sk-bad"), "run", "--model", "openai/fake", "--base-url", srv.URL(), "hi")
	all := r.stdout + r.stderr
	if r.code != 2 || !strings.Contains(r.stderr, "401 Unauthorized") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	for _, jargon := range []string{"fatal", "retryable", "(HTTP"} {
		if strings.Contains(all, jargon) {
			t.Errorf("output says %q:\n%s", jargon, all)
		}
	}
	if n := strings.Count(all, "401"); n != 1 {
		t.Errorf("the error is printed %d times:\n%s", n, all)
	}
}

// resume keeps the endpoint the session was started with (a transcript for a local server must
// not go to a public one), and every command takes the short id watch shows.
func TestResumeKeepsTheEndpointAndTakesAShortID(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply {
		return llmtest.Reply{Text: "answer " + string(rune('A'+n))}
	})
	defer srv.Close()
	env := testEnv(t, "OPENAI_API_KEY=sk-test")
	first := troupe(t, repo, env, "run", "--json", "--model", "openai/fake", "--base-url", srv.URL(), "hi")
	if first.code != 0 {
		t.Fatalf("run: exit %d\n%s", first.code, first.stderr)
	}
	id := envelopes(t, first.stdout)[0].Session
	short := id[len(id)-6:]
	again := troupe(t, repo, env, "resume", "--json", short, "and again")
	if again.code != 0 {
		t.Fatalf("resume %s: exit %d\nstdout: %s\nstderr: %s", short, again.code, again.stdout, again.stderr)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("the local server saw %d requests, want 2 (resume went elsewhere?)", n)
	}
	if fin := finished(t, envelopes(t, again.stdout)); fin.Final != "answer B" {
		t.Errorf("resumed final = %q", fin.Final)
	}
	// Nothing left to do and no task: say so, rather than print nothing at all.
	idle := troupe(t, repo, env, "resume", short)
	if idle.code != 0 || !strings.Contains(idle.stderr, "nothing to resume") || len(srv.Requests()) != 2 {
		t.Errorf("resume %s with no task: exit %d, %d requests\nstdout: %s\nstderr: %s", short, idle.code, len(srv.Requests()), idle.stdout, idle.stderr)
	}
	lg := troupe(t, repo, env, "log", short)
	if lg.code != 0 || !strings.Contains(lg.stdout, "answer B") || !strings.Contains(lg.stdout, "2 turns") {
		t.Errorf("log %s: exit %d\n%s%s", short, lg.code, lg.stdout, lg.stderr)
	}
	// for scripts: one JSON object a session
	ls := troupe(t, repo, env, "sessions", "--json")
	var meta messages.SessionInfo
	if ls.code != 0 || strings.Count(ls.stdout, "\n") != 1 || json.Unmarshal([]byte(ls.stdout), &meta) != nil ||
		meta.ID != id || meta.Status != "done" || meta.Turns != 2 || meta.Model != "openai/fake" {
		t.Errorf("sessions --json: exit %d, %+v\nstdout: %s\nstderr: %s", ls.code, meta, ls.stdout, ls.stderr)
	}
}

// A session whose process was killed shows as interrupted; troupe stop ends a background node
// and its sessions stay resumable.
func TestStopEndsABackgroundNodeAndSessionsShowInterrupted(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	env := testEnv(t)
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "exec sleep 120"}}]},
		{"text": "never"}]}`)
	id := detach(t, repo, env, model, "wait")
	nodeFile := filepath.Join(repo, ".troupe", "node.json")
	waitFile(t, nodeFile, 60*time.Second)
	st := troupe(t, repo, env, "stop")
	if st.code != 0 || !strings.Contains(st.stdout, "stopped the troupe node") {
		t.Fatalf("stop: exit %d\nstdout: %s\nstderr: %s", st.code, st.stdout, st.stderr)
	}
	if _, err := os.Stat(nodeFile); !os.IsNotExist(err) {
		t.Errorf("node.json still there after stop: %v", err)
	}
	if again := troupe(t, repo, env, "stop"); again.code != 0 || !strings.Contains(again.stdout, "nothing to stop") {
		t.Errorf("second stop: exit %d %s%s", again.code, again.stdout, again.stderr)
	}
	ls := troupe(t, repo, env, "sessions") // starts a node again to read the store
	if !strings.Contains(ls.stdout, id) || !strings.Contains(ls.stdout, "interrupted") {
		t.Errorf("sessions after stop:\n%s%s", ls.stdout, ls.stderr)
	}
}

// doctor --base-url asks the endpoint, so a wrong URL shows before a run does.
func TestDoctorProbesTheEndpoint(t *testing.T) {
	repo := newRepo(t, nil)
	srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply { return llmtest.Reply{Text: "unused"} })
	defer srv.Close()
	env := testEnv(t, "OPENAI_API_KEY=sk-test")
	ok := troupe(t, repo, env, "doctor", "--model", "openai/fake", "--base-url", srv.URL())
	if !strings.Contains(ok.stdout, "answers with 1 model; fake is among them") {
		t.Errorf("doctor against a live endpoint: exit %d\n%s%s", ok.code, ok.stdout, ok.stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the probe made %d model calls", n)
	}
	srv.Close()
	bad := troupe(t, repo, env, "doctor", "--model", "openai/fake", "--base-url", srv.URL())
	if bad.code != 1 || !strings.Contains(bad.stdout, "FAIL endpoint") {
		t.Errorf("doctor against a dead endpoint: exit %d\n%s%s", bad.code, bad.stdout, bad.stderr)
	}
}

// --prompt-mode changes the instructions and may narrow the tools: ask cannot write. An unknown
// mode is a usage error naming the modes there are.
func TestPromptModeAskCannotWrite(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	env := testEnv(t)
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "write_file", "args": {"path": "b.txt", "content": "x"}}]},
		{"text": "could not write"}]}`)
	r := troupe(t, repo, env, "run", "--json", "--mode", "yolo", "--sandbox", "off", "--prompt-mode", "ask", "--model", model, "write b.txt")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, "b.txt")); !os.IsNotExist(err) {
		t.Errorf("ask mode wrote a file: %v", err)
	}
	bad := troupe(t, repo, env, "run", "--prompt-mode", "nosuch", "--model", model, "x")
	if bad.code != 2 || !strings.Contains(bad.stderr, "review-security") {
		t.Errorf("unknown prompt mode: exit %d %s", bad.code, bad.stderr)
	}
}

// A command the sandbox stops says so, with the setting that allows it.
func TestSandboxBlockedCommandSaysSo(t *testing.T) {
	if sup := sandbox.Detect(); sup.LandlockABI == 0 && !sup.BwrapWorks {
		t.Skip("no sandbox works on this machine")
	}
	repo := newRepo(t, nil)
	outside := filepath.Join(t.TempDir(), "escape.txt") // outside the workspace and not a temp dir troupe grants
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "echo x > `+outside+`"}}]},
		{"text": "done"}]}`)
	tmp := filepath.Join(repo, "tmp") // the temp dir the sandbox grants: not where outside is
	os.Mkdir(tmp, 0o755)
	r := troupe(t, repo, testEnv(t, "TMPDIR="+tmp), "run", "--json", "--mode", "yolo", "--sandbox", "auto", "--model", model, "try")
	var out string
	for _, d := range toolResults(t, envelopes(t, r.stdout)) {
		out += d.Output
	}
	if !strings.Contains(out, "sandbox may have blocked this") || !strings.Contains(out, "--sandbox off") {
		t.Errorf("the blocked command's result does not say why:\n%s\n%s", out, r.stderr)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Errorf("the sandbox let the write through")
	}
}

// The line chat (pipes, TERM=dumb) says how to come back when it is left, as the full-screen
// chat does; troupe chat takes its first message as words, as troupe alone does.
func TestLineChatSaysHowToResume(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	model := writeScript(t, repo, `{"turns": [{"text": "hello back"}]}`)
	r := troupeStdin(t, repo, testEnv(t), strings.NewReader("hi\n/exit\n"), "chat", "--model", model)
	if r.code != 0 || !strings.Contains(r.stdout, "hello back") {
		t.Fatalf("chat: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = troupeStdin(t, repo, testEnv(t), strings.NewReader("/exit\n"), "chat", "--model", model, "hi", "there")
	if r.code != 0 || !strings.Contains(r.stdout, "hello back") {
		t.Fatalf("chat: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "troupe: left session ") || !strings.Contains(r.stderr, "(resume with: troupe resume ") {
		t.Errorf("leaving the line chat does not say how to resume:\n%s", r.stderr)
	}
	_, rest, _ := strings.Cut(r.stderr, "troupe: left session ")
	id, _, _ := strings.Cut(rest, " ")
	// --resume ID (a separate word, as the README writes it) reopens that session
	r = troupeStdin(t, repo, testEnv(t), strings.NewReader("/exit\n"), "chat", "--model", model, "--resume", id[len(id)-6:])
	if r.code != 0 || !strings.Contains(r.stderr, "resumed session "+id) {
		t.Errorf("chat --resume %s: exit %d\nstdout: %s\nstderr: %s", id, r.code, r.stdout, r.stderr)
	}
}

// troupe watch with a session id that names no session says so at once (exit 2), as log and
// attach do, instead of waiting for events that never come.
func TestWatchRefusesAnUnknownSession(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	env := testEnv(t, "TROUPE_NODE_IDLE=2m")
	model := writeScript(t, repo, `{"turns": [{"text": "ok"}]}`)
	id := detach(t, repo, env, model, "answer")
	defer troupe(t, repo, env, "stop", "--force")
	r := troupe(t, repo, env, "watch", "nosuchsession")
	if r.code != exitUsage || !strings.Contains(r.stderr, "no session nosuchsession") {
		t.Errorf("watch nosuchsession: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if r := troupe(t, repo, env, "attach", id[len(id)-6:]); r.code != 0 {
		t.Errorf("attach %s: exit %d\n%s", id, r.code, r.stderr)
	}
}

// A chat whose node is stopped under it (troupe stop --force) says how to resume its session.
func TestChatInterruptedByStopSaysHowToResume(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	env := testEnv(t)
	model := writeScript(t, repo, `{"turns": [{"text": "hello back"}, {"text": "again"}]}`)
	cmd, stdin, out, stderr := startWithStdin(t, repo, env, "chat", "--model", model)
	io.WriteString(stdin, "hi\n")
	out.waitFor(t, "hello back", 30*time.Second)
	if r := troupe(t, repo, env, "stop", "--force"); r.code != 0 {
		t.Fatalf("stop --force: exit %d\n%s", r.code, r.stderr)
	}
	if code := waitExit(t, cmd, 30*time.Second); code != exitInterrupted {
		t.Errorf("chat exit %d, want %d\n%s", code, exitInterrupted, stderr.String())
	}
	if !strings.Contains(stderr.String(), "(resume with: troupe resume ") {
		t.Errorf("an interrupted chat does not say how to resume:\n%s", stderr.String())
	}
}
