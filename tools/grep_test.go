package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

func grepFixture(t *testing.T) *Env {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{
		".gitignore":     "gen/\n",
		"a.go":           "package a\n\nfunc Alpha() {}\n\nfunc beta() {}\n",
		"sub/b.go":       "package sub\n// TODO: one\nx := 1\ny := 2\nz := 3\n// TODO: two\n",
		"sub/notes.md":   "TODO in markdown\n",
		"gen/skip.go":    "func Alpha() {}\n",
		"blob.bin":       "func Alpha() \x00 binary",
		".git/config":    "func Alpha()",
		".hidden/h.go":   "func Alpha() {}\n",
		"long/line.txt":  strings.Repeat("x", 600) + "NEEDLE\n",
		"ctx/close.txt":  "m1\nc\nm2\n",
		"ctx/spread.txt": "m\n1\n2\n3\n4\n5\nm\n",
	})
	return env
}

var grepCases = []struct {
	name, args string
	isError    bool
	want       string // exact output unless isError
}{
	{name: "simple", args: `{"pattern":"func Alpha"}`, want: ".hidden/h.go:1:func Alpha() {}\na.go:3:func Alpha() {}\n"},
	{name: "regex", args: `{"pattern":"^func [a-z]"}`, want: "a.go:5:func beta() {}\n"},
	{name: "case-insensitive flag", args: `{"pattern":"(?i)^FUNC BETA"}`, want: "a.go:5:func beta() {}\n"},
	{name: "path", args: `{"pattern":"TODO","path":"sub"}`, want: "sub/b.go:2:// TODO: one\nsub/b.go:6:// TODO: two\nsub/notes.md:1:TODO in markdown\n"},
	{name: "single file", args: `{"pattern":"TODO","path":"sub/notes.md"}`, want: "sub/notes.md:1:TODO in markdown\n"},
	{name: "glob by name", args: `{"pattern":"TODO","glob":"*.md"}`, want: "sub/notes.md:1:TODO in markdown\n"},
	{name: "context", args: `{"pattern":"TODO","path":"sub/b.go","context":1}`,
		want: "sub/b.go-1-package sub\nsub/b.go:2:// TODO: one\nsub/b.go-3-x := 1\n--\nsub/b.go-5-z := 3\nsub/b.go:6:// TODO: two\n"},
	{name: "context overlap", args: `{"pattern":"^m","path":"ctx/close.txt","context":2}`, want: "ctx/close.txt:1:m1\nctx/close.txt-2-c\nctx/close.txt:3:m2\n"},
	{name: "context gap", args: `{"pattern":"^m$","path":"ctx/spread.txt","context":1}`,
		want: "ctx/spread.txt:1:m\nctx/spread.txt-2-1\n--\nctx/spread.txt-6-5\nctx/spread.txt:7:m\n"},
	{name: "long line cut", args: `{"pattern":"NEEDLE"}`, want: "long/line.txt:1:" + strings.Repeat("x", 500) + "…\n"},
	{name: "no match", args: `{"pattern":"nothing-like-this"}`, want: "no matches for \"nothing-like-this\" in the workspace"},
	{name: "bad regex", args: `{"pattern":"func("}`, isError: true, want: "invalid regex \"func(\""},
	{name: "outside", args: `{"pattern":"x","path":"/etc"}`, isError: true, want: "only paths inside the workspace"},
}

func runGrep(t *testing.T, env *Env, tool grepTool, args string) Result {
	t.Helper()
	reg, err := NewRegistry(tool)
	if err != nil {
		t.Fatal(err)
	}
	return reg.Execute(context.Background(), env, Call{Name: "grep", Args: args})
}

func TestGrepGoFallback(t *testing.T) {
	env := grepFixture(t)
	for _, tc := range grepCases {
		t.Run(tc.name, func(t *testing.T) {
			res := runGrep(t, env, grepTool{noRipgrep: true}, tc.args)
			checkGrep(t, res, tc.isError, tc.want)
		})
	}
}

// TestGrepRipgrep runs the same cases through rg, so both engines print the same thing.
func TestGrepRipgrep(t *testing.T) {
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("rg is not installed")
	}
	env := grepFixture(t)
	for _, tc := range grepCases {
		t.Run(tc.name, func(t *testing.T) {
			res := runGrep(t, env, grepTool{}, tc.args)
			checkGrep(t, res, tc.isError, tc.want)
		})
	}
}

func checkGrep(t *testing.T, res Result, isError bool, want string) {
	t.Helper()
	if res.IsError != isError {
		t.Fatalf("IsError = %v, want %v: %s", res.IsError, isError, res.Output)
	}
	if isError {
		mustContain(t, res.Output, want)
		return
	}
	if res.Output != want {
		t.Errorf("output:\n%s\nwant:\n%s", res.Output, want)
	}
}

func TestGrepCapped(t *testing.T) {
	env := newEnv(t)
	var b strings.Builder
	for i := range 250 {
		fmt.Fprintf(&b, "hit %d\n", i)
	}
	writeFiles(t, env.Root, map[string]string{"many.txt": b.String()})
	for _, tool := range []grepTool{{noRipgrep: true}, {}} {
		if _, err := exec.LookPath("rg"); err != nil && !tool.noRipgrep {
			continue
		}
		args, _ := json.Marshal(map[string]any{"pattern": "hit"})
		res := runGrep(t, env, tool, string(args))
		if n := strings.Count(res.Output, "many.txt:"); n != grepMaxMatches {
			t.Errorf("rg=%v: %d matches shown, want %d", !tool.noRipgrep, n, grepMaxMatches)
		}
		mustContain(t, res.Output, "(showing 200 of 250 matches; 50 more not shown")
	}
}
