// Package syntaxcheck checks a file's syntax after the agent wrote it, so a broken edit is
// reported at once with the line, column and a caret, not turns later by a failing build.
// Go, JSON, YAML and TOML are parsed in process; Python, JavaScript and shell scripts are
// checked by python3, node and bash when those are installed.
package syntaxcheck

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/textfmt"
)

// DefaultTimeout bounds one external check.
const DefaultTimeout = 5 * time.Second

// maxBytes is the largest file checked; bigger files are skipped (generated data, mostly).
const maxBytes = 4 << 20

// Problem is the first syntax error found in a file.
type Problem struct {
	Path      string // as shown to the model
	Line, Col int    // 1-based; Col 0 when the checker does not say
	Msg       string
	Source    string // the offending line, when known
	// Near says Line is only roughly where the error is (the YAML parser reports the line
	// of the enclosing construct, sometimes counted from 0), so no snippet is shown.
	Near bool
}

// String is "path:line:col: msg" then the line and a caret under the column.
func (p Problem) String() string {
	if p.Near {
		return fmt.Sprintf("%s: near line %d: %s", p.Path, p.Line, p.Msg)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d", p.Path, p.Line)
	if p.Col > 0 {
		fmt.Fprintf(&b, ":%d", p.Col)
	}
	fmt.Fprintf(&b, ": %s", p.Msg)
	if p.Source == "" {
		return b.String()
	}
	fmt.Fprintf(&b, "\n    %s", textfmt.ClipRunes(p.Source, 161)) // 160 runes and the mark
	if p.Col > 0 {
		// A column past the end (an unexpected end of file) points just after the line.
		b.WriteString("\n    " + caretPad(p.Source, min(p.Col, len(p.Source)+1)) + "^")
	}
	return b.String()
}

// caretPad is the indentation that puts a caret under byte column col of line: tabs stay
// tabs, every other rune before it becomes one space.
func caretPad(line string, col int) string {
	var b strings.Builder
	for _, r := range line[:min(col-1, len(line))] {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// Checker checks files. The zero value is ready: it runs the external checkers it finds on
// PATH directly, each bounded by DefaultTimeout.
type Checker struct {
	// Timeout bounds one external check; 0 means DefaultTimeout.
	Timeout time.Duration
	// Runner runs external checkers (a sandbox, a fixed environment); nil runs them directly.
	Runner Runner
	// LookPath finds a checker's binary; nil means exec.LookPath.
	LookPath func(file string) (string, error)
}

// Check reports the first syntax error in content, the file at absPath shown as path. It
// returns nil when the file parses, when its kind is not checked, or when the checker for
// it is not installed. err is set only when a checker could not run to the end.
func (c *Checker) Check(ctx context.Context, absPath, path string, content []byte) (*Problem, error) {
	if len(content) > maxBytes {
		return nil, nil
	}
	var p *Problem
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".go":
		p = checkGo(path, content)
	case ".json":
		p = checkJSON(content)
	case ".yaml", ".yml":
		p = checkYAML(content)
	case ".toml":
		p = checkTOML(content)
	case ".py":
		p, err = c.external(ctx, pythonCheck, absPath)
	case ".js":
		p, err = c.external(ctx, nodeCheck, absPath)
		if p == nil && err == nil && esmSyntax.Match(content) {
			// node --check passes any .js with ESM syntax unchecked when module detection
			// is on (v20.20: `export const a = {b: 1,,}` exits 0); read it as a module.
			p, err = c.external(ctx, nodeModuleCheck, absPath)
		}
	case ".mjs", ".cjs":
		p, err = c.external(ctx, nodeCheck, absPath)
	case ".sh", ".bash":
		p, err = c.external(ctx, bashCheck, absPath)
	}
	if p == nil {
		return nil, err
	}
	p.Path = path
	if p.Source == "" && p.Line > 0 && !p.Near {
		p.Source = lineOf(content, p.Line)
	}
	return p, nil
}

// lineOf is the 1-based line n of content without its newline, or "".
func lineOf(content []byte, n int) string {
	lines := strings.SplitN(string(content), "\n", n+1)
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimRight(lines[n-1], "\r")
}

// lineCol is the 1-based line and byte column of offset in content.
func lineCol(content []byte, offset int) (int, int) {
	offset = min(max(offset, 0), len(content))
	line, start := 1, 0
	for i := 0; i < offset; i++ {
		if content[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, offset - start + 1
}
