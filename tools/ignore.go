package tools

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"

	gitignore "github.com/sabhiram/go-gitignore"

	"github.com/troupe-dev/troupe/internal/safefs"
)

// alwaysSkipped are directories no listing or search ever enters: git's internals and
// troupe's own state.
var alwaysSkipped = map[string]bool{".git": true, ".troupe": true}

// ignorer answers whether a workspace path is ignored by the .gitignore files of the
// directories above it (the root's and nested ones). It loads each .gitignore once; it is
// used by one call and not shared.
type ignorer struct {
	ws    *safefs.Root
	cache map[string]*gitignore.GitIgnore
	// gitignoreOff is set when the walk starts inside an ignored directory: the model asked
	// for it by name, so only .git and .troupe stay hidden.
	gitignoreOff bool
}

func newIgnorer(ws *safefs.Root) *ignorer {
	return &ignorer{ws: ws, cache: map[string]*gitignore.GitIgnore{}}
}

// ignored reports whether rel (slash-separated, relative to the root) is skipped.
func (g *ignorer) ignored(rel string, isDir bool) bool {
	if alwaysSkipped[path.Base(rel)] {
		return true
	}
	if g.gitignoreOff {
		return false
	}
	for dir := path.Dir(rel); ; dir = path.Dir(dir) {
		if gi := g.load(dir); gi != nil {
			sub := rel
			if dir != "." {
				sub = rel[len(dir)+1:]
			}
			if isDir {
				sub += "/"
			}
			if gi.MatchesPath(sub) {
				return true
			}
		}
		if dir == "." || dir == "/" {
			return false
		}
	}
}

func (g *ignorer) load(dir string) *gitignore.GitIgnore {
	if gi, ok := g.cache[dir]; ok {
		return gi
	}
	var gi *gitignore.GitIgnore // no .gitignore here (or unreadable): nothing ignored at this level
	if data, err := g.ws.ReadFile(path.Join(dir, ".gitignore")); err == nil {
		gi = gitignore.CompileIgnoreLines(strings.Split(string(data), "\n")...)
	}
	g.cache[dir] = gi
	return gi
}

// walkWorkspace walks the tree under startRel (relative to the workspace handle ws), skipping
// what .gitignore, .git and .troupe exclude, and calls visit with each entry's path relative to
// the root. Every directory is read through ws, so a directory swapped for a symlink mid-walk
// is refused, never followed out. Symlinks are reported, never followed. visit may return
// fs.SkipDir or fs.SkipAll. Unreadable directories below start are skipped; ctx cancellation
// stops the walk.
func walkWorkspace(ctx context.Context, ws *safefs.Root, startRel string, visit func(rel string, d fs.DirEntry) error) error {
	ig := newIgnorer(ws)
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
