package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestReadFile(t *testing.T) {
	env := newEnv(t)
	long := strings.Repeat("é", 1500) // 3000 bytes
	writeFiles(t, env.Root, map[string]string{
		"small.txt":   "alpha\nbeta\n",
		"noeol.txt":   "one\ntwo",
		"crlf.txt":    "a\r\nb\r\n",
		"empty.txt":   "",
		"big.txt":     numbered(1, 2500),
		"long.txt":    long + "\nshort\n",
		"bin.dat":     "PK\x03\x04\x00\x00binary",
		"src/main.go": "package main\n",
		"src/mian.go": "package main\n",
	})
	tests := []struct {
		name    string
		args    string
		isError bool
		want    []string
		absent  []string
	}{
		{name: "whole file", args: `{"path":"small.txt"}`, want: []string{"     1\talpha\n     2\tbeta\n"}, absent: []string{"lines"}},
		{name: "no final newline", args: `{"path":"noeol.txt"}`, want: []string{"     1\tone\n     2\ttwo\n"}},
		{name: "CRLF shown without CR", args: `{"path":"crlf.txt"}`, want: []string{"     1\ta\n     2\tb\n"}, absent: []string{"\r"}},
		{name: "empty", args: `{"path":"empty.txt"}`, want: []string{"empty.txt is empty (0 lines)"}},
		{name: "default limit is 2000 lines", args: `{"path":"big.txt"}`,
			want: []string{"  2000\tline 2000\n", "(lines 1–2000 of 2500; call again with offset=2001 for more)"}, absent: []string{"line 2001\n"}},
		{name: "offset and limit", args: `{"path":"big.txt","offset":10,"limit":3}`,
			want: []string{"    10\tline 10\n    11\tline 11\n    12\tline 12\n(lines 10–12 of 2500; call again with offset=13 for more)"}, absent: []string{"line 9\n", "line 13\n"}},
		{name: "offset to the end", args: `{"path":"big.txt","offset":2499}`, want: []string{"(lines 2499–2500 of 2500)"}, absent: []string{"call again"}},
		{name: "offset as string is coerced", args: `{"path":"big.txt","offset":"2500"}`, want: []string{"  2500\tline 2500\n"}},
		{name: "offset past the end", args: `{"path":"small.txt","offset":5}`, isError: true, want: []string{"offset 5 is past the end of small.txt (2 lines)"}},
		{name: "long line cut", args: `{"path":"long.txt"}`, want: []string{"[line cut: 3000 bytes]", "     2\tshort"}},
		{name: "binary", args: `{"path":"bin.dat"}`, want: []string{"bin.dat: binary file, 12 bytes, mime application/zip"}, absent: []string{"PK"}},
		{name: "directory", args: `{"path":"src"}`, want: []string{"src is a directory, not a file; its listing, as list_dir gives it:\nsrc/\nmain.go\nmian.go\n"}},
		{name: "missing with near names", args: `{"path":"src/mains.go"}`, isError: true, want: []string{"src/mains.go does not exist", "similar names: src/main.go"}},
		{name: "missing directory", args: `{"path":"nope/x.go"}`, isError: true, want: []string{"directory nope does not exist"}},
		{name: "outside", args: `{"path":"../etc"}`, isError: true, want: []string{"only paths inside the workspace"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, env, "read_file", tc.args)
			if res.IsError != tc.isError {
				t.Fatalf("IsError = %v, want %v: %s", res.IsError, tc.isError, res.Output)
			}
			mustContain(t, res.Output, tc.want...)
			for _, a := range tc.absent {
				if strings.Contains(res.Output, a) {
					t.Errorf("output contains %q", a)
				}
			}
		})
	}
	t.Run("a FIFO is refused, not opened", func(t *testing.T) {
		if err := syscall.Mkfifo(filepath.Join(env.Root, "pipe"), 0o644); err != nil {
			t.Skip("mkfifo:", err)
		}
		res := call(t, env, "read_file", `{"path":"pipe"}`)
		if !res.IsError {
			t.Fatalf("want an error: %s", res.Output)
		}
		mustContain(t, res.Output, "pipe is not a regular file")
	})
	t.Run("cut line stays valid UTF-8", func(t *testing.T) {
		res := call(t, env, "read_file", `{"path":"long.txt","limit":1}`)
		if !strings.Contains(res.Output, strings.Repeat("é", 1000)+"…") {
			t.Errorf("line not cut at 2000 bytes on a rune boundary: %.80q", res.Output)
		}
	})
}

func TestReadFileStopsAtItsOutputBudget(t *testing.T) {
	env := newEnv(t)
	line := strings.Repeat("x", 199) + "\n"
	if err := os.WriteFile(filepath.Join(env.Root, "wide.txt"), []byte(strings.Repeat(line, 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	res := call(t, env, "read_file", `{"path":"wide.txt"}`)
	if res.IsError || strings.Contains(res.Output, "lines dropped") {
		t.Fatalf("a long read must stop cleanly, not be cut by the result bound: %.200s", res.Output)
	}
	mustContain(t, res.Output, "of 1000; call again with offset=")
}

// TestReadFileOnDirectory: a read of a directory answers exactly what list_dir gives for it,
// under one line saying so, and is not recorded as a read of a file.
func TestReadFileOnDirectory(t *testing.T) {
	env, _ := trackedEnv(t)
	writeFiles(t, env.Root, map[string]string{"pkg/a.go": "package pkg\n", "pkg/sub/b.go": "package sub\n", "README.md": "hi\n"})
	for _, tc := range []struct{ name, path, listPath, title string }{
		{"relative", "pkg", "pkg", "pkg is a directory"},
		{"absolute root, no trailing slash", env.Root, ".", "the workspace root is a directory"},
		{"absolute subdirectory", filepath.Join(env.Root, "pkg"), "pkg", "pkg is a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mustOK(t, call(t, env, "read_file", fmt.Sprintf(`{"path":%q,"offset":3,"limit":1}`, tc.path)))
			want := mustOK(t, call(t, env, "list_dir", fmt.Sprintf(`{"path":%q}`, tc.listPath)))
			title, listing, _ := strings.Cut(got.Output, "\n")
			if !strings.HasPrefix(title, tc.title) || listing != want.Output {
				t.Errorf("read_file %s =\n%s\nwant one title line (%q…) then list_dir's\n%s", tc.path, got.Output, tc.title, want.Output)
			}
			for _, rel := range []string{tc.listPath, "pkg/a.go"} {
				if rec, ok := env.Files.Record(rel); ok {
					t.Errorf("a listing recorded %s as read: %+v", rel, rec)
				}
			}
		})
	}
	// The listing counts as no read: an edit inside the directory still needs its file read.
	res := call(t, env, "edit_file", `{"path":"pkg/a.go","old_string":"pkg","new_string":"p2"}`)
	mustFail(t, res, "you have not read it in this session")
}
