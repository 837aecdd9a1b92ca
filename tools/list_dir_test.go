package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestListDir(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{
		".gitignore":              "*.log\nbuild/\n",
		"README.md":               "",
		"app.log":                 "",
		"build/out.bin":           "",
		"cmd/tool/main.go":        "",
		"cmd/tool/deep/er/x.go":   "",
		"web/.gitignore":          "dist\n",
		"web/dist/bundle.js":      "",
		"web/src/index.ts":        "",
		".git/HEAD":               "",
		".troupe/db/000.vlog":     "",
		"docs/guide.md":           "",
		"docs/notes/draft.log":    "",
		"docs/notes/keep.md":      "",
		"empty/":                  "",
		"empty-but-ignored/a.log": "",
	})
	mustSymlink(t, "docs/guide.md", filepath.Join(env.Root, "guide-link"))
	tests := []struct {
		name, args string
		isError    bool
		golden     string
		want       []string
	}{
		{name: "root default depth", args: `{}`, golden: "list_dir_root.txt"},
		{name: "subdir depth 5", args: `{"path":"cmd","depth":5}`, golden: "list_dir_cmd.txt"},
		{name: "depth over max is clamped", args: `{"path":"cmd","depth":50}`, golden: "list_dir_cmd.txt"},
		{name: "nested gitignore", args: `{"path":"web","depth":3}`, want: []string{"src/\n  index.ts"}},
		{name: "empty dir", args: `{"path":"empty"}`, want: []string{"(empty, or everything in it is ignored)"}},
		{name: "an ignored dir asked for by name", args: `{"path":"build"}`, want: []string{"build/\nout.bin\n"}},
		{name: "a file", args: `{"path":"README.md"}`, isError: true, want: []string{"README.md is a file, not a directory; use read_file"}},
		{name: "missing", args: `{"path":"doc"}`, isError: true, want: []string{"doc does not exist; similar names: docs/"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, env, "list_dir", tc.args)
			if res.IsError != tc.isError {
				t.Fatalf("IsError = %v, want %v: %s", res.IsError, tc.isError, res.Output)
			}
			mustContain(t, res.Output, tc.want...)
			if tc.golden != "" {
				golden(t, tc.golden, res.Output)
			}
			for _, never := range []string{".git/", ".troupe", "app.log", "build/", "dist", "draft.log"} {
				if tc.name == "an ignored dir asked for by name" {
					break
				}
				if strings.Contains(res.Output, never) {
					t.Errorf("listing shows %q, which is ignored:\n%s", never, res.Output)
				}
			}
		})
	}
}

func TestListDirBoundsEntries(t *testing.T) {
	env := newEnv(t)
	for i := range listMaxEntries + 50 {
		writeFiles(t, env.Root, map[string]string{fmt.Sprintf("f%04d", i): ""})
	}
	res := call(t, env, "list_dir", `{}`)
	if n := strings.Count(res.Output, "\n"); n > listMaxEntries+2 {
		t.Errorf("%d lines listed, want at most %d entries", n, listMaxEntries)
	}
	mustContain(t, res.Output, "(50 more entries not shown")
	if err := os.RemoveAll(env.Root); err != nil {
		t.Fatal(err)
	}
}
