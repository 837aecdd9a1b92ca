package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// layer is one configuration file as written: pointers and nil slices tell "not set" apart
// from a zero value, so a file only overrides what it mentions. Its toml tags must match
// Config's.
type layer struct {
	Model   *string         `toml:"model"`
	BaseURL *string         `toml:"base_url"`
	Mode    *string         `toml:"mode"`
	Sandbox *sandboxSetting `toml:"sandbox"`
	NATS    *string         `toml:"nats"`

	TrustedProjects []string `toml:"trusted_projects"`

	Permissions struct {
		Allow []string `toml:"allow"`
		Ask   []string `toml:"ask"`
		Deny  []string `toml:"deny"`
	} `toml:"permissions"`

	Done struct {
		Check         *string `toml:"check"`
		CheckTimeoutS *int    `toml:"check_timeout_s"`
		MaxRefusals   *int    `toml:"max_refusals"`
	} `toml:"done"`

	Context struct {
		Window  *int    `toml:"window"`
		IdleGap *string `toml:"idle_gap"`
	} `toml:"context"`

	Provider struct {
		IdleTimeoutS *int `toml:"idle_timeout_s"`
	} `toml:"provider"`

	Env struct {
		Pass []string          `toml:"pass"`
		Set  map[string]string `toml:"set"`
	} `toml:"env"`

	Agents struct {
		MaxDepth   *int    `toml:"max_depth"`
		MaxRunning *int    `toml:"max_running"`
		Placement  *string `toml:"placement"`
	} `toml:"agents"`

	Web struct {
		AllowHosts     []string `toml:"allow_hosts"`
		SearchProvider *string  `toml:"search_provider"`
		SearchURL      *string  `toml:"search_url"`
		SearchKeyEnv   *string  `toml:"search_key_env"`
		SearchServer   *string  `toml:"search_server"`
		SearchTool     *string  `toml:"search_tool"`
	} `toml:"web"`

	Lessons struct {
		Enabled  *bool `toml:"enabled"`
		MaxBytes *int  `toml:"max_bytes"`
	} `toml:"lessons"`

	Bus     busLayer     `toml:"bus"`
	Project projectLayer `toml:"project"`
	Workers workersLayer `toml:"workers"`

	MCP MCP `toml:"mcp"`

	Hooks map[string][]HookSpec `toml:"hooks"`
}

// readLayer reads and strictly decodes the file at path. It returns nil, nil if there is no
// such file.
func readLayer(path string) (*layer, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	var l layer
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields().EnableUnmarshalerInterface()
	if err := dec.Decode(&l); err != nil {
		return nil, decodeError(path, err)
	}
	return &l, nil
}

// decodeError turns go-toml's errors into "path:line: message" lines, naming the nearest known
// key for each key troupe does not know.
func decodeError(path string, err error) error {
	var missing *toml.StrictMissingError
	if errors.As(err, &missing) && len(missing.Errors) > 0 {
		var lines []error
		for i := range missing.Errors {
			e := &missing.Errors[i]
			row, _ := e.Position()
			msg := fmt.Sprintf("unknown key %q", joinKey(e.Key()))
			if near := nearestKey(e.Key()); near != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", near)
			}
			lines = append(lines, fmt.Errorf("%s:%d: %s", path, row, msg))
		}
		return errors.Join(lines...)
	}
	var decode *toml.DecodeError
	if errors.As(err, &decode) {
		row, _ := decode.Position()
		return fmt.Errorf("%s:%d: %s", path, row, decodeMessage(decode))
	}
	return fmt.Errorf("%s: %w", path, err)
}

// typeMismatch matches go-toml's type errors, which name Go types rather than TOML ones.
var typeMismatch = lazyre.New(`^toml: cannot decode TOML (\w+) into (?:struct field .* of type )?(.+)$`)

// decodeMessage says what went wrong in TOML terms: "agents.max_depth: want an integer, got a
// TOML string".
func decodeMessage(e *toml.DecodeError) string {
	msg := e.Error()
	if m := typeMismatch.FindStringSubmatch(msg); m != nil {
		msg = fmt.Sprintf("want %s, got a TOML %s", tomlKind(m[2]), m[1])
	} else {
		msg = strings.TrimPrefix(msg, "toml: ")
	}
	if key := e.Key(); len(key) > 0 {
		return joinKey(key) + ": " + msg
	}
	return msg
}

// tomlKind names a Go type of a layer field the way a TOML author thinks of it.
func tomlKind(goType string) string {
	switch {
	case goType == "string":
		return "a string"
	case goType == "int":
		return "an integer"
	case goType == "[]string":
		return "a list of strings"
	case strings.HasPrefix(goType, "map["), strings.HasPrefix(goType, "struct"):
		return "a table"
	}
	return goType
}

// sandboxMode is the sandbox mode the layer sets, or nil.
func (l *layer) sandboxMode() *string {
	if l.Sandbox == nil {
		return nil
	}
	return l.Sandbox.Mode
}

// applyTo copies what the layer sets onto c, recording path as the source.
func (l *layer) applyTo(c *Config, path string) {
	for _, s := range []struct {
		field string
		from  *string
		to    *string
	}{
		{"Model", l.Model, &c.Model},
		{"BaseURL", l.BaseURL, &c.BaseURL},
		{"Mode", l.Mode, &c.Mode},
		{"Sandbox", l.sandboxMode(), &c.Sandbox},
		{"NATS", l.NATS, &c.NATS},
		{"Done.Check", l.Done.Check, &c.Done.Check},
		{"Context.IdleGap", l.Context.IdleGap, &c.Context.IdleGap},
		{"Agents.Placement", l.Agents.Placement, &c.Agents.Placement},
		{"Web.SearchProvider", l.Web.SearchProvider, &c.Web.SearchProvider},
		{"Web.SearchURL", l.Web.SearchURL, &c.Web.SearchURL},
		{"Web.SearchKeyEnv", l.Web.SearchKeyEnv, &c.Web.SearchKeyEnv},
		{"Web.SearchServer", l.Web.SearchServer, &c.Web.SearchServer},
		{"Web.SearchTool", l.Web.SearchTool, &c.Web.SearchTool},
	} {
		if s.from != nil {
			c.setString(s.field, s.to, *s.from, path)
		}
	}
	for _, n := range []struct {
		field string
		from  *int
		to    *int
	}{
		{"Context.Window", l.Context.Window, &c.Context.Window},
		{"Done.CheckTimeoutS", l.Done.CheckTimeoutS, &c.Done.CheckTimeoutS},
		{"Done.MaxRefusals", l.Done.MaxRefusals, &c.Done.MaxRefusals},
		{"Provider.IdleTimeoutS", l.Provider.IdleTimeoutS, &c.Provider.IdleTimeoutS},
		{"Agents.MaxDepth", l.Agents.MaxDepth, &c.Agents.MaxDepth},
		{"Agents.MaxRunning", l.Agents.MaxRunning, &c.Agents.MaxRunning},
		{"Lessons.MaxBytes", l.Lessons.MaxBytes, &c.Lessons.MaxBytes},
	} {
		if n.from != nil {
			*n.to = *n.from
			c.setOrigin(n.field, path)
		}
	}
	if l.Lessons.Enabled != nil {
		c.Lessons.Enabled = *l.Lessons.Enabled
		c.setOrigin("Lessons.Enabled", path)
	}
	if len(l.MCP.Servers) > 0 {
		c.addOrigin("MCP.Servers", path)
	}
	for name, s := range l.MCP.Servers {
		if c.MCP.Servers == nil {
			c.MCP.Servers = map[string]MCPServer{}
		}
		s.Source = path
		c.MCP.Servers[name] = s
	}
	for _, list := range []struct {
		field string
		dst   *[]string
		add   []string
	}{
		{"TrustedProjects", &c.TrustedProjects, l.TrustedProjects},
		{"Web.AllowHosts", &c.Web.AllowHosts, l.Web.AllowHosts},
		{"Permissions.Allow", &c.Permissions.Allow, l.Permissions.Allow},
		{"Permissions.Ask", &c.Permissions.Ask, l.Permissions.Ask},
		{"Permissions.Deny", &c.Permissions.Deny, l.Permissions.Deny},
		{"Env.Pass", &c.Env.Pass, l.Env.Pass},
	} {
		c.accumulate(list.field, list.dst, list.add, path)
	}
	if l.Sandbox != nil {
		c.accumulate("SandboxDenyRead", &c.SandboxDenyRead, l.Sandbox.DenyRead, path)
		c.accumulate("SandboxAllowRead", &c.SandboxAllowRead, l.Sandbox.AllowRead, path)
	}
	l.applyHooks(c, path)
	l.applyBus(c, path)
	if len(l.Env.Set) > 0 {
		c.addOrigin("Env.Set", path)
	}
	for k, v := range l.Env.Set {
		if c.Env.Set == nil {
			c.Env.Set = map[string]string{}
		}
		c.Env.Set[k] = v
	}
}

// accumulate adds a layer's items to a list that gathers across files, recording each file
// that added to it.
func (c *Config) accumulate(field string, dst *[]string, add []string, path string) {
	if len(add) == 0 {
		return
	}
	*dst = appendNew(*dst, add)
	c.addOrigin(field, path)
}

// appendNew appends the items of add that list does not hold yet.
func appendNew(list, add []string) []string {
	for _, s := range add {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}
