package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/internal/mcptest"
)

// trustedHome is a HOME whose user config trusts repo.
func trustedHome(t *testing.T, repo string) string {
	home := t.TempDir()
	dir := filepath.Join(home, ".config", "troupe")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "config.toml"), []byte("trusted_projects = [\""+repo+"\"]\n"), 0o644)
	return home
}

func writeMCPJSON(t *testing.T, repo string, servers map[string]any) {
	data, _ := json.Marshal(map[string]any{"mcpServers": servers})
	os.WriteFile(filepath.Join(repo, ".mcp.json"), data, 0o644)
}

// TestRunCallsTheReferenceMCPServer: the npm reference server configured in .mcp.json of a
// trusted project runs (inside the sandbox) and the scripted model's call to
// mcp__everything__echo reaches it.
func TestRunCallsTheReferenceMCPServer(t *testing.T) {
	node, script := mcptest.Reference(t, "server-everything")
	repo := newRepo(t, nil)
	writeMCPJSON(t, repo, map[string]any{"everything": map[string]any{"command": node, "args": []string{script, "stdio"}}})
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "mcp__everything__echo", "args": {"message": "MCP-HELLO"}}]},
		{"expect": "MCP-HELLO", "text": "The server said MCP-HELLO."}]}`)
	home := trustedHome(t, repo)
	r := troupe(t, repo, append(testEnv(t), "HOME="+home), "run", "--json", "--model", model, "echo through mcp")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	res := toolResults(t, envelopes(t, r.stdout))
	if len(res) != 1 || res[0].IsError || !strings.Contains(res[0].Output, "MCP-HELLO") {
		t.Fatalf("results: %+v", res)
	}
}

// TestMCPConfigMistakesAreOneLine: a .mcp.json with a syntax error is one warning line and the
// run goes on; an untrusted project's servers are not started (one line naming
// trusted_projects) and a call to their tool is an unknown tool, not a crash.
func TestMCPConfigMistakesAreOneLine(t *testing.T) {
	repo := newRepo(t, nil)
	os.WriteFile(filepath.Join(repo, ".mcp.json"), []byte("{\"mcpServers\": {\"t\": {\"command\": \"x\",}}}\n"), 0o644)
	model := writeScript(t, repo, `{"turns": [{"text": "fine"}]}`)
	r := troupe(t, repo, append(testEnv(t), "HOME="+trustedHome(t, repo)), "run", "--model", model, "go")
	if r.code != 0 || !strings.Contains(r.stdout, "fine") {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	if n := strings.Count(r.stderr, ".mcp.json: line 1"); n != 1 {
		t.Errorf("want one line about the broken .mcp.json, got:\n%s", r.stderr)
	}

	writeMCPJSON(t, repo, map[string]any{"t": map[string]any{"command": mcptest.Binary(t), "env": map[string]string{mcptest.Variable: mcptest.ModeTools}}})
	model = writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "mcp__t__echo", "args": {"msg": "hi"}}]},
		{"text": "done"}]}`)
	r = troupe(t, repo, testEnv(t), "run", "--json", "--model", model, "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, `mcp server "t" not started`) || !strings.Contains(r.stderr, "trusted_projects") {
		t.Errorf("no line about the untrusted project's server:\n%s", r.stderr)
	}
	if res := toolResults(t, envelopes(t, r.stdout)); len(res) != 1 || !res[0].IsError {
		t.Errorf("a call to the server's tool: %+v", res)
	}

	r = troupe(t, repo, append(testEnv(t), "HOME="+trustedHome(t, repo)), "run", "--json", "--model", model, "go")
	if res := toolResults(t, envelopes(t, r.stdout)); r.code != 0 || len(res) != 1 || res[0].Output != "echo: hi" {
		t.Errorf("trusted: exit %d results %+v\n%s", r.code, res, r.stderr)
	}
}

// TestRunWritesThroughTheFilesystemMCPServer: the reference filesystem server, confined by the
// sandbox with the workspace writable, reads and writes the project for the model.
func TestRunWritesThroughTheFilesystemMCPServer(t *testing.T) {
	node, script := mcptest.Reference(t, "server-filesystem")
	repo := newRepo(t, map[string]string{"README.md": "FS-MARKER\n"})
	writeMCPJSON(t, repo, map[string]any{"fs": map[string]any{"command": node, "args": []string{script, repo}}})
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "mcp__fs__read_text_file", "args": {"path": "`+repo+`/README.md"}}]},
		{"expect": "FS-MARKER", "tool_calls": [{"name": "mcp__fs__write_file", "args": {"path": "`+repo+`/out.txt", "content": "written by mcp\n"}}]},
		{"text": "done"}]}`)
	r := troupe(t, repo, append(testEnv(t), "HOME="+trustedHome(t, repo)), "run", "--json", "--mode", "yolo", "--model", model, "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	res := toolResults(t, envelopes(t, r.stdout))
	if len(res) != 2 || res[0].IsError || res[1].IsError {
		t.Fatalf("results: %+v", res)
	}
	if data, err := os.ReadFile(filepath.Join(repo, "out.txt")); err != nil || string(data) != "written by mcp\n" {
		t.Errorf("out.txt: %q %v", data, err)
	}
}

// TestMCPCommandEditsConfig: troupe mcp add writes .mcp.json (project) or the user's mcp.json,
// list shows what will run (an untrusted project's servers with a warning), remove takes one
// out; mistakes are usage errors of one line.
func TestMCPCommandEditsConfig(t *testing.T) {
	repo := newRepo(t, nil)
	home := t.TempDir()
	env := append(testEnv(t), "HOME="+home)
	if r := troupe(t, repo, env, "mcp", "add", "-e", "TOKEN=x", "gh", "npx", "-y", "gh-mcp", "--verbose"); r.code != 0 {
		t.Fatalf("add: %d %s", r.code, r.stderr)
	}
	if r := troupe(t, repo, env, "mcp", "add", "--scope", "user", "--transport", "http", "-H", "Authorization: Bearer t", "web", "https://example.test/mcp"); r.code != 0 {
		t.Fatalf("add user: %d %s", r.code, r.stderr)
	}
	data, _ := os.ReadFile(filepath.Join(repo, ".mcp.json"))
	var file struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
			Env     map[string]string
		}
	}
	if err := json.Unmarshal(data, &file); err != nil || file.MCPServers["gh"].Command != "npx" ||
		strings.Join(file.MCPServers["gh"].Args, " ") != "-y gh-mcp --verbose" || file.MCPServers["gh"].Env["TOKEN"] != "x" {
		t.Fatalf(".mcp.json: %s (%v)", data, err)
	}
	r := troupe(t, repo, env, "mcp", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "web") || strings.Contains(r.stdout, "gh-mcp") || !strings.Contains(r.stderr, `mcp server "gh" not started`) {
		t.Errorf("list (untrusted): %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = troupe(t, repo, append(testEnv(t), "HOME="+trustedHome(t, repo)), "mcp", "list")
	if !strings.Contains(r.stdout, "npx -y gh-mcp --verbose") {
		t.Errorf("list (trusted): %s %s", r.stdout, r.stderr)
	}
	if r := troupe(t, repo, env, "mcp", "remove", "gh"); r.code != 0 {
		t.Fatalf("remove: %d %s", r.code, r.stderr)
	}
	if r := troupe(t, repo, env, "mcp", "remove", "gh"); r.code != 2 || !strings.Contains(r.stderr, `no MCP server "gh"`) {
		t.Errorf("remove again: %d %s", r.code, r.stderr)
	}
	if r := troupe(t, repo, env, "mcp", "add", "--transport", "ws", "x", "y"); r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Errorf("bad transport: %d %q", r.code, r.stderr)
	}
}
