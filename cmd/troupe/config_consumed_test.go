package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/messages"
)

// testValues gives each configuration key a valid value other than its default. A new field
// without one fails the test: decide what it does, and make it reach the Node or the session.
func testValues(script string) map[string]any {
	return map[string]any{
		"Model": "scripted:" + script, "BaseURL": "http://127.0.0.1:9/v1", "Mode": "yolo", "Sandbox": "off",
		"NATS":                  "nats://127.0.0.1:4222",
		"Permissions.Allow":     []string{"bash(ls*)"},
		"Permissions.Ask":       []string{"bash(git push*)"},
		"Permissions.Deny":      []string{"bash(rm -rf *)"},
		"Done.Check":            "true",
		"Done.CheckTimeoutS":    7,
		"Done.MaxRefusals":      5,
		"Context.Window":        9000,
		"Context.IdleGap":       "5m",
		"Env.Pass":              []string{"TROUPE_TEST_PASS"},
		"Env.Set":               map[string]string{"TROUPE_TEST_SET": "1"},
		"Agents.MaxDepth":       1,
		"Agents.MaxRunning":     2,
		"Agents.Placement":      "workers",
		"Provider.IdleTimeoutS": 30,
		"MCP.Servers":           map[string]config.MCPServer{"t": {Command: "mcp-test"}},
		"Web.AllowHosts":        []string{"127.0.0.1"},
		"Web.SearchProvider":    "tavily",
		"Web.SearchURL":         "http://127.0.0.1:8888",
		"Web.SearchKeyEnv":      "MY_SEARCH_KEY",
		"Web.SearchServer":      "websearch",
		"Web.SearchTool":        "find",
		"Lessons.Enabled":       false,
		"Lessons.MaxBytes":      3000,
		"Hooks":                 map[string][]config.HookSpec{"PreToolUse": {{Matcher: "bash", Command: "./guard.sh"}}},
		"Bus.Token":             "t0ken",
		"Bus.User":              "troupe-node",
		"Bus.Password":          "secret",
		"Bus.NKey":              script, // any file that exists
		"Bus.Creds":             script,
		"Bus.TLSCA":             script,
		"Bus.TLSCert":           script,
		"Bus.TLSKey":            script,
		"Project.ID":            "my-project",
		"Workers.Remote":        "/srv/git/project.git",
	}
}

// companions are the fields a test value needs beside it to be valid.
var companions = map[string]map[string]any{
	"Bus.Password": {"Bus.User": "troupe-node"},
	"Bus.TLSCert":  {"Bus.TLSKey": "KEY"},
	"Bus.TLSKey":   {"Bus.TLSCert": "KEY"},
}

// consumedByLoad are the keys config.Load itself acts on while layering the files (their tests
// are in config/): they decide what the other fields end up as.
var consumedByLoad = map[string]bool{"TrustedProjects": true}

// Every configuration field changes what the Node or a session is started with: a field that
// is parsed and validated and then dropped (as [agents] and nats once were) fails here.
func TestEveryConfigFieldReachesTheNodeOrTheSession(t *testing.T) {
	root := t.TempDir()
	script := filepath.Join(root, "script.json")
	os.WriteFile(script, []byte(`{"turns": [{"text": "ok"}]}`), 0o644)
	values := testValues(script)
	m := &Main{Getenv: func(string) string { return "" }, log: slog.New(slog.DiscardHandler), Stderr: os.Stderr}
	fingerprint := func(cfg *config.Config) string {
		t.Helper()
		s := &settings{root: root, cfg: cfg}
		opts, err := m.nodeOptions(s)
		if err != nil {
			t.Fatalf("node options: %v", err)
		}
		start := &messages.StartSession{ID: "x"}
		if err := m.sessionStart(s, nil, &commonFlags{}, start); err != nil {
			t.Fatalf("session start: %v", err)
		}
		data, _ := json.Marshal(start)
		var hooks []string
		for _, h := range opts.Hooks.All() {
			hooks = append(hooks, string(h.Event)+" "+h.Matcher+" "+h.Command)
		}
		return fmt.Sprintf("%q %T%+v %+v %q %q %+v %s %+v %q %q %+v %+v %+v %q %q", opts.Environ, opts.Sandbox, opts.Sandbox, opts.Agents, opts.NATS,
			opts.UserConfigDir, opts.Retry, data, opts.MCPServers, opts.WebAllowHosts, hooks, opts.Lessons, opts.WebSearch,
			opts.BusCredentials, opts.Project, opts.Dispatch.Code.Remote)
	}
	base := config.Defaults()
	base.Model = "scripted:" + script
	want := fingerprint(base)
	for _, path := range leafFields(reflect.TypeOf(config.Config{}), "") {
		if consumedByLoad[path] {
			continue
		}
		v, ok := values[path]
		if !ok {
			t.Errorf("config field %s has no test value: add one to testValues and make it reach the Node or the session", path)
			continue
		}
		cfg := config.Defaults()
		cfg.Model = "scripted:" + script
		setField(reflect.ValueOf(cfg).Elem(), path, v)
		for other, ov := range companions[path] {
			if ov == "KEY" {
				ov = script
			}
			setField(reflect.ValueOf(cfg).Elem(), other, ov)
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("%s = %v is not valid: %v", path, v, err)
		}
		if path != "Model" && fingerprint(cfg) == want {
			t.Errorf("config field %s is parsed but never used: nothing the Node or a session starts with changes", path)
		}
	}
}

// leafFields lists the settable fields of a config struct as dotted paths.
func leafFields(t reflect.Type, prefix string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Tag.Get("toml") == "-" {
			continue
		}
		if f.Type.Kind() == reflect.Struct {
			out = append(out, leafFields(f.Type, prefix+f.Name+".")...)
			continue
		}
		out = append(out, prefix+f.Name)
	}
	return out
}

func setField(v reflect.Value, path string, value any) {
	for _, name := range strings.Split(path, ".") {
		v = v.FieldByName(name)
	}
	v.Set(reflect.ValueOf(value))
}
