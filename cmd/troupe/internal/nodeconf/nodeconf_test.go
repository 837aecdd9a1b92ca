package nodeconf

import (
	"io"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/config"
)

func project(t *testing.T, cfg *config.Config, warn io.Writer) *Project {
	return &Project{Root: t.TempDir(), Cfg: cfg, Getenv: func(string) string { return "" }, Warn: warn}
}

// A node built from another sandbox, bus or limit has another fingerprint; the same
// configuration, the same one.
func TestFingerprintFollowsTheNodeConfiguration(t *testing.T) {
	base := config.Defaults()
	a, b := project(t, base, io.Discard).Fingerprint(), project(t, base, io.Discard).Fingerprint()
	if a != b {
		t.Fatalf("the same configuration: %s and %s", a, b)
	}
	for name, change := range map[string]func(c *config.Config){
		"sandbox":      func(c *config.Config) { c.Sandbox = "off" },
		"nats":         func(c *config.Config) { c.NATS = "nats://127.0.0.1:4222" },
		"idle timeout": func(c *config.Config) { c.Provider.IdleTimeoutS = 7 },
		"web hosts":    func(c *config.Config) { c.Web.AllowHosts = []string{"example.com"} },
	} {
		cfg := config.Defaults()
		change(cfg)
		if project(t, cfg, io.Discard).Fingerprint() == a {
			t.Errorf("%s changed, the fingerprint did not", name)
		}
	}
}

// The project's hooks are read once per process: their warnings are said once.
func TestHooksAreReadOnce(t *testing.T) {
	var warn strings.Builder
	cfg := config.Defaults()
	cfg.Hooks = map[string][]config.HookSpec{"NoSuchEvent": {{Command: "true"}}}
	p := project(t, cfg, &warn)
	first := p.Hooks()
	said := warn.String()
	if !strings.Contains(said, "NoSuchEvent") {
		t.Fatalf("no warning for an unknown event: %q", said)
	}
	if p.Hooks() != first || warn.String() != said {
		t.Errorf("read twice: warnings %q then %q", said, warn.String())
	}
}
