package tools

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/troupe-dev/troupe/tools/shellparse"
)

// A permission pattern is "tool" or "tool(arg)". The tool part may use * (mcp__github__*).
// For bash, arg is a command glob: * matches any run of characters, \* a literal star. For
// the web tools, "domain:HOST" matches a URL whose host is HOST (*.HOST: any subdomain too).
// For other tools it is a path glob (see globPattern).
type permissionPattern struct {
	tool, arg string
	pathGlob  *globPattern // nil for bash and domain patterns
	domain    string       // a domain: pattern's host
}

func parsePattern(raw string) (permissionPattern, error) {
	s := strings.TrimSpace(raw)
	tool, arg, hasArg := strings.Cut(s, "(")
	p := permissionPattern{tool: strings.TrimSpace(tool)}
	if p.tool == "" {
		return p, fmt.Errorf("permission pattern %q: no tool name; write tool or tool(glob), e.g. bash(git status*)", raw)
	}
	if _, err := path.Match(p.tool, ""); err != nil {
		return p, fmt.Errorf("permission pattern %q: bad tool name: %w", raw, err)
	}
	if !hasArg {
		return p, nil
	}
	if !strings.HasSuffix(arg, ")") {
		return p, fmt.Errorf("permission pattern %q: missing the closing ')'", raw)
	}
	p.arg = strings.TrimSuffix(arg, ")")
	if p.arg == "" {
		return p, fmt.Errorf("permission pattern %q: empty (); write %s alone to match every call", raw, p.tool)
	}
	if host, ok := strings.CutPrefix(p.arg, "domain:"); ok {
		if host == "" || strings.ContainsAny(host, "/:") {
			return p, fmt.Errorf("permission pattern %q: domain: wants a host name such as example.com or *.example.com", raw)
		}
		p.domain = strings.ToLower(host)
		return p, nil
	}
	if p.tool != "bash" {
		g, err := compileGlob(p.arg)
		if err != nil {
			return p, fmt.Errorf("permission pattern %q: %w", raw, err)
		}
		p.pathGlob = g
	}
	return p, nil
}

// matchesHost says a domain pattern matches the host of rawURL.
func (p permissionPattern) matchesHost(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if parent, ok := strings.CutPrefix(p.domain, "*."); ok {
		return host == parent || strings.HasSuffix(host, "."+parent)
	}
	return host == p.domain
}

func (p permissionPattern) matchesTool(name string) bool {
	ok, _ := path.Match(p.tool, name)
	return ok
}

// matchBash matches a command against the bash patterns in pats, on the command as bash
// runs it (see tools/shellparse): each simple command after quote removal, wherever it sits
// and whatever wraps it. For a deny or ask list the whole command as written, or any simple
// command in it (also with a path-qualified program cut to its base name, /bin/rm as rm)
// matching is enough. For an allow list every simple command the line runs must be allowed
// as written, wrappers and redirections included; a line with a command substitution or
// with anything shellparse cannot know is allowed only by an exact pattern (no *) for the
// whole command as written, or a bare "bash".
func matchBash(pats []string, command string, script *shellparse.Script, allowing bool) (string, bool) {
	whole := normalizeCommand(command)
	type bashPattern struct {
		raw, glob string // glob "" matches every command
		wildcard  bool
	}
	var compiled []bashPattern // parsed once: a long line has many simple commands
	for _, raw := range pats {
		if pat, err := parsePattern(raw); err == nil && pat.matchesTool("bash") {
			compiled = append(compiled, bashPattern{raw: raw, glob: normalizeCommand(pat.arg), wildcard: hasWildcard(pat.arg)})
		}
	}
	matchOne := func(s string, exactOnly bool) (string, bool) {
		for _, p := range compiled {
			if p.glob == "" {
				return p.raw, true
			}
			if exactOnly && p.wildcard {
				continue
			}
			if matchCommandGlob(p.glob, s) {
				return p.raw, true
			}
		}
		return "", false
	}
	if !allowing {
		if raw, ok := matchOne(whole, false); ok {
			return raw, true
		}
		for _, c := range script.Commands {
			for _, s := range c.Texts() {
				if raw, ok := matchOne(s, false); ok {
					return raw, true
				}
			}
		}
		return "", false
	}
	if raw, ok := matchOne(whole, true); ok {
		return raw, true
	}
	if _, unknown := script.Unprovable(); unknown || script.Substitutes || len(script.Commands) == 0 {
		return "", false
	}
	first := ""
	for _, c := range script.Commands {
		if c.Wrapped {
			continue // listed whole already, wrapper and all
		}
		raw, ok := matchOne(c.TextWithRedirects(), false)
		if !ok {
			return "", false
		}
		if first == "" {
			first = raw
		}
	}
	return first, true
}

// unprovableUnder says why a bash call must go to a human: some deny or ask pattern names a
// command, and shellparse cannot prove which programs the line runs (Script.Unprovable).
func unprovableUnder(script *shellparse.Script, lists ...[]string) (string, bool) {
	why, unknown := script.Unprovable()
	if !unknown {
		return "", false
	}
	for _, list := range lists {
		for _, raw := range list {
			if pat, err := parsePattern(raw); err == nil && pat.matchesTool("bash") {
				return fmt.Sprintf("the pattern %s cannot be checked against this command: %s", raw, why), true
			}
		}
	}
	return "", false
}

// normalizeCommand collapses runs of whitespace, so extra spaces cannot dodge a pattern.
func normalizeCommand(s string) string { return strings.Join(strings.Fields(s), " ") }

// hasWildcard reports an unescaped * in a command glob.
func hasWildcard(glob string) bool {
	for i := 0; i < len(glob); i++ {
		switch glob[i] {
		case '\\':
			i++
		case '*':
			return true
		}
	}
	return false
}

// matchCommandGlob matches s against glob, where * matches any run of characters and \x is a
// literal x. It backtracks only to the last star, so it is linear-ish on long commands.
func matchCommandGlob(glob, s string) bool {
	type token struct {
		star bool
		c    byte
	}
	var toks []token
	for i := 0; i < len(glob); i++ {
		switch {
		case glob[i] == '*':
			toks = append(toks, token{star: true})
		case glob[i] == '\\' && i+1 < len(glob):
			i++
			toks = append(toks, token{c: glob[i]})
		default:
			toks = append(toks, token{c: glob[i]})
		}
	}
	ti, si, starT, starS := 0, 0, -1, 0
	for si < len(s) {
		switch {
		case ti < len(toks) && toks[ti].star:
			starT, starS = ti, si
			ti++
		case ti < len(toks) && toks[ti].c == s[si]:
			ti++
			si++
		case starT >= 0:
			starS++
			ti, si = starT+1, starS
		default:
			return false
		}
	}
	for ti < len(toks) && toks[ti].star {
		ti++
	}
	return ti == len(toks)
}

// escapeCommandGlob makes a command match itself only.
func escapeCommandGlob(s string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`).Replace(s)
}

// escapePathGlob makes a path match itself only.
func escapePathGlob(s string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`, `{`, `\{`).Replace(s)
}
