package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// hookHome makes a private HOME whose user config is config, and writes the named hook
// scripts (executable) into a directory of their own, returned with it.
func hookHome(t *testing.T, config string, scripts map[string]string) (home, bin string) {
	t.Helper()
	home, bin = t.TempDir(), t.TempDir()
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(home, ".config", "troupe")
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(strings.ReplaceAll(config, "BIN", bin)), 0o644); err != nil {
		t.Fatal(err)
	}
	return home, bin
}

// hookRuns are the hook.finished events of a run, as "Event:decision".
func hookRuns(t *testing.T, envs []messages.Envelope) (runs []string, data []*messages.HookFinishedData) {
	t.Helper()
	for _, e := range envs {
		if e.Type != messages.EventHookFinished {
			continue
		}
		v, err := e.DecodeData()
		if err != nil {
			t.Fatal(err)
		}
		d := v.(*messages.HookFinishedData)
		runs = append(runs, d.Event+":"+d.Decision)
		data = append(data, d)
	}
	return runs, data
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return string(data)
}

// Every event, with troupe's own hook config and real sh and python3 scripts: context at the
// prompt, a refused command, context after a read, a refused final answer, and the events that
// only observe. Each decision is a hook.finished event, and the scripts read what they expect.
func TestHooksEveryEventThroughTheBinary(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	home, bin := hookHome(t, `
[[hooks.SessionStart]]
command = "cat > BIN/start.json"
[[hooks.UserPromptSubmit]]
command = "echo 'the user prefers short answers'"
[[hooks.PreModel]]
command = "echo pre >> BIN/model.log"
[[hooks.PostModel]]
command = "echo post >> BIN/model.log"
[[hooks.PreToolUse]]
matcher = "bash"
command = "BIN/guard.sh"
timeout_s = 10
[[hooks.PostToolUse]]
matcher = "Read"
command = "python3 BIN/post.py"
[[hooks.Stop]]
command = "python3 BIN/stop.py"
[[hooks.SessionEnd]]
command = "cat > BIN/end.json"
`, map[string]string{
		"guard.sh": "#!/bin/sh\ninput=$(cat)\ncase \"$input\" in *'rm '*) echo \"no deleting files: $input\" >&2; exit 2;; esac\nexit 0\n",
		"post.py": `import json, sys
d = json.load(sys.stdin)
lines = sum(1 for _ in open(d["transcript_path"]))
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse",
    "additionalContext": "post saw %s of %s (transcript %d lines)" % (d["tool_name"], d["tool_input"]["path"], lines)}}))
`,
		"stop.py": `import json, sys
d = json.load(sys.stdin)
if not d["stop_hook_active"] and "checked" not in d["last_assistant_message"]:
    print(json.dumps({"decision": "block", "reason": "say that you checked a.txt"}))
`,
	})
	model := writeScript(t, repo, `{"turns": [
		{"expect": "the user prefers short answers", "tool_calls": [{"name": "bash", "args": {"command": "rm a.txt"}}]},
		{"expect": "no deleting files", "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"expect": "post saw read_file of a.txt (transcript", "text": "done"},
		{"expect": "say that you checked a.txt", "text": "done, checked a.txt"}]}`)
	r := troupe(t, repo, testEnv(t, "HOME="+home), "run", "--json", "--model", model, "--mode", "yolo", "--sandbox", "off", "tidy up")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	if _, err := os.Stat(filepath.Join(repo, "a.txt")); err != nil {
		t.Errorf("the refused rm ran: %v", err)
	}
	envs := envelopes(t, r.stdout)
	if fin := finished(t, envs); fin.Final != "done, checked a.txt" {
		t.Errorf("final %q: the Stop hook's refusal did not keep the loop going", fin.Final)
	}
	runs, data := hookRuns(t, envs)
	for _, want := range []string{"SessionStart:continue", "UserPromptSubmit:context", "PreToolUse:deny",
		"PostToolUse:context", "Stop:block", "Stop:continue", "SessionEnd:continue", "PreModel:continue", "PostModel:continue"} {
		if !strings.Contains(" "+strings.Join(runs, " ")+" ", " "+want+" ") {
			t.Errorf("no hook.finished %s in %v", want, runs)
		}
	}
	for _, d := range data {
		if d.Event == "PreToolUse" && (d.Exit != 2 || d.Tool != "bash" || !strings.Contains(d.Reason, "no deleting")) {
			t.Errorf("PreToolUse event %+v", d)
		}
	}
	var start, end map[string]any
	json.Unmarshal([]byte(readFile(t, filepath.Join(bin, "start.json"))), &start)
	json.Unmarshal([]byte(readFile(t, filepath.Join(bin, "end.json"))), &end)
	if start["hook_event_name"] != "SessionStart" || start["source"] != "startup" || start["cwd"] != repo || start["session_id"] == "" {
		t.Errorf("SessionStart input %v", start)
	}
	if end["hook_event_name"] != "SessionEnd" || !strings.HasPrefix(end["reason"].(string), "done") {
		t.Errorf("SessionEnd input %v", end)
	}
	if log := readFile(t, filepath.Join(bin, "model.log")); strings.Count(log, "pre") != 4 {
		t.Errorf("PreModel ran %d times for 4 model calls:\n%s", strings.Count(log, "pre"), log)
	}
}

// Hooks from a trusted project's .claude/settings.json see Claude Code's names and inputs: an
// Edit with an absolute file_path. Its updatedInput is mapped back and re-decided: its allow
// lets an edit through that ask mode would deny headless, but never beats a deny rule.
func TestClaudeCodeSettingsHooks(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n", "troupe.toml": "[permissions]\ndeny = [\"bash(rm*)\"]\n"})
	os.MkdirAll(filepath.Join(repo, ".claude"), 0o755)
	os.WriteFile(filepath.Join(repo, ".claude", "guard.py"), []byte(`import json, sys
d = json.load(sys.stdin)
out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "ok"}}
if d["tool_name"] == "Edit":
    assert d["tool_input"]["file_path"].startswith("/"), d
    ti = dict(d["tool_input"]); ti["new_string"] = "ALPHA (by the hook)"
    out["hookSpecificOutput"]["updatedInput"] = ti
print(json.dumps(out))
`), 0o644)
	os.WriteFile(filepath.Join(repo, ".claude", "settings.json"), []byte(`{"hooks": {
		"PreToolUse": [{"matcher": "Edit|Bash", "hooks": [{"type": "command", "command": "python3 \"$CLAUDE_PROJECT_DIR\"/.claude/guard.py", "timeout": 20}]}],
		"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({\"decision\":\"block\",\"reason\":\"lint says: \"+d[\"tool_response\"][\"filePath\"]}))'"}]}]}}`), 0o644)
	home, _ := hookHome(t, "trusted_projects = [\""+repo+"\"]\n", nil)
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"tool_calls": [{"name": "edit_file", "args": {"path": "a.txt", "old_string": "alpha", "new_string": "beta"}}]},
		{"expect": "lint says: `+filepath.Join(repo, "a.txt")+`", "tool_calls": [{"name": "bash", "args": {"command": "rm a.txt"}}]},
		{"expect": "permission denied", "text": "done"}]}`)
	r := troupe(t, repo, testEnv(t, "HOME="+home), "run", "--json", "--model", model, "--mode", "ask", "--sandbox", "off", "edit")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	if got := readFile(t, filepath.Join(repo, "a.txt")); got != "ALPHA (by the hook)\n" {
		t.Errorf("a.txt = %q, want the hook's rewrite", got)
	}
	runs, _ := hookRuns(t, envelopes(t, r.stdout))
	if want := "PreToolUse:allow PostToolUse:block PreToolUse:allow"; strings.Join(runs, " ") != want {
		t.Errorf("hook runs %v, want %s", runs, want)
	}
}

// A project that is not trusted keeps its hooks from running: /hooks lists them as skipped
// beside the user's, which run. A hook that is not found, one that hangs past its timeout and
// one that prints invalid JSON are each one line for the user, and the session goes on.
func TestUntrustedProjectHooksAreSkippedAndBadHooksAreReported(t *testing.T) {
	repo := newRepo(t, map[string]string{"troupe.toml": "[[hooks.PreToolUse]]\ncommand = \"exit 2\"\n"})
	home, _ := hookHome(t, `
[[hooks.PreToolUse]]
command = "./no-such-hook.sh"
[[hooks.PreToolUse]]
command = "sleep 30"
timeout_s = 1
[[hooks.PreToolUse]]
command = "echo '{not json'"
`, nil)
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "echo ran > out.txt"}}]},
		{"text": "finished"}]}`)
	cmd, stdin, out, stderr := startWithStdin(t, repo, testEnv(t, "HOME="+home), "chat", "--mode", "yolo", "--sandbox", "off", "--model", model)
	io.WriteString(stdin, "/hooks\n")
	out.waitFor(t, "skipped because the project is not trusted", 30*time.Second)
	io.WriteString(stdin, "go\n")
	out.waitFor(t, "finished", 60*time.Second)
	io.WriteString(stdin, "/exit\n")
	if code := waitExit(t, cmd, 30*time.Second); code != 0 {
		t.Fatalf("chat exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "1 project hook(s) not run: the project is not trusted") {
		t.Errorf("no warning of the skipped hook on stderr:\n%s", stderr.String())
	}
	text := out.text()
	for _, want := range []string{"skipped: PreToolUse", "no-such-hook.sh", "not found", "timed out after 1s", "JSON troupe cannot read"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if got := readFile(t, filepath.Join(repo, "out.txt")); got != "ran\n" {
		t.Errorf("out.txt = %q: the untrusted project's hook (exit 2) ran, or the bad hooks stopped the call", got)
	}
}

// A UserPromptSubmit hook that exits 2 drops the prompt: the model is never called and the
// user is told why.
func TestUserPromptSubmitBlockDropsTheTask(t *testing.T) {
	repo := newRepo(t, nil)
	home, _ := hookHome(t, "[[hooks.UserPromptSubmit]]\ncommand = \"echo 'no secrets in prompts' >&2; exit 2\"\n", nil)
	model := writeScript(t, repo, `{"turns": [{"text": "the model was called"}]}`)
	r := troupe(t, repo, testEnv(t, "HOME="+home), "run", "--model", model, "--sandbox", "off", "my password is hunter2")
	if r.code == 0 || strings.Contains(r.stdout, "the model was called") {
		t.Fatalf("exit %d; the prompt reached the model:\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.stdout+r.stderr, "no secrets in prompts") {
		t.Errorf("the user is not told why:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
}

// A PreToolUse hook's "ask" makes the gate ask even in yolo mode (headless: refused, with how
// to allow it); "continue": false refuses the call and stops the turn, as a cancel would: the
// run ends interrupted with the stopReason, and the model is not called again.
func TestPreToolUseAskAndContinueFalse(t *testing.T) {
	repo := newRepo(t, nil)
	home, _ := hookHome(t, `
[[hooks.PreToolUse]]
matcher = "write_file"
command = "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"writes need a look\"}}'"
[[hooks.PreToolUse]]
matcher = "bash"
command = "python3 -c 'import json; print(json.dumps({\"continue\": False, \"stopReason\": \"quiet hours: no commands\"}))'"
`, nil)
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "write_file", "args": {"path": "n.txt", "content": "x"}}]},
		{"expect": "no one to ask", "tool_calls": [{"name": "bash", "args": {"command": "touch b.txt"}}]},
		{"text": "the model was called after the stop"}]}`)
	r := troupe(t, repo, testEnv(t, "HOME="+home), "run", "--json", "--model", model, "--mode", "yolo", "--sandbox", "off", "write")
	fin := finished(t, envelopes(t, r.stdout))
	if fin.Status != messages.StatusInterrupted || !strings.Contains(fin.Error, "quiet hours: no commands") {
		t.Errorf("finished %+v (exit %d), want interrupted by the hook's stopReason", fin, r.code)
	}
	if strings.Contains(r.stdout, "the model was called after the stop") {
		t.Errorf("the model was called after the hook stopped the turn")
	}
	for _, f := range []string{"n.txt", "b.txt"} {
		if _, err := os.Stat(filepath.Join(repo, f)); err == nil {
			t.Errorf("%s was written though a hook held it back", f)
		}
	}
	if runs, _ := hookRuns(t, envelopes(t, r.stdout)); strings.Join(runs, " ") != "PreToolUse:ask PreToolUse:stop" {
		t.Errorf("hook runs %v", runs)
	}
}
