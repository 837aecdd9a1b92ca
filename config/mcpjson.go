package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// MCPJSONFile is the project file other tools (Claude Code, Cursor) write their MCP servers
// in; troupe reads the same file so a project configured for them works here.
const MCPJSONFile = ".mcp.json"

// mcpJSONServer is one entry of .mcp.json's mcpServers, as those tools write it.
type mcpJSONServer struct {
	Type     string            `json:"type"`
	Command  string            `json:"command"`
	Args     []string          `json:"args"`
	Env      map[string]string `json:"env"`
	Cwd      string            `json:"cwd"`
	URL      string            `json:"url"`
	Headers  map[string]string `json:"headers"`
	Disabled bool              `json:"disabled"`
}

// LoadMCPJSON reads the mcpServers of the .mcp.json at path, expanding ${VAR} and
// ${VAR:-default} in commands, arguments, env, cwd, urls and headers with getenv. A missing
// file is no servers. A file that does not parse is an error of one line naming the file,
// the line and what to fix; the caller shows it and goes on without the file's servers.
func LoadMCPJSON(path string, getenv func(string) string) ([]MCPServer, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var file struct {
		MCPServers map[string]mcpJSONServer `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("%s: %s; fix the JSON (its MCP servers are not started)", path, jsonErrorAt(data, err))
	}
	names := make([]string, 0, len(file.MCPServers))
	for n := range file.MCPServers {
		names = append(names, n)
	}
	sort.Strings(names)
	expand := func(s string) string { return expandVars(s, getenv) }
	var out []MCPServer
	for _, n := range names {
		j := file.MCPServers[n]
		s := MCPServer{Name: n, Type: j.Type, Command: expand(j.Command), Cwd: expand(j.Cwd), URL: expand(j.URL),
			Disabled: j.Disabled, Source: path, Project: true}
		for _, a := range j.Args {
			s.Args = append(s.Args, expand(a))
		}
		s.Env = expandMap(j.Env, expand)
		s.Headers = expandMap(j.Headers, expand)
		if s.Cwd != "" && !filepath.IsAbs(s.Cwd) {
			s.Cwd = filepath.Join(filepath.Dir(path), s.Cwd)
		}
		out = append(out, s)
	}
	return out, nil
}

func expandMap(m map[string]string, expand func(string) string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = expand(v)
	}
	return out
}

var varRef = lazyre.New(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`)

// expandVars replaces ${VAR} with the variable's value and ${VAR:-default} with the value, or
// default when the variable is unset or empty, as Claude Code does in .mcp.json.
func expandVars(s string, getenv func(string) string) string {
	return varRef.ReplaceAllStringFunc(s, func(ref string) string {
		m := varRef.FindStringSubmatch(ref)
		if v := getenv(m[1]); v != "" || m[2] == "" {
			return v
		}
		return m[3]
	})
}

// jsonErrorAt says where in data a JSON error is: "line 3: invalid character ...".
func jsonErrorAt(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	offset := int64(-1)
	switch {
	case errors.As(err, &syn):
		offset = syn.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
	}
	if offset < 0 {
		return err.Error()
	}
	line := 1 + bytes.Count(data[:min(int(offset), len(data))], []byte{'\n'})
	return fmt.Sprintf("line %d: %v", line, err)
}
