package tools

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/troupe-dev/troupe/internal/safefs"
)

// openedPath is a path argument of a directory tool, checked and open for reading.
type openedPath struct {
	root string       // the workspace root, symlinks evaluated
	ws   *safefs.Root // every read resolves beneath it; the caller closes it
	rel  string       // the path relative to the root ("." for the root)
	info fs.FileInfo  // what the path is: a directory, or a file for the tools that take one
	// hidden are the credential paths inside the workspace (Env.Hidden), relative to root: a
	// walk never enters or lists them.
	hidden map[string]bool
}

// openDir is the path preamble of the tools that walk the workspace (glob, list_dir, grep).
// Its contract:
//   - p goes through the path policy (ResolvePath): inside the workspace, or refused;
//   - troupe's own state (.troupe/) is refused as for every read tool;
//   - the workspace is opened as a safefs.Root, so a symlink swapped in later cannot lead
//     out, and the path is looked up beneath it;
//   - a path that does not exist is answered with the nearest existing entries (missingPath),
//     one that leads outside or cannot be read with openFailure's words.
//
// Each failure is the tool's result (never a Go error). On success the caller closes ws and
// decides whether a file is acceptable where a directory was asked for.
func openDir(env *Env, tool, p string) (*openedPath, *Result) {
	fail := func(msg string) (*openedPath, *Result) {
		r := errorResult(msg)
		return nil, &r
	}
	_, rel, err := env.resolve(p)
	if err != nil {
		return fail(err.Error())
	}
	if refused := refuseTroupeState(p, rel); refused != nil {
		return nil, refused
	}
	root, err := env.root()
	if err != nil {
		return fail(err.Error())
	}
	ws, err := env.openRoot()
	if err != nil {
		return fail(fmt.Sprintf("%s %s: %v", tool, rel, err))
	}
	info, err := ws.Stat(rel)
	if err != nil {
		ws.Close()
		if errors.Is(err, fs.ErrNotExist) {
			return fail(missingPath(root, rel))
		}
		return fail(openFailure(tool, p, rel, err))
	}
	return &openedPath{root: root, ws: ws, rel: rel, info: info, hidden: env.hiddenWithin(root)}, nil
}
