package sandbox

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Credentials are hidden from every command (and refused to the file tools): a prompt
// injection in an untrusted repository must not be able to hand the model an SSH key. These
// are the places the usual tools keep them, relative to $HOME (see docs/ARCHITECTURE.md,
// "Permissions").
var defaultHidden = []string{
	".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker/config.json",
	".netrc", ".git-credentials", ".config/gh", ".npmrc", ".pypirc",
	".cargo/credentials", ".cargo/credentials.toml", ".password-store",
	// Browser profiles: cookies and saved passwords.
	".mozilla", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
	".config/microsoft-edge", ".config/vivaldi", ".config/opera", "snap/firefox", "snap/chromium",
	"Library/Application Support/Google/Chrome", "Library/Application Support/Firefox",
}

// HiddenPaths is the absolute, existing paths commands may not read, for a session in
// workspace: the default list under home, troupe's own user config dir when a file there
// holds a key, the .env* files in home and in the workspace's parent directories, plus deny
// (absolute or ~/ paths), minus allow. It reads directories, so call it off any actor's
// Receive (once per session).
func HiddenPaths(home, workspace, troupeConfigDir string, deny, allow []string) []string {
	set := map[string]bool{}
	add := func(p string) {
		if _, err := os.Lstat(p); err == nil {
			set[filepath.Clean(p)] = true
			if real, err := filepath.EvalSymlinks(p); err == nil {
				set[real] = true // reached through a link, it is still hidden
			}
		}
	}
	if home != "" {
		for _, rel := range defaultHidden {
			add(filepath.Join(home, rel))
		}
		addEnvFiles(home, add)
	}
	if troupeConfigDir != "" && holdsKey(troupeConfigDir) {
		add(troupeConfigDir)
	}
	if workspace != "" {
		for dir := filepath.Dir(filepath.Clean(workspace)); ; dir = filepath.Dir(dir) {
			addEnvFiles(dir, add)
			if dir == filepath.Dir(dir) {
				break
			}
		}
	}
	for _, p := range deny {
		add(expandHome(p, home))
	}
	for _, p := range allow {
		delete(set, filepath.Clean(expandHome(p, home)))
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// addEnvFiles adds dir's .env* files (dotenv files hold keys by convention).
func addEnvFiles(dir string, add func(string)) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".env") && !e.IsDir() {
			add(filepath.Join(dir, e.Name()))
		}
	}
}

// holdsKey reports whether a file directly in dir mentions an API key or token.
func holdsKey(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || len(data) > 1<<20 {
			continue
		}
		s := strings.ToLower(string(data))
		if strings.Contains(s, "api_key") || strings.Contains(s, "apikey") || strings.Contains(s, "token") {
			return true
		}
	}
	return false
}

func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(home, rest)
	}
	return p
}

// IsHidden reports whether the absolute path p is one of hidden or beneath one.
func IsHidden(p string, hidden []string) (string, bool) {
	p = filepath.Clean(p)
	for _, h := range hidden {
		if p == h || strings.HasPrefix(p, h+string(filepath.Separator)) {
			return h, true
		}
	}
	return "", false
}
