package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestBuiltinPromptModes(t *testing.T) {
	modes := BuiltinPromptModes()
	for _, want := range []string{"code", "plan", "review", "debug", "ask", "brainstorm", "frontend-design", "review-security", "simplify"} {
		m, err := FindPromptMode(modes, want)
		if err != nil {
			t.Fatal(err)
		}
		canWrite := m.Tools == nil || slices.Contains(m.Tools, "write_file") || slices.Contains(m.Tools, "edit_file")
		if (want == "ask" || want == "plan") && canWrite {
			t.Errorf("%s can write: %v", want, m.Tools)
		}
	}
	if _, err := FindPromptMode(modes, "plna"); err == nil || !strings.Contains(err.Error(), "plan") {
		t.Errorf("unknown mode: %v", err)
	}
}

func TestCustomPromptModes(t *testing.T) {
	project, user := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(project, "docs.md"), []byte("---\ndescription: Write docs.\ntools: read_file, write_file\n---\nWrite clear docs.\n"), 0o644)
	os.WriteFile(filepath.Join(project, "plan.md"), []byte("---\ndescription: Our plan.\nread_only: true\n---\nPlan the way we do.\n"), 0o644)
	os.WriteFile(filepath.Join(user, "docs.md"), []byte("---\ndescription: user docs\n---\nshadowed\n"), 0o644)
	os.WriteFile(filepath.Join(user, "empty.md"), []byte("---\ndescription: nothing\n---\n"), 0o644)
	modes, err := LoadPromptModes(project, user)
	if err == nil || !strings.Contains(err.Error(), "empty.md") {
		t.Errorf("the empty mode is not reported: %v", err)
	}
	docs, _ := FindPromptMode(modes, "docs")
	if docs.Instructions != "Write clear docs." || !slices.Equal(docs.Tools, []string{"read_file", "write_file"}) {
		t.Errorf("docs: %+v", docs)
	}
	plan, _ := FindPromptMode(modes, "plan")
	if plan.Instructions != "Plan the way we do." || slices.Contains(plan.Tools, "write_file") || plan.Tools == nil {
		t.Errorf("the project's plan replaces the built-in, read-only: %+v", plan)
	}
}
