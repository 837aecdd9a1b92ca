package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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

// TestGrepGoBufferSizes runs one Go search over files of very different sizes, so its reused
// buffers start small, grow, and serve small files again: lines across the buffer's size,
// a line longer than it, NUL bytes either side of the binary sniff, CRLF line ends.
func TestGrepGoBufferSizes(t *testing.T) {
	env := newEnv(t)
	var mid strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&mid, "line %d\n", i)
	}
	mid.WriteString("NEEDLE at the end") // no final newline
	// 50-byte lines: line 1311 spans the 64 KiB mark.
	var big strings.Builder
	for i := 1; i <= 4000; i++ {
		if i == 1311 || i == 4000 {
			fmt.Fprintf(&big, "NEEDLE %042d\n", i)
		} else {
			fmt.Fprintf(&big, "%049d\n", i)
		}
	}
	lateNUL := []byte("NEEDLE\n" + strings.Repeat("z", 20000))
	lateNUL[readSniffBytes-1] = 0
	writeFiles(t, env.Root, map[string]string{
		"a_tiny.txt":     "NEEDLE\n",
		"b_mid.txt":      mid.String(),
		"c_big.txt":      big.String(),
		"d_long.txt":     strings.Repeat("x", 3*grepBufSize) + "NEEDLE\nNEEDLE short\n",
		"e_tiny.txt":     "no\nNEEDLE\n",
		"f_nul.bin":      string(lateNUL),
		"g_nul_late.txt": "NEEDLE\n" + strings.Repeat("y", readSniffBytes+100) + "\x00\n",
		"h_nul.bin":      "NEEDLE\x00\n",
		"i_crlf.txt":     "a\r\nNEEDLE\r\n",
		"j_empty.txt":    "",
	})
	want := "a_tiny.txt:1:NEEDLE\n" +
		"b_mid.txt:101:NEEDLE at the end\n" +
		fmt.Sprintf("c_big.txt:1311:NEEDLE %042d\n", 1311) +
		fmt.Sprintf("c_big.txt:4000:NEEDLE %042d\n", 4000) +
		"d_long.txt:1:" + strings.Repeat("x", grepMaxLineBytes) + "…\n" +
		"d_long.txt:2:NEEDLE short\n" +
		"e_tiny.txt:2:NEEDLE\n" +
		"g_nul_late.txt:1:NEEDLE\n" +
		"i_crlf.txt:2:NEEDLE\n"
	// Go only: ripgrep skips g_nul_late.txt, whose NUL is past the Go search's sniff.
	checkGrep(t, runGrep(t, env, grepTool{noRipgrep: true}, `{"pattern":"NEEDLE"}`), false, want)
}

// TestGrepBuffersGrownFile: a file larger than its stat said (it grew in between) is still
// sniffed over its first readSniffBytes and read whole.
func TestGrepBuffersGrownFile(t *testing.T) {
	env := newEnv(t)
	text := []byte(strings.Repeat("line\n", 3000)) // 15000 bytes
	writeFiles(t, env.Root, map[string]string{"text.txt": string(text)})
	text[readSniffBytes-10] = 0
	writeFiles(t, env.Root, map[string]string{"nul.bin": string(text)})
	for _, tc := range []struct {
		name   string
		binary bool
	}{{"text.txt", false}, {"nul.bin", true}} {
		for _, stated := range []int64{0, 100, 600, readSniffBytes - 1} {
			f, err := os.Open(filepath.Join(env.Root, tc.name))
			if err != nil {
				t.Fatal(err)
			}
			bufs := &grepBuffers{}
			br, _, binary, err := bufs.sniff(f, stated)
			if err != nil || binary != tc.binary {
				t.Errorf("%s stated %d bytes: binary %v, err %v; want binary %v", tc.name, stated, binary, err, tc.binary)
			}
			if err == nil && !binary {
				all, err := io.ReadAll(br)
				if err != nil || len(all) != len(text) {
					t.Errorf("%s stated %d bytes: read %d bytes (err %v), want %d", tc.name, stated, len(all), err, len(text))
				}
			}
			f.Close()
		}
	}
}

// BenchmarkGrepGoSmallFiles greps a workspace of small files with the Go search, as the
// subagent benchmark's children do.
func BenchmarkGrepGoSmallFiles(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := range 50 {
		name := filepath.Join(root, fmt.Sprintf("d%d", i%5), fmt.Sprintf("f%02d.go", i))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			b.Fatal(err)
		}
		text := fmt.Sprintf("package p\n\nfunc f%d() int { return %d } // alpha\n", i, i)
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	env := &Env{Root: root, TempDir: b.TempDir()}
	defer env.Close()
	reg, err := NewRegistry(grepTool{noRipgrep: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		res := reg.Execute(context.Background(), env, Call{Name: "grep", Args: `{"pattern":"alpha"}`})
		if res.IsError || strings.Count(res.Output, "alpha") != 50 {
			b.Fatalf("unexpected result: %s", res.Output)
		}
	}
}
