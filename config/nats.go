package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Bus is [bus]: how this process authenticates to the external NATS server `nats` names (the
// embedded bus hands out its own credentials). At most one of token, user (with password),
// nkey and creds; TLS beside any of them. Credentials in the URL work too. Read from the
// user's config, the environment and flags only: a project file does not choose them.
type Bus struct {
	Token    string `toml:"token" secret:"true"`    // a server token
	User     string `toml:"user"`                   // a user name, with Password
	Password string `toml:"password" secret:"true"` // its password
	NKey     string `toml:"nkey"`                   // a file holding an NKey user seed
	Creds    string `toml:"creds"`                  // a .creds file (user JWT and seed)
	TLSCA    string `toml:"tls_ca"`                 // PEM roots to verify the server (else the system's)
	TLSCert  string `toml:"tls_cert"`               // a client certificate (PEM), with TLSKey
	TLSKey   string `toml:"tls_key"`                // its key
}

// Project is [project].
type Project struct {
	// ID names the project's subjects on the bus (troupe.<id>.…): Nodes and workers with one
	// id meet. "" derives it from the git remote and the root commit.
	ID string `toml:"id"`
}

// busLayer is [bus] as a file writes it.
type busLayer struct {
	Token    *string `toml:"token"`
	User     *string `toml:"user"`
	Password *string `toml:"password"`
	NKey     *string `toml:"nkey"`
	Creds    *string `toml:"creds"`
	TLSCA    *string `toml:"tls_ca"`
	TLSCert  *string `toml:"tls_cert"`
	TLSKey   *string `toml:"tls_key"`
}

type projectLayer struct {
	ID *string `toml:"id"`
}

// Workers is [workers]: how a Node's code reaches the project's workers (docs/WORKERS.md).
type Workers struct {
	// Remote is a git remote the workers can reach: they fetch the base commit from it and
	// push a writing child's work there as refs/troupe/<task>. "" is origin's URL when the
	// repository has one; "none" sends everything as bundles through the object store.
	Remote string `toml:"remote"`
}

// RemoteNone turns the shared remote off.
const RemoteNone = "none"

type workersLayer struct {
	Remote *string `toml:"remote"`
}

// busSettings pairs each [bus] and [project] key with its field, layer pointer and variable.
func busSettings(c *Config, l *layer) []struct {
	field, env string
	from       *string
	to         *string
} {
	var b busLayer
	var p projectLayer
	var w workersLayer
	if l != nil {
		b, p, w = l.Bus, l.Project, l.Workers
	}
	return []struct {
		field, env string
		from       *string
		to         *string
	}{
		{"Bus.Token", "TROUPE_NATS_TOKEN", b.Token, &c.Bus.Token},
		{"Bus.User", "TROUPE_NATS_USER", b.User, &c.Bus.User},
		{"Bus.Password", "TROUPE_NATS_PASSWORD", b.Password, &c.Bus.Password},
		{"Bus.NKey", "TROUPE_NATS_NKEY", b.NKey, &c.Bus.NKey},
		{"Bus.Creds", "TROUPE_NATS_CREDS", b.Creds, &c.Bus.Creds},
		{"Bus.TLSCA", "TROUPE_NATS_TLS_CA", b.TLSCA, &c.Bus.TLSCA},
		{"Bus.TLSCert", "TROUPE_NATS_TLS_CERT", b.TLSCert, &c.Bus.TLSCert},
		{"Bus.TLSKey", "TROUPE_NATS_TLS_KEY", b.TLSKey, &c.Bus.TLSKey},
		{"Project.ID", "TROUPE_PROJECT", p.ID, &c.Project.ID},
		{"Workers.Remote", "TROUPE_WORKERS_REMOTE", w.Remote, &c.Workers.Remote},
	}
}

// applyBus copies the layer's [bus] and [project] settings onto c.
func (l *layer) applyBus(c *Config, path string) {
	for _, s := range busSettings(c, l) {
		if s.from != nil {
			c.setString(s.field, s.to, *s.from, path)
		}
	}
}

// applyBusEnv applies TROUPE_NATS_* and TROUPE_PROJECT.
func (c *Config) applyBusEnv(getenv func(string) string) {
	for _, s := range busSettings(c, nil) {
		if v := getenv(s.env); v != "" {
			c.setString(s.field, s.to, v, "env "+s.env)
			c.Sources = append(c.Sources, "env "+s.env)
		}
	}
}

// narrowBus drops a project file's [bus] (credentials are the user's to choose) and
// [workers] remote (the user's uncommitted changes would be pushed there).
func (l *layer) narrowBus() []string {
	var dropped []string
	if l.Bus != (busLayer{}) {
		l.Bus = busLayer{}
		dropped = append(dropped, "bus.* (NATS credentials come from your own config, TROUPE_NATS_* or --nats-creds)")
	}
	if l.Workers.Remote != nil && *l.Workers.Remote != RemoteNone {
		dropped = append(dropped, fmt.Sprintf("workers.remote = %q (your uncommitted changes would be pushed there)", *l.Workers.Remote))
		l.Workers.Remote = nil
	}
	return dropped
}

// projectIDPattern is what [project] id may be: one subject token of plain characters.
var projectIDPattern = lazyre.New(`^[A-Za-z0-9_-]{1,64}$`)

// validateBus reports [bus] and [project] settings that cannot work.
func (c *Config) validateBus(bad func(field, format string, args ...any)) {
	if c.Project.ID != "" && !projectIDPattern.MatchString(c.Project.ID) {
		bad("Project.ID", "%q: use 1 to 64 letters, digits, '-' or '_' (it names the project's subjects)", c.Project.ID)
	}
	var methods []string
	for _, m := range []struct{ key, v string }{{"token", c.Bus.Token}, {"user", c.Bus.User}, {"nkey", c.Bus.NKey}, {"creds", c.Bus.Creds}} {
		if m.v != "" {
			methods = append(methods, m.key)
		}
	}
	if len(methods) > 1 {
		bad("Bus."+busField(methods[1]), "sets %s together: keep the one your NATS server expects", strings.Join(methods, " and "))
	}
	if c.Bus.Password != "" && c.Bus.User == "" {
		bad("Bus.Password", "needs bus.user")
	}
	if (c.Bus.TLSCert == "") != (c.Bus.TLSKey == "") {
		bad("Bus.TLSCert", "bus.tls_cert and bus.tls_key go together: set both or neither")
	}
	for _, f := range []struct{ field, path string }{
		{"Bus.NKey", c.Bus.NKey}, {"Bus.Creds", c.Bus.Creds}, {"Bus.TLSCA", c.Bus.TLSCA}, {"Bus.TLSCert", c.Bus.TLSCert}, {"Bus.TLSKey", c.Bus.TLSKey},
	} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(ExpandHome(f.path)); err != nil {
			bad(f.field, "%q cannot be read: %v", f.path, err)
		}
	}
}

func busField(key string) string {
	switch key {
	case "nkey":
		return "NKey"
	}
	return strings.ToUpper(key[:1]) + key[1:]
}

// ExpandHome turns a leading ~/ into the user's home directory.
func ExpandHome(path string) string {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return path
}

// busFieldKey names a [bus] or [project] field as a file writes it ("" when it is not one).
func busFieldKey(field string) string {
	keys := map[string]string{"Bus.Token": "bus.token", "Bus.User": "bus.user", "Bus.Password": "bus.password",
		"Bus.NKey": "bus.nkey", "Bus.Creds": "bus.creds", "Bus.TLSCA": "bus.tls_ca", "Bus.TLSCert": "bus.tls_cert",
		"Bus.TLSKey": "bus.tls_key", "Project.ID": "project.id"}
	return keys[field]
}

// BusSummary says in one line which [bus] credentials are set (never their values).
func (c *Config) BusSummary() string {
	var parts []string
	for _, s := range busSettings(c, nil) {
		if *s.to == "" || s.field == "Project.ID" {
			continue
		}
		v := *s.to
		if s.field == "Bus.Token" || s.field == "Bus.Password" {
			v = "(set)"
		}
		parts = append(parts, fmt.Sprintf("%s=%s", busFieldKey(s.field), v))
	}
	return strings.Join(parts, " ")
}
