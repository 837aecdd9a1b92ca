package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// troupe config shows each value with its layer: default, user, project, env, flag.
func TestConfigShowsWhereEachValueCameFrom(t *testing.T) {
	repo := newRepo(t, map[string]string{"troupe.toml": "[done]\ncheck = \"go vet ./...\"\n"})
	home := t.TempDir()
	userFile := filepath.Join(home, ".config", "troupe", "config.toml")
	os.MkdirAll(filepath.Dir(userFile), 0o755)
	os.WriteFile(userFile, []byte("model = \"openai/gpt-4o-mini\"\n"), 0o644)
	env := append(testEnv(t), "HOME="+home, "TROUPE_MODE=plan") // the later HOME wins
	r := troupe(t, repo, env, "config", "--sandbox", "off")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for key, want := range map[string]string{
		"model":            `"openai/gpt-4o-mini"\s+# user ` + regexp.QuoteMeta(userFile),
		"done.check":       `"go vet \./\.\.\."\s+# project ` + regexp.QuoteMeta(filepath.Join(repo, "troupe.toml")),
		"mode":             `"plan"\s+# env TROUPE_MODE`,
		"sandbox":          `"off"\s+# flag --sandbox`,
		"agents.max_depth": `3\s+# default`,
	} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(key) + ` = ` + want + `$`).MatchString(r.stdout) {
			t.Errorf("no line %s = %s in:\n%s", key, want, r.stdout)
		}
	}
}

// config --init writes a commented troupe.toml that changes nothing, and never overwrites one.
func TestConfigInitWritesATemplateOnce(t *testing.T) {
	repo := newRepo(t, nil)
	r := troupe(t, repo, testEnv(t), "config", "--init")
	if r.code != 0 || !strings.Contains(r.stdout, "wrote") {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(filepath.Join(repo, "troupe.toml"))
	if err != nil || !strings.Contains(string(data), "#[permissions]") {
		t.Fatalf("troupe.toml: %v\n%s", err, data)
	}
	shown := troupe(t, repo, testEnv(t), "config")
	if shown.code != 0 || strings.Contains(shown.stdout, "  # project") {
		t.Errorf("the template set something: exit %d\n%s%s", shown.code, shown.stdout, shown.stderr)
	}
	os.WriteFile(filepath.Join(repo, "troupe.toml"), []byte("model = \"mine\"\n"), 0o644)
	r = troupe(t, repo, testEnv(t), "config", "--init")
	if lines := strings.Split(strings.TrimSpace(r.stderr), "\n"); r.code != exitUsage || len(lines) != 1 || !strings.Contains(r.stderr, "already exists") {
		t.Errorf("second --init: exit %d, stderr %q", r.code, r.stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(repo, "troupe.toml")); string(data) != "model = \"mine\"\n" {
		t.Errorf("troupe.toml was overwritten: %q", data)
	}
}
