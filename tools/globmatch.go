package tools

import (
	"fmt"
	"path"
	"strings"
)

// maxGlobAlternatives bounds brace expansion ({a,b}{c,d}… multiplies).
const maxGlobAlternatives = 64

// globPattern matches slash-separated relative paths: * ? [..] within a segment, ** across
// any number of segments, {a,b} alternatives.
type globPattern struct {
	alternatives [][]string // each split into segments
}

func compileGlob(pattern string) (*globPattern, error) {
	alts, err := expandBraces(pattern)
	if err != nil {
		return nil, err
	}
	g := &globPattern{}
	for _, alt := range alts {
		alt = strings.TrimPrefix(alt, "./")
		segs := strings.Split(alt, "/")
		for _, s := range segs {
			if s == ".." {
				return nil, fmt.Errorf("glob %q: '..' is not allowed; patterns are relative to the search path", pattern)
			}
			if _, err := path.Match(s, ""); err != nil {
				return nil, fmt.Errorf("glob %q: bad segment %q: %w", pattern, s, err)
			}
		}
		g.alternatives = append(g.alternatives, segs)
	}
	return g, nil
}

// match reports whether rel matches the pattern.
func (g *globPattern) match(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, alt := range g.alternatives {
		if matchSegments(alt, parts) {
			return true
		}
	}
	return false
}

// maxDepth is how many segments a match can have, or -1 when ** makes it unbounded.
func (g *globPattern) maxDepth() int {
	depth := 0
	for _, alt := range g.alternatives {
		for _, s := range alt {
			if s == "**" {
				return -1
			}
		}
		depth = max(depth, len(alt))
	}
	return depth
}

func matchSegments(pat, parts []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			for i := 0; i <= len(parts); i++ {
				if matchSegments(pat[1:], parts[i:]) {
					return true
				}
			}
			return false
		}
		if len(parts) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], parts[0]); !ok {
			return false
		}
		pat, parts = pat[1:], parts[1:]
	}
	return len(parts) == 0
}

// expandBraces turns "a.{go,md}" into ["a.go", "a.md"], innermost-first, nested allowed.
func expandBraces(pattern string) ([]string, error) {
	open := -1
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case '{':
			open = i
		case '}':
			if open < 0 {
				continue
			}
			var out []string
			for _, choice := range strings.Split(pattern[open+1:i], ",") {
				more, err := expandBraces(pattern[:open] + choice + pattern[i+1:])
				if err != nil {
					return nil, err
				}
				out = append(out, more...)
				if len(out) > maxGlobAlternatives {
					return nil, fmt.Errorf("glob %q: too many {…} alternatives (max %d)", pattern, maxGlobAlternatives)
				}
			}
			return out, nil
		}
	}
	return []string{pattern}, nil
}
