package config

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(c *Config)
		want   string // substring of the error; "" means valid
	}{
		{"defaults", func(c *Config) {}, ""},
		{"every mode", func(c *Config) { c.Mode = "auto-edit" }, ""},
		{"bad mode", func(c *Config) { c.Mode = "fast" }, `mode (from default): "fast" is not a mode; want one of plan, ask, auto-edit, yolo`},
		{"bad sandbox", func(c *Config) { c.Sandbox = "docker" }, `"docker" is not a sandbox`},
		{"base url without scheme", func(c *Config) { c.BaseURL = "localhost:11434" }, "base_url"},
		{"good base url", func(c *Config) { c.BaseURL = "http://127.0.0.1:8080/v1" }, ""},
		{"nats list", func(c *Config) { c.NATS = "nats://a:4222, nats://b:4222" }, ""},
		{"bad nats", func(c *Config) { c.NATS = "just-a-name" }, "nats"},
		{"negative window", func(c *Config) { c.Context.Window = -1 }, "context.window (from default): -1 is negative"},
		{"a window", func(c *Config) { c.Context.Window = 200000 }, ""},
		{"negative refusals", func(c *Config) { c.Done.MaxRefusals = -1 }, "done.max_refusals"},
		{"no refusals", func(c *Config) { c.Done.MaxRefusals = 0 }, "done.max_refusals (from default): 0: at least 1"},
		{"negative check timeout", func(c *Config) { c.Done.CheckTimeoutS = -1 }, "done.check_timeout_s"},
		{"a check", func(c *Config) { c.Done.Check, c.Done.CheckTimeoutS = "go test ./...", 60 }, ""},
		{"idle gap off", func(c *Config) { c.Context.IdleGap = "off" }, ""},
		{"idle gap", func(c *Config) { c.Context.IdleGap = "2h" }, ""},
		{"bad idle gap", func(c *Config) { c.Context.IdleGap = "later" }, `context.idle_gap (from default): "later" is not a duration`},
		{"no subagents is fine", func(c *Config) { c.Agents.MaxDepth = 0 }, ""},
		{"nothing may run", func(c *Config) { c.Agents.MaxRunning = 0 }, "agents.max_running"},
		{"good rules", func(c *Config) { c.Permissions.Allow = []string{"read", "bash(git status*)", "mcp__x__y"} }, ""},
		{"rule without tool", func(c *Config) { c.Permissions.Deny = []string{"(rm*)"} }, "permissions.deny"},
		{"unclosed rule", func(c *Config) { c.Permissions.Ask = []string{"bash(git push"} }, "no closing ')'"},
		{"bad pass name", func(c *Config) { c.Env.Pass = []string{"A=B"} }, "env.pass"},
		{"bad set name", func(c *Config) { c.Env.Set = map[string]string{"1X": "v"} }, "env.set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Defaults()
			tt.change(c)
			err := c.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Validate = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestValidateNamesTheSource checks a bad value is traced to the layer that set it.
func TestValidateNamesTheSource(t *testing.T) {
	path := writeFile(t, "troupe.toml", "mode = \"fast\"\nsandbox = \"docker\"\n")
	c, err := Load(LoadOptions{ProjectFile: path, Getenv: envOf(map[string]string{"TROUPE_SANDBOX": "chroot"})})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	err = c.Validate()
	if err == nil {
		t.Fatal("Validate accepted mode fast")
	}
	for _, want := range []string{`mode (from ` + path + `): "fast"`, `sandbox (from env TROUPE_SANDBOX): "chroot"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// TestValidateNamesFileKeyAndFlag traces bad long-horizon values to the file and key, or the
// flag, that set them.
func TestValidateNamesFileKeyAndFlag(t *testing.T) {
	path := writeFile(t, "troupe.toml", "[context]\nidle_gap = \"soon\"\n\n[done]\nmax_refusals = 0\ncheck_timeout_s = -3\n")
	c, err := Load(LoadOptions{ProjectFile: path, Getenv: envOf(nil)})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	c.Apply(Overrides{ContextWindow: -5})
	err = c.Validate()
	if err == nil {
		t.Fatal("Validate accepted them")
	}
	for _, want := range []string{
		`context.idle_gap (from ` + path + `): "soon" is not a duration`,
		`done.max_refusals (from ` + path + `): 0: at least 1`,
		`done.check_timeout_s (from ` + path + `): -3 is negative`,
		`context.window (from flag --context-window): -5 is negative`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestNearestKey(t *testing.T) {
	tests := []struct {
		unknown []string
		want    string
	}{
		{[]string{"modle"}, "mode"},
		{[]string{"baseurl"}, "base_url"},
		{[]string{"contextwindow"}, "context.window"},
		{[]string{"context", "idle_gaps"}, "context.idle_gap"},
		{[]string{"permission", "allow"}, "permissions.allow"},
		{[]string{"done", "checks"}, "done.check"},
		{[]string{"xyzzy"}, ""},
	}
	for _, tt := range tests {
		if got := nearestKey(tt.unknown); got != tt.want {
			t.Errorf("nearestKey(%q) = %q, want %q", tt.unknown, got, tt.want)
		}
	}
}

func TestProviderIdleTimeout(t *testing.T) {
	path := writeFile(t, "troupe.toml", "[provider]\nidle_timeout_s = 30\n")
	c, err := Load(LoadOptions{ProjectFile: path, Getenv: envOf(nil)})
	if err != nil || c.Provider.IdleTimeoutS != 30 {
		t.Fatalf("Load: idle_timeout_s = %d, %v; want 30", c.Provider.IdleTimeoutS, err)
	}
	bad := writeFile(t, "troupe.toml", "[provider]\nidle_timeout_s = -1\n")
	c, err = Load(LoadOptions{ProjectFile: bad, Getenv: envOf(nil)})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "provider.idle_timeout_s (from "+bad+"): -1 is negative") {
		t.Fatalf("negative idle timeout: %v; want an error naming provider.idle_timeout_s", err)
	}
}
