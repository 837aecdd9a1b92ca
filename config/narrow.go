package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// A project's troupe.toml comes with the repository, so whoever wrote the repository wrote it:
// it may narrow what troupe allows (a stricter mode, more ask and deny rules) but never widen
// it. Widening settings in a project file are ignored with a warning, unless the user's own
// config lists the project in trusted_projects (or a flag or TROUPE_* variable sets the value,
// as those come later). Widening means: a more permissive mode, the sandbox off, allow rules,
// and base_url or nats (they would send the user's API key or the sessions elsewhere).

// modeRank orders the modes from strictest to most permissive.
var modeRank = map[string]int{"plan": 0, "ask": 1, "auto-edit": 2, "yolo": 3}

// narrowProject drops from the project layer l every setting that would widen c (the
// configuration so far, from defaults and the user file) and returns one warning line for
// each. projectFile names the file in the warnings.
func (l *layer) narrowProject(c *Config, projectFile string) []string {
	hint := func(flag string) string {
		how := fmt.Sprintf("add %q to trusted_projects in your user config", filepath.Dir(projectFile))
		if flag != "" {
			how = "pass " + flag + ", or " + how
		}
		return how
	}
	var warnings []string
	ignore := func(what, flag string) {
		warnings = append(warnings, fmt.Sprintf("%s: ignored %s: a project file may narrow permissions but not widen them; to allow it, %s",
			projectFile, what, hint(flag)))
	}
	if l.Mode != nil {
		from, to := modeRank[strings.TrimSpace(c.Mode)], modeRank[strings.TrimSpace(*l.Mode)]
		if _, known := modeRank[*l.Mode]; known && to > from {
			ignore(fmt.Sprintf("mode = %q (more permissive than %q)", *l.Mode, c.Mode), "--mode "+*l.Mode)
			l.Mode = nil
		}
	}
	if m := l.sandboxMode(); m != nil && strings.TrimSpace(*m) == "off" && c.Sandbox != "off" {
		ignore(`sandbox = "off"`, "--sandbox off")
		l.Sandbox.Mode = nil
	}
	if l.Sandbox != nil && len(l.Sandbox.AllowRead) > 0 {
		ignore(fmt.Sprintf("sandbox.allow_read = %q (commands would read those credentials)", l.Sandbox.AllowRead), "")
		l.Sandbox.AllowRead = nil
	}
	if len(l.Permissions.Allow) > 0 {
		ignore(fmt.Sprintf("permissions.allow = %q", l.Permissions.Allow), "")
		l.Permissions.Allow = nil
	}
	if l.BaseURL != nil && *l.BaseURL != c.BaseURL {
		ignore(fmt.Sprintf("base_url = %q (your API key would be sent there)", *l.BaseURL), "--base-url "+*l.BaseURL)
		l.BaseURL = nil
	}
	if l.NATS != nil && *l.NATS != c.NATS {
		ignore(fmt.Sprintf("nats = %q (sessions would be sent there)", *l.NATS), "--nats "+*l.NATS)
		l.NATS = nil
	}
	if l.Web.SearchURL != nil || l.Web.SearchKeyEnv != nil || l.Web.SearchProvider != nil || l.Web.SearchServer != nil || l.Web.SearchTool != nil {
		ignore("web.search_* (your search API key would be sent where the project says)", "")
		l.Web.SearchURL, l.Web.SearchKeyEnv, l.Web.SearchProvider, l.Web.SearchServer, l.Web.SearchTool = nil, nil, nil, nil, nil
	}
	if len(l.Web.AllowHosts) > 0 {
		ignore(fmt.Sprintf("web.allow_hosts = %q (web_fetch could reach this machine's network)", l.Web.AllowHosts), "")
		l.Web.AllowHosts = nil
	}
	for _, what := range l.narrowBus() {
		ignore(what, "")
	}
	if len(l.TrustedProjects) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: ignored trusted_projects: only your user config may trust projects", projectFile))
		l.TrustedProjects = nil
	}
	return warnings
}

// trusts reports whether the user config lists the project of projectFile as trusted.
func (c *Config) trusts(projectFile string) bool {
	dir := filepath.Clean(filepath.Dir(projectFile))
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	return slices.ContainsFunc(c.TrustedProjects, func(p string) bool {
		p = filepath.Clean(p)
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		return p == dir || p == real
	})
}
