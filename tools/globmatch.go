package tools

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// maxGlobAlternatives bounds brace expansion ({a,b}{c,d}… multiplies the work of a match).
const maxGlobAlternatives = 64

// globPattern matches slash-separated relative paths: * ? [..] within a segment, ** across
// any number of segments, {a,b} alternatives (doublestar's syntax).
type globPattern struct {
	pattern string
}

func compileGlob(pattern string) (*globPattern, error) {
	pattern = strings.TrimPrefix(pattern, "./")
	for _, seg := range strings.Split(pattern, "/") {
		if seg == ".." {
			return nil, fmt.Errorf("glob %q: '..' is not allowed; patterns are relative to the search path", pattern)
		}
	}
	if !doublestar.ValidatePattern(pattern) {
		return nil, fmt.Errorf("glob %q: bad segment %q (an unclosed '[' or '{'?)", pattern, firstBadSegment(pattern))
	}
	if n := braceAlternatives(pattern); n > maxGlobAlternatives {
		return nil, fmt.Errorf("glob %q: too many {…} alternatives (%d, max %d)", pattern, n, maxGlobAlternatives)
	}
	return &globPattern{pattern: pattern}, nil
}

// firstBadSegment names the segment to fix in an invalid pattern (the whole pattern when the
// fault spans segments, as an unclosed '{' can).
func firstBadSegment(pattern string) string {
	for _, seg := range strings.Split(pattern, "/") {
		if !doublestar.ValidatePattern(seg) {
			return seg
		}
	}
	return pattern
}

// match reports whether rel matches the pattern.
func (g *globPattern) match(rel string) bool {
	ok, _ := doublestar.Match(g.pattern, rel)
	return ok
}

// maxDepth is how many segments a match can have, or -1 when ** makes it unbounded. Every
// brace alternative's slashes are slashes of the pattern, so their count bounds the depth.
func (g *globPattern) maxDepth() int {
	if strings.Contains(g.pattern, "**") {
		return -1
	}
	return strings.Count(g.pattern, "/") + 1
}

// braceAlternatives counts the paths a pattern's {…} groups expand to (groups multiply;
// alternatives inside a group add).
func braceAlternatives(pattern string) int {
	type group struct{ sum, product int }
	stack := []group{{sum: 0, product: 1}}
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case '{':
			stack = append(stack, group{sum: 0, product: 1})
		case ',':
			if len(stack) > 1 {
				top := &stack[len(stack)-1]
				top.sum += top.product
				top.product = 1
			}
		case '}':
			if len(stack) > 1 {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				stack[len(stack)-1].product *= top.sum + top.product
			}
		}
	}
	return stack[0].product
}
