package tools

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/troupe-dev/troupe/internal/safefs"
)

// alwaysSkipped are directories no listing or search ever enters: git's internals and
// troupe's own state.
var alwaysSkipped = map[string]bool{".git": true, ".troupe": true}

// ignorer answers whether a workspace path is ignored by the .gitignore files of the
// directories above it (the root's and nested ones, each scoped to its own subtree, deeper
// files taking precedence as in git). It loads each .gitignore once; it is used by one call
// and not shared.
type ignorer struct {
	ws *safefs.Root
	// chain holds, per directory, the patterns of every .gitignore from the root down to it.
	chain map[string][]gitignore.Pattern
	// hidden are credential paths (relative to the root) skipped like .troupe.
	hidden map[string]bool
	// gitignoreOff is set when the walk starts inside an ignored directory: the model asked
	// for it by name, so only .git and .troupe stay hidden.
	gitignoreOff bool
}

func newIgnorer(ws *safefs.Root) *ignorer {
	return &ignorer{ws: ws, chain: map[string][]gitignore.Pattern{}}
}

// ignored reports whether rel (slash-separated, relative to the root) is skipped.
func (g *ignorer) ignored(rel string, isDir bool) bool {
	if alwaysSkipped[path.Base(rel)] || g.hidden[rel] {
		return true
	}
	if g.gitignoreOff {
		return false
	}
	patterns := g.patterns(path.Dir(rel))
	if len(patterns) == 0 {
		return false
	}
	return gitignore.NewMatcher(patterns).Match(strings.Split(rel, "/"), isDir)
}

// patterns returns the patterns that apply inside dir ("." for the root), root's first.
func (g *ignorer) patterns(dir string) []gitignore.Pattern {
	if ps, ok := g.chain[dir]; ok {
		return ps
	}
	var inherited []gitignore.Pattern
	var domain []string
	if dir != "." && dir != "/" {
		inherited = g.patterns(path.Dir(dir))
		domain = strings.Split(dir, "/")
	}
	own := readGitignore(g.ws, path.Join(dir, ".gitignore"), domain)
	ps := inherited
	if len(own) > 0 {
		ps = append(append(make([]gitignore.Pattern, 0, len(inherited)+len(own)), inherited...), own...)
	}
	g.chain[dir] = ps
	return ps
}

// readGitignore parses one .gitignore (workspace-relative, read beneath ws); a missing or
// unreadable file ignores nothing.
func readGitignore(ws *safefs.Root, file string, domain []string) []gitignore.Pattern {
	data, err := ws.ReadFile(file)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// walkWorkspace walks the tree under startRel (relative to the workspace handle ws), skipping
// what .gitignore, .git and .troupe exclude, and calls visit with each entry's path relative to
// the root, and skipping the hidden credential paths (relative to the root). Every directory is read through ws, so a directory swapped for a symlink mid-walk
// is refused, never followed out. Symlinks are reported, never followed. visit may return
// fs.SkipDir or fs.SkipAll. Unreadable directories below start are skipped; ctx cancellation
// stops the walk.
func walkWorkspace(ctx context.Context, ws *safefs.Root, startRel string, hidden map[string]bool, visit func(rel string, d fs.DirEntry) error) error {
	ig := newIgnorer(ws)
	ig.hidden = hidden
	if startRel != "." {
		ig.gitignoreOff = ig.ignored(startRel, true)
	}
	return fs.WalkDir(ws.FS(), startRel, func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			if p == startRel {
				return err
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p == startRel {
			return nil
		}
		if ig.ignored(p, d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		return visit(p, d)
	})
}

// isStop reports whether err only says a walk was ended on purpose.
func isStop(err error) bool { return err == nil || errors.Is(err, fs.SkipAll) }
