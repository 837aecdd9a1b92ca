package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

const globMaxResults = 200

type globTool struct{}

func (globTool) Spec() Spec {
	return Spec{
		Name:        "glob",
		Description: "Find files by path pattern (*, ?, [..], ** across directories, {a,b}), newest first. Skips .gitignored files.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"pattern":{"type":"string","description":"e.g. **/*.go or src/**/*_test.{ts,tsx}"},` +
			`"path":{"type":"string","description":"directory the pattern is relative to (default: the root)"}},` +
			`"required":["pattern"],"additionalProperties":false}`),
		Risk:     RiskRead,
		PathArgs: []string{"path"},
	}
}

type globArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
}

func (globTool) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a globArgs
	if bad := decodeArgs("glob", raw, &a); bad != nil {
		return *bad
	}
	if strings.HasPrefix(a.Pattern, "/") {
		return errorResult(fmt.Sprintf("glob pattern %q is absolute; patterns are relative to path (the workspace root by default)", a.Pattern))
	}
	pattern, err := compileGlob(a.Pattern)
	if err != nil {
		return errorResult(err.Error())
	}
	dir, failed := openDir(env, "glob", a.Path)
	if failed != nil {
		return *failed
	}
	defer dir.ws.Close()
	ws, baseRel := dir.ws, dir.rel
	if !dir.info.IsDir() {
		return errorResult(fmt.Sprintf("%s is a file; path must be a directory", baseRel))
	}
	type hit struct {
		rel   string
		mtime time.Time
	}
	var hits []hit
	maxDepth := pattern.maxDepth()
	err = walkWorkspace(ctx, ws, baseRel, dir.hidden, func(rel string, d fs.DirEntry) error {
		sub := relativeTo(baseRel, rel)
		if d.IsDir() {
			if maxDepth >= 0 && strings.Count(sub, "/")+1 >= maxDepth {
				return fs.SkipDir
			}
			return nil
		}
		if !pattern.match(sub) {
			return nil
		}
		var mtime time.Time
		if info, err := d.Info(); err == nil {
			mtime = info.ModTime()
		}
		hits = append(hits, hit{rel, mtime})
		return nil
	})
	if !isStop(err) {
		return errorResult(openFailure("glob", a.Path, baseRel, err))
	}
	if len(hits) == 0 {
		msg := fmt.Sprintf("no files match %q under %s", a.Pattern, baseRel)
		if !strings.Contains(a.Pattern, "/") {
			msg += fmt.Sprintf(" (a pattern without / matches only directly under path; use **/%s to search subdirectories)", a.Pattern)
		}
		return Result{Output: msg}
	}
	sort.Slice(hits, func(i, j int) bool {
		if !hits[i].mtime.Equal(hits[j].mtime) {
			return hits[i].mtime.After(hits[j].mtime)
		}
		return hits[i].rel < hits[j].rel
	})
	var out strings.Builder
	for i, h := range hits {
		if i == globMaxResults {
			fmt.Fprintf(&out, "(%d more matches not shown; narrow the pattern or path)\n", len(hits)-globMaxResults)
			break
		}
		out.WriteString(h.rel)
		out.WriteByte('\n')
	}
	return Result{Output: out.String()}
}

// relativeTo returns rel (relative to the root) relative to base (also relative to the root).
func relativeTo(base, rel string) string {
	if base == "." {
		return rel
	}
	return strings.TrimPrefix(rel, path.Clean(base)+"/")
}
