package ui

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestCompleterCompletesCommandsArgumentsAndPaths(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"main.go", "make.sh", "docs/guide.md", "docs/api.md", ".env", "mod/x.go"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := Completer{Root: root, Commands: []Command{{Name: "mode", Args: []string{"plan", "ask", "auto-edit", "yolo"}},
		{Name: "model", Args: []string{"openai/gpt-4o", "openai/gpt-4o-mini", "anthropic/claude-sonnet-4-5"}}, {Name: "status"}}}
	cases := []struct {
		line, next string
		cands      []string
	}{
		{line: "/mo", next: "/mode", cands: []string{"/mode", "/model"}},
		{line: "/st", next: "/status ", cands: []string{"/status"}},
		{line: "/model ", next: "/model ", cands: []string{"anthropic/claude-sonnet-4-5", "openai/gpt-4o", "openai/gpt-4o-mini"}},
		{line: "/model open", next: "/model openai/gpt-4o", cands: []string{"openai/gpt-4o", "openai/gpt-4o-mini"}},
		{line: "/mode a", next: "/mode a", cands: []string{"ask", "auto-edit"}},
		{line: "/mode y", next: "/mode yolo ", cands: []string{"yolo"}},
		{line: "/status x", next: "/status x"},
		{line: "/nosuch", next: "/nosuch"},
		{line: "look at @ma", next: "look at @ma", cands: []string{"@main.go", "@make.sh"}},
		{line: "look at @mai", next: "look at @main.go ", cands: []string{"@main.go"}},
		{line: "@do", next: "@docs/", cands: []string{"@docs/"}},
		{line: "@docs/g", next: "@docs/guide.md ", cands: []string{"@docs/guide.md"}},
		{line: "@.e", next: "@.env ", cands: []string{"@.env"}},
		{line: "@", next: "@", cands: []string{"@docs/", "@main.go", "@make.sh", "@mod/"}},
		{line: "@nowhere/x", next: "@nowhere/x"},
		{line: "plain words", next: "plain words"},
	}
	for _, tc := range cases {
		got := c.Complete(tc.line)
		if !slices.Equal(got.Candidates, tc.cands) {
			t.Errorf("%q: candidates %q, want %q", tc.line, got.Candidates, tc.cands)
		}
		if next, _ := got.Apply(tc.line); next != tc.next {
			t.Errorf("%q: Tab gives %q, want %q", tc.line, next, tc.next)
		}
	}
}

func TestCompleterBoundsABigFolder(t *testing.T) {
	root := t.TempDir()
	for i := range maxCompletions + 5 {
		if err := os.WriteFile(filepath.Join(root, "f"+string(rune('a'+i%26))+string(rune('a'+i/26))), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := Completer{Root: root}.Complete("@f")
	if len(got.Candidates) != maxCompletions || got.More != 5 {
		t.Fatalf("%d candidates, %d more", len(got.Candidates), got.More)
	}
}
