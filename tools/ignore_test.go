package tools

import "testing"

// Nested .gitignore files apply to their own subtree and take precedence over the root's, as
// in git: a negation below re-includes what the root excluded, and a pattern below does not
// leak to siblings.
func TestIgnorerNestedGitignore(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{
		".gitignore":         "*.log\nbuild/\n",
		"sub/.gitignore":     "!keep.log\n/local.txt\n",
		"a.log":              "",
		"sub/x.log":          "",
		"sub/keep.log":       "",
		"sub/local.txt":      "",
		"sub/deep/local.txt": "",
		"other/local.txt":    "",
		"build/out":          "",
	})
	ws, err := env.openRoot()
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ig := newIgnorer(ws)
	for rel, want := range map[string]bool{
		"a.log":              true,
		"sub/x.log":          true,
		"sub/keep.log":       false,
		"sub/local.txt":      true,
		"sub/deep/local.txt": false, // anchored to sub/
		"other/local.txt":    false,
		".git":               true,
		".troupe":            true,
	} {
		if got := ig.ignored(rel, false); got != want {
			t.Errorf("ignored(%q) = %v, want %v", rel, got, want)
		}
	}
	if !ig.ignored("build", true) {
		t.Error("build/ (a directory pattern) is not ignored")
	}
}
