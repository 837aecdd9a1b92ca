// Package config loads troupe's layered configuration. Each layer overrides the one below it:
//
//	defaults < user file < project file < environment < command-line flags
//
// The user file is $XDG_CONFIG_HOME/troupe/config.toml (or ~/.config/troupe/config.toml), the
// project file is troupe.toml at the project root, the environment is TROUPE_MODEL,
// TROUPE_BASE_URL, TROUPE_MODE, TROUPE_SANDBOX, TROUPE_NATS (and TROUPE_NATS_* for [bus],
// TROUPE_PROJECT), and the CLI applies its flags
// with Apply. A field a layer does not set keeps the value from below. Lists of rules
// ([permissions], env.pass) accumulate across files instead, like settings in Claude Code: a
// project adds rules to the user's, and a deny rule always wins over an allow, so nothing
// needs to be removed. A project file may narrow permissions but never widen them (see
// narrowProject): the repository's author wrote it, not the user.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Config is the resolved configuration.
type Config struct {
	Model   string `toml:"model"`    // provider/model, e.g. "openai/gpt-4o-mini"
	BaseURL string `toml:"base_url"` // an OpenAI-compatible endpoint, for local servers
	Mode    string `toml:"mode"`     // plan, ask, auto-edit or yolo
	Sandbox string `toml:"sandbox"`  // auto, landlock, bwrap or off (or [sandbox] mode)
	NATS    string `toml:"nats"`     // an external bus to join instead of the embedded one

	// SandboxDenyRead and SandboxAllowRead are [sandbox] deny_read and allow_read: paths (absolute
	// or ~/…) hidden from commands beside troupe's credential list, or taken off it.
	SandboxDenyRead  []string `toml:"-" key:"sandbox.deny_read"`
	SandboxAllowRead []string `toml:"-" key:"sandbox.allow_read"`

	// TrustedProjects are project roots whose troupe.toml may widen permissions (user config
	// only; see narrowProject).
	TrustedProjects []string `toml:"trusted_projects"`

	Permissions struct {
		Allow []string `toml:"allow"` // rules such as "bash(git status*)" or "read"
		Ask   []string `toml:"ask"`
		Deny  []string `toml:"deny"`
	} `toml:"permissions"`

	// Done is the definition of done: a final answer is accepted only once Check passes.
	Done struct {
		Check         string `toml:"check"`           // a command that must pass before a task is done
		CheckTimeoutS int    `toml:"check_timeout_s"` // seconds the check may run; 0: 600
		MaxRefusals   int    `toml:"max_refusals"`    // final answers refused before the run fails
	} `toml:"done"`

	// Context is how the model-visible context is kept (docs/DESIGN-NOTES.md "Context").
	Context struct {
		Window  int    `toml:"window"`   // tokens; 0 means the model's known window
		IdleGap string `toml:"idle_gap"` // a duration ("30m") after which old outputs become previews, or "off"
	} `toml:"context"`

	// Provider tunes model calls.
	Provider struct {
		// IdleTimeoutS is how many seconds a reply stream, once begun, may send nothing before
		// the call fails and is retried; 0: 90.
		IdleTimeoutS int `toml:"idle_timeout_s"`
	} `toml:"provider"`

	Env struct {
		Pass []string          `toml:"pass"` // variables commands may see from troupe's env
		Set  map[string]string `toml:"set"`  // variables commands see with these values
	} `toml:"env"`

	Agents struct {
		MaxDepth   int `toml:"max_depth"`   // how deep subagents may nest
		MaxRunning int `toml:"max_running"` // subagents of one session running at once; more queue
		// Placement is where subagents run: local, workers or auto (Placements).
		Placement string `toml:"placement"`
	} `toml:"agents"`

	// Web configures web_fetch and web_search.
	Web struct {
		// AllowHosts are hosts web_fetch may reach even where they resolve to loopback,
		// private or link-local addresses (user config, or a trusted project).
		AllowHosts []string `toml:"allow_hosts"`
		// SearchProvider turns web_search on: "brave", "tavily", "searxng" or "mcp" (an MCP
		// server's search tool: SearchServer and SearchTool) ("": off).
		SearchProvider string `toml:"search_provider"`
		// SearchURL is the search API's address; "" is the provider's public one (searxng
		// needs it).
		SearchURL string `toml:"search_url"`
		// SearchKeyEnv names the variable holding the API key; "" is BRAVE_API_KEY or
		// TAVILY_API_KEY.
		SearchKeyEnv string `toml:"search_key_env"`
		// SearchServer and SearchTool name the MCP server and its tool that serve web_search
		// when SearchProvider is "mcp".
		SearchServer string `toml:"search_server"`
		SearchTool   string `toml:"search_tool"`
	} `toml:"web"`

	// Lessons is the learning layer (docs/ARCHITECTURE.md, "The learning layer").
	Lessons struct {
		Enabled  bool `toml:"enabled"`   // learn lessons and hand them to sessions
		MaxBytes int  `toml:"max_bytes"` // the bound of the lessons' state block in a request
	} `toml:"lessons"`

	// Bus authenticates to an external NATS server (config/nats.go); Project names the
	// project's subjects.
	Bus     Bus     `toml:"bus"`
	Project Project `toml:"project"`
	Workers Workers `toml:"workers"`

	// MCP configures MCP servers ([mcp.servers.NAME]; see MCPServers for which start).
	MCP MCP `toml:"mcp"`

	// Hooks are commands run at points of the loop ([[hooks.EVENT]], by event; see HookList
	// for which run). They accumulate across files, the user's first.
	Hooks map[string][]HookSpec `toml:"hooks"`

	// Warnings are one-line notices for the user: project settings ignored because they
	// would widen permissions, each saying how to allow it.
	Warnings []string `toml:"-"`

	// Sources lists where settings came from, lowest layer first: each file loaded, then
	// "env TROUPE_…" for each environment variable used, then "flag --…" for each flag applied.
	Sources []string `toml:"-"`

	origin map[string]string // field name → source that set it, for Validate's messages
}

// Defaults returns the configuration before any layer is applied.
func Defaults() *Config {
	c := &Config{Mode: "ask", Sandbox: "auto", origin: map[string]string{}}
	c.Done.MaxRefusals = 3
	c.Agents.MaxDepth = 3
	c.Agents.MaxRunning = 8
	c.Agents.Placement = PlacementLocal
	c.Lessons.Enabled, c.Lessons.MaxBytes = true, 1600
	return c
}

// LoadOptions says where Load looks. An empty file name skips that layer; a nil Getenv means
// os.Getenv.
type LoadOptions struct {
	UserFile    string
	ProjectFile string
	Getenv      func(string) string
}

// Load resolves defaults, the user file, the project file and the environment, in that order.
// A missing file is skipped; a malformed one is an error naming the file and line. Load does
// not validate: apply flags first, then call Validate.
func Load(opt LoadOptions) (*Config, error) {
	getenv := opt.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	c := Defaults()
	for _, path := range []string{opt.UserFile, opt.ProjectFile} {
		if path == "" {
			continue
		}
		l, err := readLayer(path)
		if err != nil {
			return nil, err
		}
		if l != nil && path == opt.ProjectFile && !c.trusts(path) {
			c.Warnings = append(c.Warnings, l.narrowProject(c, path)...)
		}
		if l != nil {
			l.markProjectServers(path == opt.ProjectFile)
			l.markProjectHooks(path == opt.ProjectFile, path)
			l.applyTo(c, path)
			c.Sources = append(c.Sources, path)
		}
	}
	c.applyEnv(getenv)
	return c, nil
}

// UserDir is the user's troupe config directory (XDG_CONFIG_HOME/troupe or
// ~/.config/troupe), or "" when neither is known.
func UserDir(getenv func(string) string) string {
	if userFile, _ := DefaultPaths("", getenv); userFile != "" {
		return filepath.Dir(userFile)
	}
	return ""
}

// DefaultPaths returns where the user and project files live. The user file is empty when
// neither XDG_CONFIG_HOME nor HOME is set.
func DefaultPaths(projectRoot string, getenv func(string) string) (userFile, projectFile string) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if xdg := getenv("XDG_CONFIG_HOME"); xdg != "" {
		userFile = filepath.Join(xdg, "troupe", "config.toml")
	} else if home := getenv("HOME"); home != "" {
		userFile = filepath.Join(home, ".config", "troupe", "config.toml")
	}
	return userFile, filepath.Join(projectRoot, "troupe.toml")
}

// setString sets *dst to v, recording where it came from.
func (c *Config) setString(field string, dst *string, v, source string) {
	*dst = v
	c.setOrigin(field, source)
}

func (c *Config) setOrigin(field, source string) {
	if c.origin == nil {
		c.origin = map[string]string{}
	}
	c.origin[field] = source
}

// addOrigin records one more layer that added to a list ("a + b").
func (c *Config) addOrigin(field, source string) {
	if prev, ok := c.origin[field]; ok {
		source = prev + " + " + source
	}
	c.setOrigin(field, source)
}

// Origin says which layer set field (a Config field name such as "Mode"): a file path,
// "env TROUPE_…", "flag --…", or "default".
func (c *Config) Origin(field string) string {
	if src, ok := c.origin[field]; ok {
		return src
	}
	return "default"
}

// IdleGapS is [context] idle_gap in seconds, as a session takes it: 0 for the default (unset),
// -1 for "off", else the duration. An unparsable or non-positive duration is an error.
func (c *Config) IdleGapS() (int, error) {
	v := strings.TrimSpace(c.Context.IdleGap)
	switch strings.ToLower(v) {
	case "":
		return 0, nil
	case "off":
		return -1, nil
	}
	d, err := time.ParseDuration(v)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q is not a duration such as \"30m\" or \"2h\", nor \"off\"", v)
	case d < time.Second:
		return 0, fmt.Errorf("%q is under a second; use \"off\" to turn the idle-gap previews off", v)
	}
	return int(d / time.Second), nil
}
