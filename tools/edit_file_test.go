package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func editArgs(path, old, new string, all bool) string {
	data, _ := json.Marshal(map[string]any{"path": path, "old_string": old, "new_string": new, "replace_all": all})
	return string(data)
}

func TestEditFile(t *testing.T) {
	const goSrc = "package main\n\nfunc main() {\n\tprintln(\"hi\")\n\tprintln(\"hi\")\n}\n"
	tests := []struct {
		name      string
		content   string
		args      string
		isError   bool
		want      []string
		wantAfter string // "" means unchanged
	}{
		{name: "unique match", content: goSrc, args: editArgs("f.go", "func main() {", "func run() {", false),
			want:      []string{"edited f.go: 1 replacement(s)", "--- a/f.go", "+++ b/f.go", "-func main() {", "+func run() {"},
			wantAfter: strings.Replace(goSrc, "func main", "func run", 1)},
		{name: "several matches", content: goSrc, args: editArgs("f.go", "println(\"hi\")", "x()", false), isError: true,
			want: []string{"matches 2 times in f.go (lines 4, 5)", "replace_all=true"}},
		{name: "replace all", content: goSrc, args: editArgs("f.go", "println(\"hi\")", "x()", true),
			want: []string{"2 replacement(s)"}, wantAfter: strings.ReplaceAll(goSrc, "println(\"hi\")", "x()")},
		{name: "no match", content: goSrc, args: editArgs("f.go", "func other()", "x", false), isError: true,
			want: []string{"old_string was not found in f.go", "read the file again"}},
		{name: "whitespace-only difference", content: goSrc, args: editArgs("f.go", "    println(\"hi\")\n    println(\"hi\")", "x", false), isError: true,
			want: []string{"matches if whitespace is ignored at line(s) 4", "tabs vs spaces"}},
		{name: "line-number prefixes pasted", content: goSrc, args: editArgs("f.go", "     3\tfunc main() {\n     4\t\tprintln(\"hi\")", "x", false), isError: true,
			want: []string{"line-number prefixes"}},
		{name: "no change", content: goSrc, args: editArgs("f.go", "main", "main", false), isError: true, want: []string{"no change"}},
		{name: "empty old_string", content: goSrc, args: editArgs("f.go", "", "x", false), isError: true, want: []string{"old_string is empty"}},
		{name: "missing file", args: editArgs("nope.go", "a", "b", false), isError: true, want: []string{"nope.go does not exist", "use write_file"}},
		{name: "CRLF preserved", content: "one\r\ntwo\r\nthree\r\n", args: editArgs("f.go", "one\ntwo", "ONE\nTWO", false),
			want: []string{"-one", "+ONE"}, wantAfter: "ONE\r\nTWO\r\nthree\r\n"},
		{name: "CRLF old_string on CRLF file", content: "one\r\ntwo\r\n", args: editArgs("f.go", "one\r\ntwo", "1\r\n2", false),
			wantAfter: "1\r\n2\r\n"},
		{name: "edit that leaves the file identical", content: "one\r\ntwo\r\n", args: editArgs("f.go", "one\r\n", "one\n", false), isError: true,
			want: []string{"no change: the edit would leave f.go identical"}},
		{name: "binary refused", content: "ab\x00cd", args: editArgs("f.go", "ab", "xy", false), isError: true, want: []string{"binary file"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t)
			p := filepath.Join(env.Root, "f.go")
			if tc.content != "" {
				writeFiles(t, env.Root, map[string]string{"f.go": tc.content})
				if err := os.Chmod(p, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			res := call(t, env, "edit_file", tc.args)
			if res.IsError != tc.isError {
				t.Fatalf("IsError = %v, want %v: %s", res.IsError, tc.isError, res.Output)
			}
			mustContain(t, res.Output, tc.want...)
			if tc.content == "" {
				return
			}
			after := readFileT(t, p)
			want := tc.wantAfter
			if want == "" {
				want = tc.content
			}
			if after != want {
				t.Errorf("file after = %q, want %q", after, want)
			}
			if tc.wantAfter != "" {
				if len(res.Changed) != 1 || res.Changed[0] != "f.go" {
					t.Errorf("Changed = %v", res.Changed)
				}
				if info, _ := os.Stat(p); info.Mode().Perm() != 0o600 {
					t.Errorf("mode = %v, want 0600 kept", info.Mode().Perm())
				}
			} else if len(res.Changed) != 0 {
				t.Errorf("Changed = %v for a failed edit", res.Changed)
			}
		})
	}
}

func TestEditFileDiffIsBounded(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{"big.txt": strings.Repeat("a\n", 5000)})
	res := call(t, env, "edit_file", editArgs("big.txt", "a", "b", true))
	if res.IsError {
		t.Fatal(res.Output)
	}
	if len(res.Output) > editDiffBudget+200 {
		t.Errorf("diff output is %d bytes, want it bounded near %d", len(res.Output), editDiffBudget)
	}
	mustContain(t, res.Output, "5000 replacement(s)", "lines dropped")
}
