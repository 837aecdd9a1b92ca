package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path"
	"strings"

	"github.com/troupe-dev/troupe/internal/safefs"
	"github.com/troupe-dev/troupe/internal/textfmt"
)

const (
	grepMaxMatches   = 200
	grepMaxContext   = 10
	grepMaxLineBytes = 500
	// grepCountLimit is where counting the matches left out stops.
	grepCountLimit = 10_000
)

// grepTool searches file contents: with ripgrep when it is on PATH, else in Go; both give the
// same output.
type grepTool struct {
	// noRipgrep forces the Go search (tests compare the two).
	noRipgrep bool
}

func (grepTool) Spec() Spec {
	return Spec{
		Name:        "grep",
		Description: "Search file contents with a regular expression (RE2/Rust syntax). Prints path:line:text, context lines as path-line-text. Skips .gitignored and binary files.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"pattern":{"type":"string","description":"regular expression; (?i) for case-insensitive"},` +
			`"path":{"type":"string","description":"file or directory to search (default: the root)"},` +
			`"glob":{"type":"string","description":"only files matching this glob, e.g. *.go or src/**/*.ts"},` +
			`"context":{"type":"integer","minimum":0,"maximum":10,"description":"lines of context around each match"}},` +
			`"required":["pattern"],"additionalProperties":false}`),
		Risk:     RiskRead,
		PathArgs: []string{"path"},
	}
}

type grepArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
	Glob    string `json:"glob"`
	Context int    `json:"context"`
}

// grepSearch is one search, whichever engine runs it.
type grepSearch struct {
	root    string       // resolved workspace root
	ws      *safefs.Root // the workspace handle every file is opened beneath
	rel     string       // the file or directory searched, relative to root
	isFile  bool
	args    grepArgs
	environ []string
	hidden  map[string]bool // credential paths relative to root, never searched
}

func (t grepTool) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a grepArgs
	if bad := decodeArgs("grep", raw, &a); bad != nil {
		return *bad
	}
	a.Context = min(max(a.Context, 0), grepMaxContext)
	dir, failed := openDir(env, "grep", a.Path)
	if failed != nil {
		return *failed
	}
	defer dir.ws.Close()
	s := &grepSearch{root: dir.root, ws: dir.ws, rel: dir.rel, isFile: !dir.info.IsDir(), args: a, environ: env.commandEnviron(), hidden: dir.hidden}
	var (
		hits *grepHits
		err  error
	)
	if rg, lookErr := exec.LookPath("rg"); lookErr == nil && !t.noRipgrep && !s.isFile {
		hits, err = s.ripgrep(ctx, rg)
	} else {
		hits, err = s.goSearch(ctx)
	}
	if err != nil {
		return errorResult(err.Error())
	}
	return Result{Output: hits.format(a)}
}

// grepHits collects matches up to grepMaxMatches and counts the rest.
type grepHits struct {
	files   []*grepFile
	matches int // all matches seen, kept or not
	kept    int
}

type grepFile struct {
	rel   string
	lines []grepLine
}

type grepLine struct {
	num   int
	text  string
	match bool
}

// add records a line of rel; it reports false once counting should stop.
func (h *grepHits) add(rel string, num int, text string, match bool) bool {
	if match {
		h.matches++
	}
	if h.kept >= grepMaxMatches {
		return h.matches < grepCountLimit
	}
	if match {
		h.kept++
	}
	if len(h.files) == 0 || h.files[len(h.files)-1].rel != rel {
		h.files = append(h.files, &grepFile{rel: rel})
	}
	f := h.files[len(h.files)-1]
	text = strings.TrimRight(text, "\r\n")
	if len(text) > grepMaxLineBytes {
		text = textfmt.TrimPartialRune(text[:grepMaxLineBytes]) + "…"
	}
	f.lines = append(f.lines, grepLine{num: num, text: text, match: match})
	return true
}

func (h *grepHits) format(a grepArgs) string {
	if h.matches == 0 {
		where := a.Path
		if where == "" {
			where = "the workspace"
		}
		return fmt.Sprintf("no matches for %q in %s", a.Pattern, where)
	}
	var out strings.Builder
	for i, f := range h.files {
		if i > 0 && a.Context > 0 {
			out.WriteString("--\n")
		}
		for j, l := range f.lines {
			if j > 0 && l.num > f.lines[j-1].num+1 && a.Context > 0 {
				out.WriteString("--\n")
			}
			sep := "-"
			if l.match {
				sep = ":"
			}
			fmt.Fprintf(&out, "%s%s%d%s%s\n", f.rel, sep, l.num, sep, l.text)
		}
	}
	switch left := h.matches - h.kept; {
	case h.matches >= grepCountLimit:
		fmt.Fprintf(&out, "(showing %d matches; at least %d more not shown: narrow the pattern, path or glob)\n", h.kept, left)
	case left > 0:
		fmt.Fprintf(&out, "(showing %d of %d matches; %d more not shown: narrow the pattern, path or glob)\n", h.kept, h.matches, left)
	}
	return out.String()
}

// globFilter is grep's file filter: a glob without / matches the file name at any depth (as
// in ripgrep), one with / matches the path relative to the searched directory; a leading !
// excludes.
type globFilter struct {
	pattern *globPattern
	byName  bool
	negate  bool
}

func newGlobFilter(glob string) (*globFilter, error) {
	if glob == "" {
		return nil, nil
	}
	f := &globFilter{}
	if strings.HasPrefix(glob, "!") {
		f.negate, glob = true, glob[1:]
	}
	f.byName = !strings.Contains(glob, "/")
	p, err := compileGlob(strings.TrimPrefix(glob, "/"))
	if err != nil {
		return nil, err
	}
	f.pattern = p
	return f, nil
}

// admits reports whether the file sub (relative to the searched directory) is searched.
func (f *globFilter) admits(sub string) bool {
	if f == nil {
		return true
	}
	name := sub
	if f.byName {
		name = path.Base(sub)
	}
	return f.pattern.match(name) != f.negate
}
