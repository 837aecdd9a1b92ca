package tools

import (
	"os"
	"path/filepath"
	"testing"
)

// openDir's contract, the same for the three directory tools: the path policy, the .troupe
// refusal, a missing path with its nearest entries, a symlink out refused, a file reported as
// a file, and a directory opened beneath the workspace handle.
func TestOpenDirContract(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{"src/main.go": "package main\n", ".troupe/node.json": "{}"})
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(env.Root, "out")); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"glob", "list_dir", "grep"} {
		for _, tc := range []struct {
			path   string
			fails  []string // the failure's words; nil: it opens
			rel    string
			isFile bool
		}{
			{path: "", rel: "."},
			{path: "src", rel: "src"},
			{path: "src/main.go", rel: "src/main.go", isFile: true},
			{path: "/etc", fails: []string{"/etc"}},
			{path: "../elsewhere", fails: []string{"elsewhere"}},
			{path: ".troupe", fails: []string{troupeStateRefusal}},
			{path: "sr", fails: []string{"sr does not exist", "src"}},
			{path: "out", fails: []string{"outside the workspace"}},
		} {
			dir, failed := openDir(env, tool, tc.path)
			if tc.fails != nil {
				if failed == nil || dir != nil || !failed.IsError {
					t.Errorf("%s %q: opened, want a failure saying %q", tool, tc.path, tc.fails)
					if dir != nil {
						dir.ws.Close()
					}
					continue
				}
				mustContain(t, failed.Output, tc.fails...)
				continue
			}
			if failed != nil {
				t.Errorf("%s %q: %s", tool, tc.path, failed.Output)
				continue
			}
			if dir.rel != tc.rel || dir.info.IsDir() == tc.isFile {
				t.Errorf("%s %q: rel %q, dir %v; want %q, file %v", tool, tc.path, dir.rel, dir.info.IsDir(), tc.rel, tc.isFile)
			}
			if _, err := dir.ws.Stat(dir.rel); err != nil {
				t.Errorf("%s %q: not readable beneath the handle: %v", tool, tc.path, err)
			}
			dir.ws.Close()
		}
	}
}
