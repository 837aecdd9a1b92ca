package actors

import (
	"slices"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

func TestMentionsAreTheAtWordsOfALine(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"explain @main.go please", []string{"main.go"}},
		{"compare @a.go, @b.go and @a.go.", []string{"a.go", "b.go"}},
		{"(@docs/x.md)", nil}, // the word starts with "(", not "@"
		{"see @docs/x.md)", []string{"docs/x.md"}},
		{"mail me@example.com", nil},
		{"a lone @ sign", nil},
		{"@one\n@two", []string{"one", "two"}},
		{"no mentions", nil},
	}
	for _, c := range cases {
		if got := mentions(c.text); !slices.Equal(got, c.want) {
			t.Errorf("mentions(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	many := strings.Repeat("@f ", 3) + "@1 @2 @3 @4 @5 @6 @7 @8 @9"
	if got := mentions(many); len(got) != maxMentions {
		t.Errorf("%d mentions, want at most %d", len(got), maxMentions)
	}
	if mentionCalls(1, "no mentions") != nil {
		t.Error("a line without mentions makes calls")
	}
	u := mentionCalls(3, "read @x.go")
	if len(u.calls) != 1 || u.calls[0].Name != "read_file" || u.calls[0].Args != `{"path":"x.go"}` || !strings.HasPrefix(u.calls[0].ID, messages.UserCallPrefix) {
		t.Fatalf("calls = %+v", u.calls)
	}
}

func TestShellLinesAreTheirOwnRoute(t *testing.T) {
	for in, want := range map[string]inputRoute{
		"!git status":   {Kind: inputShell, Arg: "git status"},
		"  !  ls -la  ": {Kind: inputShell, Arg: "ls -la"},
		"!":             {Kind: inputShell},
		"hello!":        {Kind: inputModel},
	} {
		if got := classifyInput(in); got != want {
			t.Errorf("classifyInput(%q) = %+v, want %+v", in, got, want)
		}
	}
}

func TestUserCallNotesSayWhatTheUserDid(t *testing.T) {
	u := shellCalls(1, "go test ./...")
	if u.calls[0].Args != `{"command":"go test ./..."}` {
		t.Fatalf("args = %s", u.calls[0].Args)
	}
	note := u.shellNote(&messages.ToolResult{Output: "ok\n[exit code 0]\n"})
	if !strings.Contains(note, "The user ran a shell command") || !strings.Contains(note, "$ go test ./...\nok\n[exit code 0]") {
		t.Errorf("shell note:\n%s", note)
	}
	u.cancelled = "Ctrl-C"
	if note := u.shellNote(&messages.ToolResult{}); !strings.Contains(note, "and cancelled it") || !strings.Contains(note, "(no output)") {
		t.Errorf("cancelled shell note:\n%s", note)
	}
	call := llm.ToolCall{Name: "read_file", Args: `{"path":"big.log"}`}
	if n := mentionNote(call, &messages.ToolResult{IsError: true, Output: "big.log does not exist\nmore"}); n != "The user mentioned @big.log, which could not be attached: big.log does not exist" {
		t.Errorf("failed mention note: %q", n)
	}
}
