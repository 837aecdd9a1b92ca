package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPServersFromTOMLAndJSON: servers come from the user's config always and from the
// project (troupe.toml and .mcp.json) only when the project is trusted; an untrusted project's
// servers are one warning each naming trusted_projects; ${VAR} expands.
func TestMCPServersFromTOMLAndJSON(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, "troupe.toml")
	os.WriteFile(project, []byte("[mcp.servers.proj]\ncommand = \"proj-server\"\n"), 0o644)
	jsonPath := filepath.Join(dir, MCPJSONFile)
	os.WriteFile(jsonPath, []byte(`{"mcpServers": {
  "gh": {"command": "npx", "args": ["-y", "gh-mcp", "--token=${TOKEN}"], "env": {"HOME_DIR": "${NOPE:-/fallback}"}},
  "web": {"type": "http", "url": "https://example.test/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
}}`), 0o644)
	getenv := envOf(map[string]string{"TOKEN": "s3cret"})
	for _, trusted := range []bool{false, true} {
		user := filepath.Join(t.TempDir(), "config.toml")
		text := "[mcp.servers.mine]\ncommand = \"mine\"\nrisk = \"read\"\n"
		if trusted {
			text = "trusted_projects = [\"" + dir + "\"]\n" + text
		}
		os.WriteFile(user, []byte(text), 0o644)
		c, err := Load(LoadOptions{UserFile: user, ProjectFile: project, Getenv: getenv})
		if err != nil {
			t.Fatal(err)
		}
		js, err := LoadMCPJSON(jsonPath, getenv)
		if err != nil {
			t.Fatal(err)
		}
		servers, warnings := c.MCPServers(project, js)
		var names []string
		for _, s := range servers {
			names = append(names, s.Name)
		}
		if !trusted {
			if strings.Join(names, ",") != "mine" || len(warnings) != 3 || !strings.Contains(warnings[0], "trusted_projects") {
				t.Errorf("untrusted: servers %v warnings %q", names, warnings)
			}
			continue
		}
		if strings.Join(names, ",") != "gh,mine,proj,web" || len(warnings) != 0 {
			t.Fatalf("trusted: servers %v warnings %q", names, warnings)
		}
		gh, web := servers[0], servers[3]
		if gh.Args[2] != "--token=s3cret" || gh.Env["HOME_DIR"] != "/fallback" || gh.Transport() != MCPStdio {
			t.Errorf("gh not expanded: %+v", gh)
		}
		if web.Transport() != MCPHTTP || web.Headers["Authorization"] != "Bearer s3cret" {
			t.Errorf("web: %+v", web)
		}
	}
}

// TestMCPJSONSyntaxErrorIsOneLine: a broken .mcp.json is one line naming the file and line.
func TestMCPJSONSyntaxErrorIsOneLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), MCPJSONFile)
	os.WriteFile(path, []byte("{\n  \"mcpServers\": {\n    \"x\": {\"command\": \"a\",}\n  }\n}\n"), 0o644)
	_, err := LoadMCPJSON(path, envOf(nil))
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), path+": line 3") {
		t.Fatalf("err = %v", err)
	}
}

// TestMCPServerChecks: a bad server setting is one line naming the server and the fix.
func TestMCPServerChecks(t *testing.T) {
	for _, tc := range []struct {
		s    MCPServer
		want string
	}{
		{MCPServer{Name: "a"}, "no command"},
		{MCPServer{Name: "a", Type: "http", URL: "ftp://x"}, "must start with http"},
		{MCPServer{Name: "a", Type: "ws", URL: "http://x"}, "unknown type"},
		{MCPServer{Name: "a b", Command: "x"}, "name must be"},
		{MCPServer{Name: "a", Command: "x", Risk: "high"}, "unknown risk"},
		{MCPServer{Name: "a", Command: "x", Start: "now"}, "unknown start"},
	} {
		err := tc.s.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.s, err, tc.want)
		}
	}
	if err := (MCPServer{Name: "ok", URL: "https://x/mcp"}).Check(); err != nil {
		t.Errorf("url without type: %v", err)
	}
}

// TestProjectMayNotAllowWebHosts: [web] allow_hosts in a project file would let web_fetch reach
// the user's own network: ignored with a warning unless the project is trusted.
func TestProjectMayNotAllowWebHosts(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, "troupe.toml")
	os.WriteFile(project, []byte("[web]\nallow_hosts = [\"169.254.169.254\"]\n"), 0o644)
	c, err := Load(LoadOptions{ProjectFile: project, Getenv: envOf(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Web.AllowHosts) != 0 || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "web.allow_hosts") {
		t.Errorf("untrusted: hosts %q warnings %q", c.Web.AllowHosts, c.Warnings)
	}
	user := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(user, []byte("trusted_projects = [\""+dir+"\"]\n"), 0o644)
	if c, _ := Load(LoadOptions{UserFile: user, ProjectFile: project, Getenv: envOf(nil)}); len(c.Web.AllowHosts) != 1 {
		t.Errorf("trusted: hosts %q", c.Web.AllowHosts)
	}
}
