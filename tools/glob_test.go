package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestGlobPattern(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"*.go", "a.go", true},
		{"*.go", "sub/a.go", false},
		{"**/*.go", "a.go", true},
		{"**/*.go", "a/b/c.go", true},
		{"src/**/*_test.go", "src/x_test.go", true},
		{"src/**/*_test.go", "src/a/b/x_test.go", true},
		{"src/**/*_test.go", "lib/x_test.go", false},
		{"**/*.{ts,tsx}", "web/App.tsx", true},
		{"**/*.{ts,tsx}", "web/App.js", false},
		{"{cmd,pkg}/**/main.go", "pkg/x/main.go", true},
		{"a/**", "a/b/c", true},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
		{"?.md", "ab.md", false},
		{"[ab].md", "b.md", true},
	}
	for _, tc := range tests {
		g, err := compileGlob(tc.pattern)
		if err != nil {
			t.Fatalf("compile %q: %v", tc.pattern, err)
		}
		if got := g.match(tc.path); got != tc.want {
			t.Errorf("%q match %q = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
	for _, bad := range []string{"[", "../*.go", "{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}"} {
		if _, err := compileGlob(bad); err == nil {
			t.Errorf("compileGlob(%q) accepted", bad)
		}
	}
}

func TestGlob(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{
		".gitignore":        "vendor/\n",
		"old.go":            "",
		"new.go":            "",
		"pkg/mid.go":        "",
		"pkg/mid_test.go":   "",
		"vendor/dep/dep.go": "",
		"web/a.ts":          "",
		"web/b.tsx":         "",
	})
	base := time.Now().Add(-time.Hour)
	for i, name := range []string{"old.go", "pkg/mid.go", "new.go"} {
		ts := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(filepath.Join(env.Root, name), ts, ts); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, args string
		isError    bool
		want       string // exact output, or a substring when isError or partial
		exact      bool
	}{
		{name: "recursive newest first", args: `{"pattern":"**/*.go"}`, exact: true, want: "pkg/mid_test.go\nnew.go\npkg/mid.go\nold.go\n"},
		{name: "top level only", args: `{"pattern":"*.go"}`, exact: true, want: "new.go\nold.go\n"},
		{name: "relative to path", args: `{"pattern":"*.go","path":"pkg"}`, exact: true, want: "pkg/mid_test.go\npkg/mid.go\n"},
		{name: "braces", args: `{"pattern":"web/*.{ts,tsx}"}`, want: "web/a.ts"},
		{name: "no match hints **", args: `{"pattern":"*.ts"}`, want: "use **/*.ts to search subdirectories"},
		{name: "bad pattern", args: `{"pattern":"[a"}`, isError: true, want: "bad segment"},
		{name: "absolute pattern", args: `{"pattern":"/etc/*"}`, isError: true, want: "is absolute"},
		{name: "path outside", args: `{"pattern":"*","path":"/etc"}`, isError: true, want: "only paths inside the workspace"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, env, "glob", tc.args)
			if res.IsError != tc.isError {
				t.Fatalf("IsError = %v, want %v: %s", res.IsError, tc.isError, res.Output)
			}
			if tc.exact && res.Output != tc.want {
				t.Errorf("output:\n%s\nwant:\n%s", res.Output, tc.want)
			}
			mustContain(t, res.Output, tc.want)
			if strings.Contains(res.Output, "vendor") {
				t.Errorf("ignored vendor/ listed:\n%s", res.Output)
			}
		})
	}
}

func TestGlobCapped(t *testing.T) {
	env := newEnv(t)
	for i := range globMaxResults + 7 {
		writeFiles(t, env.Root, map[string]string{fmt.Sprintf("d/f%03d.txt", i): ""})
	}
	res := call(t, env, "glob", `{"pattern":"**/*.txt"}`)
	if n := strings.Count(res.Output, ".txt\n"); n != globMaxResults {
		t.Errorf("%d results shown, want %d", n, globMaxResults)
	}
	mustContain(t, res.Output, "(7 more matches not shown")
}
