package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func TestResolvePath(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside")
	writeFiles(t, root, map[string]string{"src/a.go": "a", "docs/": ""})
	writeFiles(t, outside, map[string]string{"secret": "s"})
	mustSymlink(t, "src", root+"/alias")                      // inside → inside
	mustSymlink(t, "../outside", root+"/escape")              // dir link out
	mustSymlink(t, outside+"/secret", root+"/src/secret")     // file link out
	mustSymlink(t, outside+"/not-there", root+"/dangling")    // dangling link out
	mustSymlink(t, "missing-inside", root+"/dangling-inside") // dangling link in
	mustSymlink(t, "loop2", root+"/loop1")
	mustSymlink(t, "loop1", root+"/loop2")
	mustSymlink(t, root, base+"/ws-link") // the root reached through a symlink

	tests := []struct {
		root, path string
		wantRel    string // "" means refused
		why        string
	}{
		{root, "src/a.go", "src/a.go", ""},
		{root, "", ".", ""},
		{root, ".", ".", ""},
		{root, "./src/../docs", "docs", ""},
		{root, root + "/src/a.go", "src/a.go", ""},
		{root, "alias/a.go", "src/a.go", ""},
		{root, "src/new/deeper/file.go", "src/new/deeper/file.go", ""},
		{root, "dangling-inside", "missing-inside", ""},
		{base + "/ws-link", "src/a.go", "src/a.go", ""},
		{base + "/ws-link", base + "/ws-link/src/a.go", "src/a.go", ""},
		{base + "/ws-link", root + "/src/a.go", "src/a.go", ""},
		{root, "../outside/secret", "", "'..'"},
		{root, "src/../../outside", "", "'..'"},
		{root, "/etc/passwd", "", "absolute path outside"},
		{root, outside + "/secret", "", "absolute path outside"},
		{root, "/proc/self/root/etc/passwd", "", "/proc"},
		{root, "escape/secret", "", "leads outside the workspace, to " + outside + "/secret"},
		{root, "escape/new-file", "", "leads outside"},
		{root, "escape", "", "leads outside"},
		{root, "src/secret", "", "leads outside"},
		{root, "dangling", "", "leads outside"},
		{root, "loop1/x", "", "too many levels of symbolic links"},
		{root, "a\x00b", "", "NUL"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			abs, rel, err := ResolvePath(tc.root, tc.path)
			if tc.wantRel == "" {
				if err == nil {
					t.Fatalf("ResolvePath(%q) = %s, want refused", tc.path, abs)
				}
				if !strings.Contains(err.Error(), tc.why) {
					t.Errorf("error %q does not say %q", err, tc.why)
				}
				return
			}
			if err != nil {
				t.Fatalf("ResolvePath(%q): %v", tc.path, err)
			}
			if rel != tc.wantRel || abs != filepath.Join(root, tc.wantRel) {
				t.Errorf("ResolvePath(%q) = %s, %s; want %s", tc.path, abs, rel, tc.wantRel)
			}
		})
	}
}

func TestResolvePathNeedsAbsoluteRoot(t *testing.T) {
	if _, _, err := ResolvePath("relative/root", "a"); err == nil {
		t.Fatal("a relative root must be refused")
	}
}
