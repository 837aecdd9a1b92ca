package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeSkill(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name, SkillFile)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadSkillsFromEveryFolderProjectFirst(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	dirs := SkillDirs(root, user)
	writeSkill(t, dirs[0], "release", "---\nname: release\ndescription: Cut a release -\n  tag, notes, publish.\nallowed-tools: read_file, bash\n---\n# Release\nRun scripts/release.sh.\n")
	writeSkill(t, dirs[2], "pdf", "---\nname: pdf\ndescription: Work with PDF files.\nallowed-tools:\n  - read_file\n  - bash\n---\nUse pdftotext.\n")
	writeSkill(t, dirs[3], "release", "---\nname: release\ndescription: the user's older release skill\n---\nold\n")
	writeSkill(t, dirs[3], "notes", "---\ndescription: Keep notes.\n---\nbody\n")
	os.WriteFile(filepath.Join(dirs[1], "README.md"), []byte("not a skill"), 0o644)

	skills, err := LoadSkills(dirs)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range skills {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"notes", "pdf", "release"}) {
		t.Fatalf("skills %v", names)
	}
	rel := skills[2]
	if rel.Description != "Cut a release - tag, notes, publish." || !slices.Equal(rel.AllowedTools, []string{"read_file", "bash"}) {
		t.Errorf("release (the project's wins): %+v", rel)
	}
	if !slices.Equal(skills[1].AllowedTools, []string{"read_file", "bash"}) {
		t.Errorf("a YAML list of tools: %v", skills[1].AllowedTools)
	}
	if skills[0].AllowedTools != nil {
		t.Errorf("no allowed-tools must leave the tools alone, got %v", skills[0].AllowedTools)
	}
	idx := SkillIndex(skills)
	if !strings.Contains(idx, "- pdf: Work with PDF files.") || strings.Contains(idx, "pdftotext") {
		t.Errorf("the index carries names and descriptions only:\n%s", idx)
	}
}

func TestSkillBodyAndFiles(t *testing.T) {
	dir := t.TempDir()
	writeSkill(t, dir, "pdf", "---\nname: pdf\ndescription: PDFs.\n---\n\nSee forms.md for forms.\n")
	os.WriteFile(filepath.Join(dir, "pdf", "forms.md"), []byte("forms"), 0o644)
	os.MkdirAll(filepath.Join(dir, "pdf", "scripts"), 0o755)
	os.WriteFile(filepath.Join(dir, "pdf", "scripts", "fill.py"), []byte("x"), 0o644)
	skills, err := LoadSkills([]string{dir})
	if err != nil || len(skills) != 1 {
		t.Fatal(skills, err)
	}
	body, files, err := skills[0].Body()
	if err != nil {
		t.Fatal(err)
	}
	if body != "See forms.md for forms." || !slices.Equal(files, []string{"forms.md", "scripts/fill.py"}) {
		t.Errorf("body %q files %v", body, files)
	}
}

func TestBadSkillsAreReportedAndTheRestLoad(t *testing.T) {
	dir := t.TempDir()
	writeSkill(t, dir, "good", "---\nname: good\ndescription: fine\n---\nok\n")
	writeSkill(t, dir, "nodesc", "---\nname: nodesc\n---\nbody\n")
	writeSkill(t, dir, "nofront", "just text\n")
	writeSkill(t, dir, "badname", "---\nname: two words\ndescription: x\n---\n")
	skills, err := LoadSkills([]string{dir})
	if len(skills) != 1 || skills[0].Name != "good" {
		t.Errorf("loaded %v", skills)
	}
	for _, want := range []string{"nodesc", "description is missing", "nofront", "front matter", "two words"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}
