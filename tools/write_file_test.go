package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{"old.sh": "echo old\n", "adir/": ""})
	if err := os.Chmod(filepath.Join(env.Root, "old.sh"), 0o751); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, args string
		isError    bool
		want       []string
		file       string // checked after the call
		content    string
		mode       os.FileMode
	}{
		{name: "create with parents", args: `{"path":"a/b/new.txt","content":"x\ny\nz"}`,
			want: []string{"created a/b/new.txt: 5 bytes, 3 lines written"}, file: "a/b/new.txt", content: "x\ny\nz", mode: 0o644},
		{name: "overwrite keeps mode", args: `{"path":"old.sh","content":"echo new\n"}`,
			want: []string{"overwrote old.sh (was 9 bytes): 9 bytes, 1 line written"}, file: "old.sh", content: "echo new\n", mode: 0o751},
		{name: "empty content", args: `{"path":"empty","content":""}`, want: []string{"created empty: 0 bytes, 0 lines"}, file: "empty", content: "", mode: 0o644},
		{name: "directory refused", args: `{"path":"adir","content":"x"}`, isError: true, want: []string{"is a directory"}},
		{name: "outside refused", args: `{"path":"../x","content":"x"}`, isError: true, want: []string{"only paths inside the workspace"}},
		{name: "content required", args: `{"path":"x"}`, isError: true, want: []string{"missing required property 'content'"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, env, "write_file", tc.args)
			if res.IsError != tc.isError {
				t.Fatalf("IsError = %v, want %v: %s", res.IsError, tc.isError, res.Output)
			}
			mustContain(t, res.Output, tc.want...)
			if tc.file == "" {
				if len(res.Changed) != 0 {
					t.Errorf("Changed = %v for a failed write", res.Changed)
				}
				return
			}
			if len(res.Changed) != 1 || res.Changed[0] != tc.file {
				t.Errorf("Changed = %v, want [%s]", res.Changed, tc.file)
			}
			p := filepath.Join(env.Root, tc.file)
			if got := readFileT(t, p); got != tc.content {
				t.Errorf("content = %q, want %q", got, tc.content)
			}
			info, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if info.Mode().Perm() != tc.mode {
				t.Errorf("mode = %v, want %v", info.Mode().Perm(), tc.mode)
			}
		})
	}
	entries, err := os.ReadDir(env.Root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".troupe-") {
			t.Errorf("temp file %s left behind", e.Name())
		}
	}
}

func TestWriteFileThroughSymlinkInside(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{"real/target.txt": "old"})
	mustSymlink(t, "real", filepath.Join(env.Root, "alias"))
	res := call(t, env, "write_file", `{"path":"alias/target.txt","content":"new"}`)
	if res.IsError {
		t.Fatal(res.Output)
	}
	if got := readFileT(t, filepath.Join(env.Root, "real/target.txt")); got != "new" {
		t.Errorf("target = %q", got)
	}
	if res.Changed[0] != "real/target.txt" {
		t.Errorf("Changed = %v, want the resolved path", res.Changed)
	}
}
