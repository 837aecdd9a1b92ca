package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// UserMCPJSONFile is the user's own MCP servers, in the user config dir, in .mcp.json's shape:
// `troupe mcp add --scope user` writes it; its servers start in every project.
const UserMCPJSONFile = "mcp.json"

// LoadUserMCPJSON reads the user's mcp.json: like LoadMCPJSON, but the servers are the
// user's, so they start without the project being trusted.
func LoadUserMCPJSON(path string, getenv func(string) string) ([]MCPServer, error) {
	servers, err := LoadMCPJSON(path, getenv)
	for i := range servers {
		servers[i].Project = false
	}
	return servers, err
}

// AddMCPJSON writes s into the mcpServers of the JSON file at path (created if missing),
// keeping the file's other servers and keys; a server of the same name is replaced.
func AddMCPJSON(path string, s MCPServer) error {
	s.Source = path
	if err := s.Check(); err != nil {
		return err
	}
	entry := mcpJSONServer{Type: s.Type, Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd, URL: s.URL, Headers: s.Headers}
	raw, err := json.Marshal(entry)
	if err != nil {
		return err
	}
	return editMCPJSON(path, func(servers map[string]json.RawMessage) bool {
		servers[s.Name] = raw
		return true
	})
}

// RemoveMCPJSON removes the server name from the JSON file at path; found says it was there.
func RemoveMCPJSON(path, name string) (found bool, err error) {
	err = editMCPJSON(path, func(servers map[string]json.RawMessage) bool {
		_, found = servers[name]
		delete(servers, name)
		return found
	})
	return found, err
}

func editMCPJSON(path string, edit func(map[string]json.RawMessage) bool) error {
	file := map[string]json.RawMessage{}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(data, &file); err != nil {
			return fmt.Errorf("%s: %s; fix the JSON first", path, jsonErrorAt(data, err))
		}
	case errors.Is(err, fs.ErrNotExist): // an empty file: add creates it
	default:
		return err
	}
	servers := map[string]json.RawMessage{}
	if raw, ok := file["mcpServers"]; ok {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return fmt.Errorf("%s: mcpServers is not an object: %v", path, err)
		}
	}
	if !edit(servers) {
		return nil
	}
	raw, err := json.Marshal(servers)
	if err != nil {
		return err
	}
	file["mcpServers"] = raw
	out, err := json.MarshalIndent(file, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(out, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
