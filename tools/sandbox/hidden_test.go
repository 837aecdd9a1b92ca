package sandbox

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

// TestSplitGrantLeavesOnlyTheHiddenOut: every sibling on the way down is granted whole, the
// directories on the way may only be listed, and the hidden paths appear nowhere.
func TestSplitGrantLeavesOnlyTheHiddenOut(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{".ssh/id", ".config/gcloud/c.json", ".config/other/ok", ".netrc", "notes.txt", "work/a.go"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".ssh", filepath.Join(root, "keys")); err != nil {
		t.Fatal(err)
	}
	hide := HiddenPaths(root, filepath.Join(root, "work"), "", nil, nil)
	want := []string{filepath.Join(root, ".config/gcloud"), filepath.Join(root, ".netrc"), filepath.Join(root, ".ssh")}
	if !reflect.DeepEqual(hide, want) {
		t.Fatalf("hidden %q, want %q", hide, want)
	}
	dirs, files, listed := splitGrant(root, hide)
	sort.Strings(dirs)
	if w := []string{filepath.Join(root, ".config/other"), filepath.Join(root, "work")}; !reflect.DeepEqual(dirs, w) {
		t.Errorf("dirs %q, want %q", dirs, w)
	}
	if w := []string{filepath.Join(root, "notes.txt")}; !reflect.DeepEqual(files, w) {
		t.Errorf("files %q, want %q", files, w)
	}
	if w := []string{root, filepath.Join(root, ".config")}; !reflect.DeepEqual(listed, w) {
		t.Errorf("listed %q, want %q", listed, w)
	}
	if d, f, l := splitGrant(filepath.Join(root, ".ssh"), hide); d != nil || f != nil || l != nil {
		t.Errorf("a hidden root is granted: %q %q %q", d, f, l)
	}
	if got := HiddenPaths(root, "", "", []string{"~/notes.txt"}, []string{"~/.netrc"}); !reflect.DeepEqual(got,
		[]string{filepath.Join(root, ".config/gcloud"), filepath.Join(root, ".ssh"), filepath.Join(root, "notes.txt")}) {
		t.Errorf("deny_read and allow_read: %q", got)
	}
}
