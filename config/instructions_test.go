package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestInstructionsByDirectory(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	userFile := filepath.Join(home, "AGENTS.md")
	writeTree(t, root, map[string]string{
		"AGENTS.md":         "root rules",
		"CLAUDE.md":         "ignored: AGENTS.md wins in the same directory",
		"svc/CLAUDE.md":     "svc rules",
		"svc/api/AGENTS.md": "api rules",
		"pkg/x/AGENTS.md":   "x rules",
		"pkg/x/y/z.go":      "package y",
	})
	os.WriteFile(userFile, []byte("my own rules"), 0o644)

	in := LoadInstructions(root, filepath.Join(root, "svc"), userFile)
	var stable []string
	for _, f := range in.Stable {
		stable = append(stable, f.Text)
	}
	if strings.Join(stable, "|") != "my own rules|root rules|svc rules" {
		t.Fatalf("stable %v", stable)
	}
	p := in.Prompt()
	if !strings.Contains(p, "(svc/CLAUDE.md, applies under svc/)") || strings.Contains(p, "ignored") || strings.Contains(p, "x rules") {
		t.Errorf("prompt:\n%s", p)
	}
	// Reading under pkg/x brings pkg/x/AGENTS.md once; the root's is already in the prefix.
	got := in.Touch("pkg/x/y/z.go")
	if len(got) != 1 || got[0].Path != "pkg/x/AGENTS.md" || got[0].Text != "x rules" {
		t.Fatalf("touch pkg/x/y/z.go: %+v", got)
	}
	if again := in.Touch("pkg/x/other.go"); len(again) != 0 {
		t.Errorf("delivered twice: %+v", again)
	}
	if !strings.Contains(FormatNested(got), "applies under pkg/x/") {
		t.Errorf("nested note: %s", FormatNested(got))
	}
	if got := in.Touch("svc/api/h.go"); len(got) != 1 || got[0].Text != "api rules" {
		t.Errorf("touch under the working directory's subtree: %+v", got)
	}
	if got := in.Touch("../outside.go"); len(got) != 0 {
		t.Errorf("outside the root: %+v", got)
	}
}

func TestInstructionsAreCapped(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"AGENTS.md":   strings.Repeat("a", MaxInstructionFile+100),
		"b/AGENTS.md": strings.Repeat("b", MaxInstructionFile),
		"c/AGENTS.md": strings.Repeat("c", MaxInstructionFile),
		"d/AGENTS.md": strings.Repeat("d", MaxInstructionFile),
	})
	in := LoadInstructions(root, root, "")
	if f := in.Stable[0]; !f.Cut || f.Bytes != MaxInstructionFile+100 {
		t.Errorf("root file: cut=%v bytes=%d", f.Cut, f.Bytes)
	}
	total := len(in.Stable[0].Text)
	for _, d := range []string{"b", "c", "d"} {
		for _, f := range in.Touch(d + "/f.go") {
			total += len(strings.TrimRight(f.Text, "]"))
		}
	}
	if total > MaxInstructionTotal+500 {
		t.Errorf("%d bytes of instructions handed out, cap %d", total, MaxInstructionTotal)
	}
}

// The split an actor uses (Pending without disk, ReadInstructionFiles anywhere, Accept on the
// owner) hands out what Touch would, once; a clone shares nothing; Restore counts a file a
// resumed session handed out before.
func TestInstructionsSplitForActors(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"AGENTS.md":       "root",
		"pkg/CLAUDE.md":   "pkg rules",
		"pkg/x/AGENTS.md": "x rules",
	})
	in := LoadInstructions(root, root, "")
	dirs := in.Pending("pkg/x")
	if strings.Join(dirs, ",") != "pkg,pkg/x" {
		t.Fatalf("pending %v", dirs)
	}
	clone := in.Clone()
	got := in.Accept(dirs, ReadInstructionFiles(root, dirs))
	if len(got) != 2 || got[0].Path != "pkg/CLAUDE.md" || got[1].Text != "x rules" {
		t.Fatalf("accepted %+v", got)
	}
	if again := in.Accept(dirs, ReadInstructionFiles(root, dirs)); len(again) != 0 || len(in.Pending("pkg/x")) != 0 {
		t.Errorf("handed out twice: %+v", again)
	}
	if len(clone.Delivered) != 0 || len(clone.Pending("pkg/x")) != 2 {
		t.Errorf("the clone shares state: %+v", clone.Delivered)
	}
	if d := in.Pending("../up"); len(d) != 0 {
		t.Errorf("outside the root: %v", d)
	}
	used := clone.Used()
	clone.Restore(got[1])
	if clone.Used() != used+len("x rules") || len(clone.Pending("pkg/x")) != 1 {
		t.Errorf("restore: used %d, pending %v", clone.Used(), clone.Pending("pkg/x"))
	}
}
