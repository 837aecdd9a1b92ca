package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// heldoutCase is a case file's text: one in-scope case whose text is prose (never recovered)
// and one that is a plain Hermes call (recovered).
const heldoutCases = `[
 {"id": "held-prose", "model": "Qwen/Qwen3-8B", "harness": "x", "source": "https://github.com/o/r/issues/1",
  "text": "I would read the README next.", "expect": [{"name": "read_file", "args": {"path": "README.md"}}]},
 {"id": "held-hermes", "model": "Qwen/Qwen3-8B", "harness": "x", "source": "https://github.com/o/r/issues/2",
  "text": "<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"README.md\"}}</tool_call>",
  "expect": [{"name": "read_file", "args": {"path": "README.md"}}]}
]`

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// freeze writes dir's SHA256SUMS as `sha256sum *.json` would.
func freeze(t *testing.T, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), filepath.Base(f))
	}
	writeFile(t, filepath.Join(dir, sumsFile), b.String())
}

func TestHeldoutLoadsOnlyTheFrozenSet(t *testing.T) {
	t.Run("absent directory is an empty set", func(t *testing.T) {
		cases, err := loadHeldout(filepath.Join(t.TempDir(), "heldout"))
		if err != nil || len(cases) != 0 {
			t.Fatalf("got %d cases, %v; want none, no error", len(cases), err)
		}
	})
	t.Run("frozen set loads", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "a.json"), heldoutCases)
		writeFile(t, filepath.Join(dir, "README.md"), "not a case file")
		freeze(t, dir)
		cases, err := loadHeldout(dir)
		if err != nil || len(cases) != 2 {
			t.Fatalf("got %d cases, %v; want 2", len(cases), err)
		}
	})
	bad := []struct {
		name   string
		change func(t *testing.T, dir string)
		want   string // in the error
	}{
		{"changed file", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "a.json"), strings.Replace(heldoutCases, "README.md", "README.txt", 1))
		}, "a.json does not match its hash"},
		{"unlisted file", func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "b.json"), "[]") }, "b.json is not in SHA256SUMS"},
		{"listed file removed", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "a.json")) }, "a.json is listed in SHA256SUMS but absent"},
		{"no hash list", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, sumsFile)) }, "no SHA256SUMS"},
		{"garbled hash list", func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, sumsFile), "abc a.json\n") }, "line 1 is not"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "a.json"), heldoutCases)
			freeze(t, dir)
			tc.change(t, dir)
			_, err := loadHeldout(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	t.Run("a bad case is named by position, not by its contents", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "a.json"), `[{"id": "secret-id", "model": "m", "source": "s", "text": "x"}]`)
		freeze(t, dir)
		_, err := loadHeldout(dir)
		if err == nil || !strings.Contains(err.Error(), "case 1 of the file") || strings.Contains(err.Error(), "secret-id") {
			t.Fatalf("error %v, want the position without the id", err)
		}
	})
}

// The held-out figure is printed as aggregates: no case id, source or reason, unless asked.
func TestReplayPrintsHeldoutAsAggregatesOnly(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.json"), heldoutCases)
	freeze(t, dir)
	held, err := loadHeldout(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := replayReport(&out, nil, held, "dev", dir, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"held-out set", "1 / 2 (50%)", "0 / 2 (0%)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
	for _, leak := range []string{"held-prose", "held-hermes", "github.com/o/r", "not recovered"} {
		if strings.Contains(out.String(), leak) {
			t.Errorf("the held-out report shows %q:\n%s", leak, out.String())
		}
	}
	out.Reset()
	if err := replayReport(&out, nil, held, "dev", dir, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "held-prose") {
		t.Errorf("-show-heldout does not name the miss:\n%s", out.String())
	}
}

// The held-out set in the repository is whole and unchanged since it was frozen.
func TestHeldoutSetMatchesItsHashes(t *testing.T) {
	if _, err := loadHeldout("heldout"); err != nil {
		t.Fatal(err)
	}
}

func TestSharedSourcesCountsCommittedFilesByOwner(t *testing.T) {
	dev := []Case{
		{Source: "https://github.com/ollama/ollama/issues/1"},
		{Source: "https://github.com/Acme/Bench/blob/abc/results/run1.json#L3"},
	}
	heldout := []Case{
		{Source: "https://github.com/ollama/ollama/issues/1"},                // same thread
		{Source: "https://github.com/ollama/ollama/issues/2"},                // same tracker, another report: unseen
		{Source: "https://github.com/acme/bench/blob/def/results/run2.json"}, // same repository's files
		{Source: "https://github.com/acme/loop2/blob/def/log.md"},            // same owner's other repository
		{Source: "https://github.com/Other/Repo/blob/abc/x.md"},              // unseen
	}
	thread, repo := sharedSources(dev, heldout)
	if thread != 1 || repo != 2 {
		t.Fatalf("sharedSources = %d thread, %d repo; want 1, 2", thread, repo)
	}
}

func TestSharedRepliesCountsAReplyTheDevelopmentSetQuotes(t *testing.T) {
	dev := []Case{
		{Source: "https://github.com/acme/agent/issues/190", Text: "<tool_call>read_file a.go"},
		{Source: "https://github.com/acme/agent/issues/7", Calls: []QuotedCall{{Name: "Bash", Args: `{"cmd":"ls"}`}}},
	}
	heldout := []Case{
		{Source: "https://github.com/acme/agent/issues/189", Text: "<tool_call>read_file a.go\n"}, // the same reply, another thread
		{Source: "https://github.com/acme/agent/issues/8", Calls: []QuotedCall{{Name: "Bash", Args: `{"cmd":"ls"}`}}},
		{Source: "https://github.com/acme/agent/issues/9", Calls: []QuotedCall{{Name: "Bash", Args: `{"cmd":"pwd"}`}}},
		{Source: "https://github.com/acme/agent/issues/10", Reasoning: "<tool_call>read_file a.go"}, // reasoning, not text
	}
	if got := sharedReplies(dev, heldout); got != 2 {
		t.Fatalf("sharedReplies = %d; want 2", got)
	}
}
