package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

const markdownSample = "# Plan\n\nFirst **read** the `main.go` file, then *edit* it; see [the docs](https://example.com/docs) or <https://go.dev>.\n\n" +
	"1. one\n2. two\n   - nested\n\n> quoted\n> text\n\n```go\nfunc main() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\n~~gone~~ done\n"

// TestMarkdownListContinuation: an item's later lines line up under its first line's text (a
// bullet is one cell wide, though three bytes), and a task item keeps its box.
func TestMarkdownListContinuation(t *testing.T) {
	got := ansi.Strip(renderMarkdown("- first line\n  second paragraph? no, lazy\n\n  second paragraph\n- [x] done", 40, newMDStyles(true)))
	want := "• first line second paragraph? no, lazy\n\n  second paragraph\n\n• [x] done"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestMarkdownRendering(t *testing.T) {
	got := renderMarkdown(markdownSample, 40, newMDStyles(true))
	golden(t, "tui/markdown.golden", ansi.Strip(got)+"\n")
	for i, l := range strings.Split(got, "\n") {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line %d is %d wide, over 40: %q", i, w, l)
		}
	}
	if !strings.Contains(got, "\x1b[1mread") {
		t.Errorf("**read** is not bold:\n%q", got)
	}
	if hasColour(got) {
		t.Errorf("colours with NO_COLOR:\n%q", got)
	}
	if coloured := renderMarkdown(markdownSample, 40, newMDStyles(false)); !hasColour(coloured) {
		t.Errorf("no colours without NO_COLOR:\n%q", coloured)
	}
}
