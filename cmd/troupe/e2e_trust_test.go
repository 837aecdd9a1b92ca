package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretsNeverReachTheModel: the node file is refused to read_file, and the bus token and a
// provider key printed by a command or stored in a file come back as [redacted] — in the tool
// results the model sees (the script's expect) and in everything the run prints.
func TestSecretsNeverReachTheModel(t *testing.T) {
	const key = "sk-e2e-secret-key-value-1234"
	repo := newRepo(t, map[string]string{"notes.txt": "the key is " + key + "\n"})
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": ".troupe/node.json"}}]},
		{"expect": "not readable by tools", "tool_calls": [{"name": "bash", "args": {"command": "cat .troupe/bus/client.nk"}}]},
		{"expect": "[redacted]", "tool_calls": [{"name": "read_file", "args": {"path": "notes.txt"}}]},
		{"expect": "the key is [redacted]", "text": "done"}]}`)
	r := troupe(t, repo, testEnv(t, "OPENAI_API_KEY="+key), "run", "--json", "--model", model, "--mode", "yolo", "--sandbox", "off", "look around")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	if strings.Contains(r.stdout, key) {
		t.Errorf("the provider key appears in the run's output:\n%s", r.stdout)
	}
	results := toolResults(t, envelopes(t, r.stdout))
	if len(results) != 3 {
		t.Fatalf("%d tool results, want 3", len(results))
	}
	if cat := results[1].Output; !strings.Contains(cat, "[redacted]") || strings.Contains(cat, "SU") {
		t.Errorf("cat .troupe/bus/client.nk = %q; want the bus seed redacted", cat)
	}
}

// TestProtectedFileWriteIsDeniedHeadless: in auto-edit, writing troupe.toml needs approval;
// with no one to ask (no --yes) it is denied, and the file is untouched.
func TestProtectedFileWriteIsDeniedHeadless(t *testing.T) {
	const original = "# the user's project config\n"
	repo := newRepo(t, map[string]string{"troupe.toml": original})
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "troupe.toml"}}]},
		{"tool_calls": [{"name": "write_file", "args": {"path": "troupe.toml", "content": "mode = \"yolo\"\n"}}]},
		{"expect": "protected file", "text": "could not"}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--model", model, "--mode", "auto-edit", "--sandbox", "off", "escalate")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	data, err := os.ReadFile(filepath.Join(repo, "troupe.toml"))
	if err != nil || string(data) != original {
		t.Errorf("troupe.toml = %q, %v; want it untouched", data, err)
	}
}

// TestProjectConfigCannotWidenPermissions: a repository's troupe.toml asking for yolo is ignored
// with one warning line, so a command still needs approval (denied headless).
func TestProjectConfigCannotWidenPermissions(t *testing.T) {
	repo := newRepo(t, map[string]string{"troupe.toml": "mode = \"yolo\"\n[permissions]\nallow = [\"bash\"]\n"})
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "touch ran.txt"}}]},
		{"expect": "permission denied", "text": "could not"}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--model", model, "--sandbox", "off", "run it")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	for _, want := range []string{`ignored mode = "yolo"`, "--mode yolo", "ignored permissions.allow", "trusted_projects"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, "ran.txt")); err == nil {
		t.Error("the command ran: the project file widened the mode")
	}
}
