package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFile writes a config file into a test directory and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// envOf is a Getenv over a fixed map.
func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestDefaults(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(LoadOptions{UserFile: filepath.Join(dir, "missing.toml"), ProjectFile: filepath.Join(dir, "troupe.toml"), Getenv: envOf(nil)})
	if err != nil {
		t.Fatalf("Load with missing files: %v", err)
	}
	if c.Mode != "ask" || c.Sandbox != "auto" || c.Done.MaxRefusals != 3 || c.Agents.MaxDepth != 3 || c.Agents.MaxRunning != 8 {
		t.Errorf("defaults = %+v", c)
	}
	if len(c.Sources) != 0 {
		t.Errorf("Sources = %v, want none", c.Sources)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
	if c.Origin("Mode") != "default" {
		t.Errorf("Origin(Mode) = %q", c.Origin("Mode"))
	}
}

func TestLayering(t *testing.T) {
	user := writeFile(t, "config.toml", `
model = "openai/gpt-4o-mini"
base_url = "http://localhost:11434/v1"
mode = "auto-edit"

[context]
window = 32000

[done]
check = "go test ./..."

[agents]
max_depth = 2

[permissions]
allow = ["read", "bash(git status*)"]

[env]
pass = ["GOPATH"]
set = { A = "user", B = "user" }
`)
	project := writeFile(t, "troupe.toml", `
mode = "plan"
sandbox = "landlock"

[agents]
max_running = 4

[permissions]
allow = ["bash(go test*)", "read"]
deny = ["bash(rm -rf*)"]

[env.set]
B = "project"
`)
	c, err := Load(LoadOptions{UserFile: user, ProjectFile: project,
		Getenv: envOf(map[string]string{"TROUPE_MODEL": "anthropic/claude-sonnet-4", "HOME": "/ignored"})})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	c.Apply(Overrides{Sandbox: "off"})

	checks := []struct {
		field, got, want, origin string
	}{
		{"Model", c.Model, "anthropic/claude-sonnet-4", "env TROUPE_MODEL"}, // env over user
		{"BaseURL", c.BaseURL, "http://localhost:11434/v1", user},           // only the user sets it
		{"Mode", c.Mode, "plan", project},                                   // project over user (narrower)
		{"Sandbox", c.Sandbox, "off", "flag --sandbox"},                     // flag over project
		{"NATS", c.NATS, "", "default"},
		{"Done.Check", c.Done.Check, "go test ./...", user},
	}
	for _, ch := range checks {
		if ch.got != ch.want || c.Origin(ch.field) != ch.origin {
			t.Errorf("%s = %q from %q, want %q from %q", ch.field, ch.got, c.Origin(ch.field), ch.want, ch.origin)
		}
	}
	ints := []struct {
		field     string
		got, want int
	}{
		{"Context.Window", c.Context.Window, 32000},
		{"Done.MaxRefusals", c.Done.MaxRefusals, 3}, // default survives both files
		{"Agents.MaxDepth", c.Agents.MaxDepth, 2},   // project's [agents] does not clobber it
		{"Agents.MaxRunning", c.Agents.MaxRunning, 4},
	}
	for _, ch := range ints {
		if ch.got != ch.want {
			t.Errorf("%s = %d, want %d", ch.field, ch.got, ch.want)
		}
	}
	if want := []string{"read", "bash(git status*)"}; !slices.Equal(c.Permissions.Allow, want) {
		t.Errorf("Permissions.Allow = %q, want %q (a project's allow rules are ignored)", c.Permissions.Allow, want)
	}
	if want := []string{"bash(rm -rf*)"}; !slices.Equal(c.Permissions.Deny, want) {
		t.Errorf("Permissions.Deny = %q, want %q", c.Permissions.Deny, want)
	}
	if c.Env.Set["A"] != "user" || c.Env.Set["B"] != "project" || !slices.Equal(c.Env.Pass, []string{"GOPATH"}) {
		t.Errorf("Env = %+v", c.Env)
	}
	if want := []string{user, project, "env TROUPE_MODEL", "flag --sandbox"}; !slices.Equal(c.Sources, want) {
		t.Errorf("Sources = %q, want %q", c.Sources, want)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

// TestEachLayerOverrides sets mode in a growing stack of layers: the topmost layer that sets
// it wins, and a layer that does not set it changes nothing.
func TestEachLayerOverrides(t *testing.T) {
	tests := []struct {
		name                     string
		user, project, env, flag string
		want                     string
	}{
		{"defaults", "", "", "", "", "ask"},
		{"user", "plan", "", "", "", "plan"},
		{"project over user", "yolo", "plan", "", "", "plan"},
		{"project cannot widen", "plan", "yolo", "", "", "plan"},
		{"env over project", "plan", "yolo", "auto-edit", "", "auto-edit"},
		{"flag over env", "plan", "yolo", "auto-edit", "ask", "ask"},
		{"flag over user, nothing between", "yolo", "", "", "plan", "plan"},
		{"env alone", "", "", "plan", "", "plan"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := func(name, mode string) string {
				if mode == "" {
					return writeFile(t, name, "# sets nothing\n")
				}
				return writeFile(t, name, "mode = \""+mode+"\"\n")
			}
			c, err := Load(LoadOptions{UserFile: file("config.toml", tt.user), ProjectFile: file("troupe.toml", tt.project),
				Getenv: envOf(map[string]string{"TROUPE_MODE": tt.env})})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			c.Apply(Overrides{Mode: tt.flag})
			if c.Mode != tt.want {
				t.Errorf("Mode = %q, want %q", c.Mode, tt.want)
			}
		})
	}
}

func TestEnvOverrides(t *testing.T) {
	project := writeFile(t, "troupe.toml", `model = "a/file"
base_url = "http://file"
mode = "plan"
sandbox = "bwrap"
nats = "nats://file:4222"
`)
	env := map[string]string{
		"TROUPE_MODEL":    "b/env",
		"TROUPE_BASE_URL": "https://env.example/v1",
		"TROUPE_MODE":     "yolo",
		"TROUPE_SANDBOX":  "off",
		"TROUPE_NATS":     "nats://env:4222",
	}
	c, err := Load(LoadOptions{ProjectFile: project, Getenv: envOf(env)})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	got := map[string]string{"TROUPE_MODEL": c.Model, "TROUPE_BASE_URL": c.BaseURL, "TROUPE_MODE": c.Mode,
		"TROUPE_SANDBOX": c.Sandbox, "TROUPE_NATS": c.NATS}
	for k, want := range env {
		if got[k] != want {
			t.Errorf("%s: got %q, want %q", k, got[k], want)
		}
	}
	// An empty variable is unset, not an override to "".
	c, err = Load(LoadOptions{ProjectFile: project, Getenv: envOf(map[string]string{"TROUPE_MODEL": ""})})
	if err != nil || c.Model != "a/file" {
		t.Errorf("empty TROUPE_MODEL: Model = %q, %v; want the file's", c.Model, err)
	}
}

func TestApplyIgnoresEmptyFlags(t *testing.T) {
	c := Defaults()
	c.Model = "a/b"
	c.Apply(Overrides{NATS: "nats://h:1"})
	if c.Model != "a/b" || c.Mode != "ask" || c.NATS != "nats://h:1" || c.Origin("NATS") != "flag --nats" {
		t.Errorf("after Apply: %+v (NATS from %s)", c, c.Origin("NATS"))
	}
}

func TestFileErrors(t *testing.T) {
	tests := []struct {
		name, content string
		want          []string // substrings of the error, in any order
	}{
		{"bad syntax", "model = \"a/b\"\n\nmode = \n", []string{"troupe.toml:3:"}},
		{"unknown key with a near one", "model = \"a/b\"\n[done]\ncheck = \"make\"\nmax_refusal = 2\n",
			[]string{"troupe.toml:4:", `unknown key "done.max_refusal"`, `did you mean "done.max_refusals"?`}},
		{"unknown keys each reported", "modle = \"x\"\nzzz_unrelated_key = 1\n",
			[]string{"troupe.toml:1:", `unknown key "modle"`, "troupe.toml:2:", `unknown key "zzz_unrelated_key"`}},
		{"unknown table", "[agent]\nmax_depth = 1\n", []string{"troupe.toml:1:", `unknown key "agent"`, `did you mean "agents"?`}},
		{"wrong type", "[agents]\nmax_depth = \"three\"\n", []string{"troupe.toml:2:", "agents.max_depth: want an integer, got a TOML string"}},
		{"string for a list", "[permissions]\nallow = \"read\"\n", []string{"troupe.toml:2:", "permissions.allow: want a list of strings"}},
		{"duplicate table", "[done]\n[done]\n", []string{"troupe.toml:2:"}},
		{"window moved into [context]", "context_window = 32000\n", []string{"troupe.toml:1:", `unknown key "context_window"`, `did you mean "context.window"?`}},
		{"window as a string", "[context]\nwindow = \"big\"\n", []string{"troupe.toml:2:", "context.window: want an integer, got a TOML string"}},
		{"idle gap as a number", "[context]\nidle_gap = 30\n", []string{"troupe.toml:2:", "context.idle_gap: want a string, got a TOML integer"}},
		{"check timeout typo", "[done]\ncheck_timeout = 60\n", []string{"troupe.toml:2:", `did you mean "done.check_timeout_s"?`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "troupe.toml", tt.content)
			_, err := Load(LoadOptions{ProjectFile: path, Getenv: envOf(nil)})
			if err == nil {
				t.Fatal("Load succeeded")
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			if !strings.HasPrefix(err.Error(), path+":") {
				t.Errorf("error %q does not start with the file's path", err)
			}
		})
	}
}

func TestUnknownKeyWithNothingNear(t *testing.T) {
	path := writeFile(t, "troupe.toml", "completely_different = true\n")
	_, err := Load(LoadOptions{ProjectFile: path, Getenv: envOf(nil)})
	if err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("err = %v; want an unknown key error with no suggestion", err)
	}
}

func TestUnreadableFile(t *testing.T) {
	dir := t.TempDir() // a directory where a file should be
	if _, err := Load(LoadOptions{ProjectFile: dir, Getenv: envOf(nil)}); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("err = %v; want a read error naming %s", err, dir)
	}
}

func TestDefaultPaths(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		wantUser string
	}{
		{"xdg wins", map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/troupe/config.toml"},
		{"home", map[string]string{"HOME": "/h"}, "/h/.config/troupe/config.toml"},
		{"neither", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			user, project := DefaultPaths("/repo", envOf(tt.env))
			if user != tt.wantUser || project != "/repo/troupe.toml" {
				t.Errorf("DefaultPaths = %q, %q; want %q, /repo/troupe.toml", user, project, tt.wantUser)
			}
		})
	}
}

// TestLongHorizonLayers layers [done] and [context] like every other setting: the project over
// the user, flags over both, each value traced to its source; --check "" turns a check off.
func TestLongHorizonLayers(t *testing.T) {
	user := writeFile(t, "config.toml", `
[done]
check = "make test"
max_refusals = 5
check_timeout_s = 120

[context]
window = 32000
idle_gap = "45m"
`)
	project := writeFile(t, "troupe.toml", `
[done]
check = "go test ./..."

[context]
idle_gap = "off"
`)
	load := func() *Config {
		t.Helper()
		c, err := Load(LoadOptions{UserFile: user, ProjectFile: project, Getenv: envOf(nil)})
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		return c
	}
	c := load()
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	gap, _ := c.IdleGapS()
	if c.Done.Check != "go test ./..." || c.Origin("Done.Check") != project || c.Done.MaxRefusals != 5 ||
		c.Done.CheckTimeoutS != 120 || c.Context.Window != 32000 || c.Origin("Context.Window") != user || gap != -1 {
		t.Errorf("files: done %+v, context %+v (idle gap %d s), check from %s", c.Done, c.Context, gap, c.Origin("Done.Check"))
	}

	c = load()
	check := "test -f done.txt"
	c.Apply(Overrides{Check: &check, ContextWindow: 8000, MaxRefusals: 2})
	if c.Done.Check != check || c.Context.Window != 8000 || c.Done.MaxRefusals != 2 ||
		c.Origin("Done.Check") != "flag --check" || c.Origin("Context.Window") != "flag --context-window" ||
		c.Origin("Done.MaxRefusals") != "flag --max-refusals" {
		t.Errorf("flags: done %+v, context %+v", c.Done, c.Context)
	}
	if want := []string{user, project, "flag --check", "flag --context-window", "flag --max-refusals"}; !slices.Equal(c.Sources, want) {
		t.Errorf("Sources = %q, want %q", c.Sources, want)
	}

	c = load()
	off := ""
	c.Apply(Overrides{Check: &off})
	if c.Done.Check != "" || c.Done.MaxRefusals != 5 || c.Context.Window != 32000 {
		t.Errorf("--check \"\": done %+v, context %+v; want the check off and the rest kept", c.Done, c.Context)
	}
}

func TestIdleGap(t *testing.T) {
	tests := []struct {
		in      string
		want    int
		wantErr string
	}{
		{"", 0, ""},
		{"off", -1, ""},
		{" OFF ", -1, ""},
		{"30m", 1800, ""},
		{"90s", 90, ""},
		{"1h30m", 5400, ""},
		{"soon", 0, `"soon" is not a duration`},
		{"30", 0, `"30" is not a duration`},
		{"0", 0, `use "off"`},
		{"500ms", 0, `use "off"`},
		{"-5m", 0, `use "off"`},
	}
	for _, tt := range tests {
		c := Defaults()
		c.Context.IdleGap = tt.in
		got, err := c.IdleGapS()
		switch {
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("IdleGapS(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("IdleGapS(%q) = %d, %v; want an error containing %q", tt.in, got, err, tt.wantErr)
		}
	}
}
