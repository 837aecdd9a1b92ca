package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// [project] id may come with the repository; [bus] credentials may not (they are ignored with a
// warning); TROUPE_NATS_* and TROUPE_PROJECT override the files; bad combinations are invalid.
func TestBusAndProjectSettings(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.toml")
	project := filepath.Join(dir, "troupe.toml")
	os.WriteFile(user, []byte("[bus]\nuser = \"me\"\npassword = \"pw\"\n"), 0o644)
	os.WriteFile(project, []byte("[project]\nid = \"shop\"\n[bus]\ntoken = \"from-the-repo\"\n"), 0o644)
	env := map[string]string{}
	load := func() *Config {
		t.Helper()
		c, err := Load(LoadOptions{UserFile: user, ProjectFile: project, Getenv: func(k string) string { return env[k] }})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := load()
	if c.Project.ID != "shop" || c.Bus.User != "me" || c.Bus.Password != "pw" || c.Bus.Token != "" {
		t.Fatalf("project %q bus %+v", c.Project.ID, c.Bus)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "bus.*") {
		t.Errorf("warnings %q, want one about the project's [bus]", c.Warnings)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if s := c.BusSummary(); strings.Contains(s, "pw") || !strings.Contains(s, "bus.user=me") {
		t.Errorf("BusSummary %q shows a password or lacks the user", s)
	}
	env["TROUPE_PROJECT"], env["TROUPE_NATS_USER"] = "other", "you"
	if c := load(); c.Project.ID != "other" || c.Bus.User != "you" || c.Origin("Bus.User") != "env TROUPE_NATS_USER" {
		t.Errorf("env: project %q user %q from %q", c.Project.ID, c.Bus.User, c.Origin("Bus.User"))
	}
	c.Apply(Overrides{NATSCreds: user})
	if c.Bus.Creds != user || c.Origin("Bus.Creds") != "flag --nats-creds" {
		t.Errorf("--nats-creds: %q from %q", c.Bus.Creds, c.Origin("Bus.Creds"))
	}
	for _, bad := range []func(c *Config){
		func(c *Config) { c.Project.ID = "a.b" },
		func(c *Config) { c.Bus.Token = "t" },    // with user
		func(c *Config) { c.Bus.User = "" },      // password alone
		func(c *Config) { c.Bus.TLSCert = user }, // no key
		func(c *Config) { c.Bus = Bus{Creds: filepath.Join(dir, "missing.creds")} },
	} {
		c := load()
		bad(c)
		if err := c.Validate(); err == nil {
			t.Errorf("accepted bus %+v project %q", c.Bus, c.Project.ID)
		}
	}
}
