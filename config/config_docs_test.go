package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every key a file may set (derived from the file's types) is documented in docs/CONFIG.md.
func TestEveryKeyIsInConfigDoc(t *testing.T) {
	data, err := os.ReadFile("../docs/CONFIG.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, key := range Keys() {
		if !strings.Contains(doc, "`"+key+"`") {
			t.Errorf("docs/CONFIG.md does not document `%s`", key)
		}
	}
}

// The template names every key, and with each '#key = …' line uncommented it is a valid file.
func TestTemplateSetsEveryKeyAndLoads(t *testing.T) {
	setting := regexp.MustCompile(`(?m)^#(\[{0,2}[a-z])`)
	file := setting.ReplaceAllString(Template, "$1")
	path := filepath.Join(t.TempDir(), "troupe.toml")
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(LoadOptions{UserFile: path, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatalf("the uncommented template does not load: %v\n%s", err, file)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("the uncommented template is invalid: %v", err)
	}
	table := ""
	written := map[string]bool{}
	for _, line := range strings.Split(file, "\n") {
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(line, "[] ")
			parts := strings.Split(table, ".")
			for i := range parts {
				written[strings.Join(parts[:i+1], ".")] = true
			}
			continue
		}
		if k, _, ok := strings.Cut(line, " = "); ok && !strings.HasPrefix(k, "#") {
			if table != "" {
				k = table + "." + k
			}
			written[k] = true
		}
	}
	for _, key := range Keys() {
		if !written[key] {
			t.Errorf("the template does not write %s", key)
		}
	}
	// Commented out, it changes nothing.
	if err := os.WriteFile(path, []byte(Template), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = Load(LoadOptions{ProjectFile: path, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range c.Entries() {
		if e.Source != "default" {
			t.Errorf("%s came from %s, want default (the template sets nothing)", e.Key, e.Source)
		}
	}
}

// Entries name the layer of each value, lists gathering every file that added to them.
func TestEntriesSayWhereEachValueCameFrom(t *testing.T) {
	dir := t.TempDir()
	user, project := filepath.Join(dir, "user.toml"), filepath.Join(dir, "troupe.toml")
	os.WriteFile(user, []byte("model = \"openai/gpt-4o-mini\"\n[permissions]\ndeny = [\"bash(rm*)\"]\n[sandbox]\ndeny_read = [\"~/.x\"]\n"), 0o644)
	os.WriteFile(project, []byte("[done]\ncheck = \"go test ./...\"\n[permissions]\ndeny = [\"bash(curl*)\"]\n[env]\nset = { A = \"1\" }\n"), 0o644)
	c, err := Load(LoadOptions{UserFile: user, ProjectFile: project, Getenv: func(k string) string {
		if k == "TROUPE_MODE" {
			return "plan"
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(Overrides{Sandbox: "off"})
	want := map[string][2]string{
		"model":             {`"openai/gpt-4o-mini"`, user},
		"mode":              {`"plan"`, "env TROUPE_MODE"},
		"sandbox":           {`"off"`, "flag --sandbox"},
		"done.check":        {`"go test ./..."`, project},
		"permissions.deny":  {`["bash(rm*)", "bash(curl*)"]`, user + " + " + project},
		"sandbox.deny_read": {`["~/.x"]`, user},
		"env.set":           {`{ "A" = "1" }`, project},
		"agents.max_depth":  {"3", "default"},
	}
	got := map[string]Entry{}
	for _, e := range c.Entries() {
		got[e.Key] = e
	}
	for key, w := range want {
		if e := got[key]; e.Value != w[0] || e.Source != w[1] {
			t.Errorf("%s = %s from %q, want %s from %q", key, e.Value, e.Source, w[0], w[1])
		}
	}
	for _, key := range Keys() {
		if _, ok := got[key]; !ok && !strings.Contains(strings.Join(tables(), " "), key) {
			t.Errorf("troupe config does not show %s", key)
		}
	}
}

// tables are the keys that name a table rather than a value.
func tables() []string {
	return []string{"permissions", "done", "context", "provider", "env", "agents", "mcp", "web", "lessons", "bus", "project", "workers"}
}
