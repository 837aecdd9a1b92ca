package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSandboxTable: the sandbox is a string or a [sandbox] table; deny_read adds up across
// files, and a project's allow_read is ignored (it would widen what commands read).
func TestSandboxTable(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	user := write("config.toml", "[sandbox]\nmode = \"bwrap\"\ndeny_read = [\"~/work-keys\"]\nallow_read = [\"~/.npmrc\"]\n")
	project := write("troupe.toml", "[sandbox]\ndeny_read = [\"/srv/secrets\"]\nallow_read = [\"~/.ssh\"]\n")
	c, err := Load(LoadOptions{UserFile: user, ProjectFile: project, Getenv: envOf(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if c.Sandbox != "bwrap" || !reflect.DeepEqual(c.SandboxDenyRead, []string{"~/work-keys", "/srv/secrets"}) ||
		!reflect.DeepEqual(c.SandboxAllowRead, []string{"~/.npmrc"}) {
		t.Errorf("sandbox %q deny %q allow %q", c.Sandbox, c.SandboxDenyRead, c.SandboxAllowRead)
	}
	if !strings.Contains(strings.Join(c.Warnings, "\n"), "sandbox.allow_read") {
		t.Errorf("no warning for the project's allow_read: %q", c.Warnings)
	}
	plain := write("plain.toml", "sandbox = \"off\"\n")
	if c, err := Load(LoadOptions{UserFile: plain, Getenv: envOf(nil)}); err != nil || c.Sandbox != "off" {
		t.Errorf("sandbox = \"off\": %v %v", c, err)
	}
	bad := write("bad.toml", "[sandbox]\nhide = [\"x\"]\n")
	if _, err := Load(LoadOptions{UserFile: bad, Getenv: envOf(nil)}); err == nil || !strings.Contains(err.Error(), `"sandbox.hide"`) {
		t.Errorf("an unknown [sandbox] key: %v", err)
	}
}
