package mcpcli

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/config"
)

func TestAddRequestServer(t *testing.T) {
	for _, c := range []struct {
		name  string
		req   AddRequest
		want  config.MCPServer
		usage string
	}{
		{"stdio", AddRequest{Args: []string{"fs", "npx", "-y", "srv"}, Env: []string{"A = 1"}},
			config.MCPServer{Name: "fs", Command: "npx", Args: []string{"-y", "srv"}, Env: map[string]string{"A": "1"}}, ""},
		{"http", AddRequest{Transport: "http", Args: []string{"web", "http://x/mcp"}, Headers: []string{"Authorization: Bearer t"}},
			config.MCPServer{Name: "web", Type: "http", URL: "http://x/mcp", Headers: map[string]string{"Authorization": "Bearer t"}}, ""},
		{"http with extra args", AddRequest{Transport: "sse", Args: []string{"web", "http://x", "more"}}, config.MCPServer{}, "takes NAME URL only"},
		{"unknown transport", AddRequest{Transport: "ws", Args: []string{"a", "b"}}, config.MCPServer{}, `--transport "ws"`},
		{"env without =", AddRequest{Args: []string{"a", "b"}, Env: []string{"A"}}, config.MCPServer{}, `--env "A": write KEY=VALUE`},
		{"header without name", AddRequest{Transport: "http", Args: []string{"a", "u"}, Headers: []string{": v"}}, config.MCPServer{}, "--header"},
	} {
		got, err := c.req.Server()
		if c.usage != "" {
			var ce *clierr.Error
			if !errors.As(err, &ce) || ce.Code != clierr.Usage || !strings.Contains(ce.Msg, c.usage) {
				t.Errorf("%s: %v, want a usage error with %q", c.name, err, c.usage)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}
}

func TestScopeFile(t *testing.T) {
	env := func(k string) string { return map[string]string{"XDG_CONFIG_HOME": "/cfg"}[k] }
	if got, err := ScopeFile("project", "/repo", env); err != nil || got != filepath.Join("/repo", config.MCPJSONFile) {
		t.Errorf("project: %q, %v", got, err)
	}
	if got, err := ScopeFile("user", "", env); err != nil || !strings.HasPrefix(got, "/cfg") {
		t.Errorf("user: %q, %v", got, err)
	}
	if _, err := ScopeFile("user", "", func(string) string { return "" }); err == nil {
		t.Error("user scope without a config dir: no error")
	}
	if _, err := ScopeFile("global", "", env); err == nil || !strings.Contains(err.Error(), "use project or user") {
		t.Errorf("unknown scope: %v", err)
	}
}
