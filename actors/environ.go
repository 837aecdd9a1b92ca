package actors

import (
	"os"
	"sort"
	"strings"

	"github.com/troupe-dev/troupe/messages"
)

// defaultPassEnv are the variables tool commands inherit: what builds and tests need to find
// their toolchains, and nothing that looks like a credential.
var defaultPassEnv = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TZ",
	"GOPATH", "GOROOT", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOPRIVATE", "GOTOOLCHAIN",
	"CARGO_HOME", "RUSTUP_HOME", "JAVA_HOME", "NODE_PATH", "NVM_DIR", "PYENV_ROOT", "VIRTUAL_ENV",
	"SSL_CERT_FILE", "SSL_CERT_DIR",
}

// looksSecret reports whether a variable name looks like it holds a credential.
func looksSecret(name string) bool {
	u := strings.ToUpper(name)
	for _, s := range []string{"_API_KEY", "_TOKEN", "SECRET", "PASSWORD", "_KEY", "CREDENTIAL"} {
		if strings.Contains(u, s) {
			return true
		}
	}
	return false
}

// CommandEnviron builds the explicit environment of tool commands from the process environment
// (as os.Environ gives it): the default variables plus those named in pass, then set. Secrets
// are never inherited by default; a variable named in pass is passed even if it looks secret
// (the user asked for it), and set always wins.
func CommandEnviron(environ, pass []string, set map[string]string) []string {
	have := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			have[k] = v
		}
	}
	out := map[string]string{"TERM": "dumb", "NO_COLOR": "1", "GIT_TERMINAL_PROMPT": "0", "PAGER": "cat"}
	for _, k := range defaultPassEnv {
		if v, ok := have[k]; ok && !looksSecret(k) {
			out[k] = v
		}
	}
	for _, k := range pass {
		if v, ok := have[k]; ok {
			out[k] = v
		}
	}
	for k, v := range set {
		out[k] = v
	}
	keys := make([]string, 0, len(out))
	for k := range out {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	env := make([]string, 0, len(keys))
	for _, k := range keys {
		env = append(env, k+"="+out[k])
	}
	return env
}

// providerGetenv reads the provider variables of the client that started the session, or this
// process's environment when the client sent none (a node in the client's own process).
func providerGetenv(start *messages.StartSession) func(string) string { return clientGetenv(start.Env) }

// clientGetenv reads a client's provider variables (this process's when env is nil).
func clientGetenv(env *messages.ClientEnv) func(string) string {
	if env == nil {
		return os.Getenv
	}
	return func(k string) string { return env.Provider[k] }
}

// hookEnviron is the environment hooks run with: the client's, filtered on its side as tool
// commands' is, or this process's whole environment when the client sent none (a node in the
// client's own process: hooks are the user's own commands).
func hookEnviron(start *messages.StartSession) []string {
	if start.Env == nil {
		return os.Environ()
	}
	return start.Env.Environ
}

// commandEnviron is the environment of a session's tool commands: the client's, filtered on its
// side, or the node's own when the client sent none.
func (n *Node) commandEnviron(start *messages.StartSession) []string {
	if start.Env == nil {
		return n.opts.Environ
	}
	return start.Env.Environ
}
