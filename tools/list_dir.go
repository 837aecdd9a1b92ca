package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/troupe-dev/troupe/internal/safefs"
)

const (
	listDefaultDepth = 2
	listMaxDepth     = 5
	listMaxEntries   = 400
	// listCountLimit bounds the walk that counts what was left out.
	listCountLimit = 100_000
)

type listDir struct{}

func (listDir) Spec() Spec {
	return Spec{
		Name:        "list_dir",
		Description: "List a directory as an indented tree (directories end with /). Skips .gitignored files, .git and .troupe.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"path":{"type":"string","description":"directory, relative to the workspace root (default: the root)"},` +
			`"depth":{"type":"integer","minimum":1,"description":"levels to descend (default 2, max 5)"}},` +
			`"additionalProperties":false}`),
		Risk:     RiskRead,
		PathArgs: []string{"path"},
	}
}

type listDirArgs struct {
	Path  string `json:"path"`
	Depth int    `json:"depth"`
}

func (listDir) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a listDirArgs
	if bad := decodeArgs("list_dir", raw, &a); bad != nil {
		return *bad
	}
	dir, failed := openDir(env, "list_dir", a.Path)
	if failed != nil {
		return *failed
	}
	defer dir.ws.Close()
	ws, rel := dir.ws, dir.rel
	if !dir.info.IsDir() {
		return errorResult(fmt.Sprintf("%s is a file, not a directory; use read_file to read it", rel))
	}
	depth := min(orDefault(a.Depth, listDefaultDepth), listMaxDepth)
	var out strings.Builder
	shown, left := 0, 0
	err := walkWorkspace(ctx, ws, rel, dir.hidden, func(entryRel string, d fs.DirEntry) error {
		level := strings.Count(strings.TrimPrefix(entryRel, rel+"/"), "/")
		if rel == "." {
			level = strings.Count(entryRel, "/")
		}
		if shown < listMaxEntries {
			shown++
			out.WriteString(strings.Repeat("  ", level))
			out.WriteString(entryLabel(ws, entryRel, d))
			out.WriteByte('\n')
		} else {
			left++
			if left >= listCountLimit {
				return fs.SkipAll
			}
		}
		if d.IsDir() && level+1 >= depth {
			return fs.SkipDir
		}
		return nil
	})
	if !isStop(err) {
		return errorResult(openFailure("list_dir", a.Path, rel, err))
	}
	header := rel + "/\n"
	if rel == "." {
		header = "./\n"
	}
	switch {
	case shown == 0:
		return Result{Output: header + "(empty, or everything in it is ignored)"}
	case left >= listCountLimit:
		fmt.Fprintf(&out, "(more than %d further entries not shown; list a subdirectory or use a lower depth)\n", left)
	case left > 0:
		fmt.Fprintf(&out, "(%d more entries not shown; list a subdirectory or use a lower depth)\n", left)
	}
	return Result{Output: header + out.String()}
}

// entryLabel is an entry's name as listed: directories end with /, symlinks show their target.
func entryLabel(ws *safefs.Root, rel string, d fs.DirEntry) string {
	name := d.Name()
	switch {
	case d.IsDir():
		return name + "/"
	case d.Type()&fs.ModeSymlink != 0:
		if target, err := ws.Readlink(rel); err == nil {
			return name + " -> " + target
		}
	}
	return name
}
