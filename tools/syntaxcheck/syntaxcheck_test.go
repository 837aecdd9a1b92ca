package syntaxcheck

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func check(t *testing.T, c *Checker, name, content string) *Problem {
	t.Helper()
	abs := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := c.Check(context.Background(), abs, name, []byte(content))
	if err != nil {
		t.Fatalf("Check(%s): %v", name, err)
	}
	return p
}

func TestInProcess(t *testing.T) {
	tests := []struct {
		name, content string
		line, col     int    // 0: no problem expected
		msg           string // part of the message
	}{
		{"ok.go", "package main\n\nfunc main() {}\n", 0, 0, ""},
		{"bad.go", "package main\n\nfunc main() {\n\tx := \n}\n", 5, 1, "expected operand"},
		{"ok.json", `{"a": [1, 2]}`, 0, 0, ""},
		{"bad.json", "{\n  \"a\": 1,\n  \"b\" 2\n}\n", 3, 7, "after object key"},
		{"short.json", "{\"a\": ", 1, 7, "unexpected end"},
		{"ok.yaml", "a: 1\nb:\n  - x\n---\nc: 2\n", 0, 0, ""},
		{"bad.yml", "a: 1\nb: [1, 2\nc: 3\n", 1, 0, "did not find"}, // yaml.v3 says line 1: only near
		{"tab.yaml", "a:\n\tb: 1\n", 2, 0, "cannot start any token"},
		{"ok.toml", "[a]\nb = 1\n", 0, 0, ""},
		{"bad.toml", "[a]\nb = = 1\n", 2, 5, ""},
		{"notes.txt", "{{{ not checked", 0, 0, ""},
	}
	var c Checker
	for _, tc := range tests {
		p := check(t, &c, tc.name, tc.content)
		if tc.line == 0 {
			if p != nil {
				t.Errorf("%s: unexpected problem %s", tc.name, p)
			}
			continue
		}
		if p == nil {
			t.Errorf("%s: no problem found", tc.name)
			continue
		}
		if p.Line != tc.line || (tc.col != 0 && p.Col != tc.col) || !strings.Contains(p.Msg, tc.msg) || p.Path != tc.name {
			t.Errorf("%s: got %d:%d %q (path %s), want %d:%d containing %q", tc.name, p.Line, p.Col, p.Msg, p.Path, tc.line, tc.col, tc.msg)
		}
	}
}

func TestProblemString(t *testing.T) {
	p := Problem{Path: "a.go", Line: 5, Col: 7, Msg: "expected operand", Source: "\tx := \t}"}
	want := "a.go:5:7: expected operand\n    \tx := \t}\n    \t     ^"
	if got := p.String(); got != want {
		t.Errorf("String() =\n%q\nwant\n%q", got, want)
	}
	noCol := Problem{Path: "a.py", Line: 2, Msg: "bad"}
	if got := noCol.String(); got != "a.py:2: bad" {
		t.Errorf("String() = %q", got)
	}
	eof := Problem{Path: "a.go", Line: 3, Col: 15, Msg: "expected '}', found 'EOF'", Source: "func main() {"}
	if got, want := eof.String(), "a.go:3:15: expected '}', found 'EOF'\n    func main() {\n                 ^"; got != want {
		t.Errorf("String() =\n%q\nwant\n%q", got, want)
	}
	near := Problem{Path: "a.yml", Line: 2, Msg: "bad", Near: true}
	if got := near.String(); got != "a.yml: near line 2: bad" {
		t.Errorf("String() = %q", got)
	}
}

func TestExternal(t *testing.T) {
	tests := []struct {
		binary, name, good, bad string
		line                    int
	}{
		{"python3", "x.py", "def f():\n    return 1\n", "x = 1\ndef f(:\n    pass\n", 2},
		{"node", "x.js", "function f() { return 1 }\n", "let a = 1\nfunction f( {\n  return 1\n}\n", 3},
		// an ES module in a .js file: node --check alone passes it broken (v20.20)
		{"node", "esm.js", "import fs from 'fs'\nexport const a = {b: 1}\n", "export const flags = {\n  beta: true,,\n}\n", 2},
		{"node", "x.mjs", "export const a = 1\n", "export const a = {b: 1,,}\n", 1},
		{"bash", "x.sh", "if true; then echo; fi\n", "echo hi\nif [ x ]; then\necho\n", 4},
	}
	var c Checker
	for _, tc := range tests {
		if _, err := exec.LookPath(tc.binary); err != nil {
			t.Logf("%s not installed: its check is skipped", tc.binary)
			continue
		}
		if p := check(t, &c, tc.name, tc.good); p != nil {
			t.Errorf("%s: good file reported: %s", tc.binary, p)
		}
		p := check(t, &c, tc.name, tc.bad)
		if p == nil || p.Line != tc.line || p.Msg == "" {
			t.Errorf("%s: got %+v, want a problem on line %d", tc.binary, p, tc.line)
		}
	}
	dir := t.TempDir()
	py := filepath.Join(dir, "x.py")
	_ = os.WriteFile(py, []byte("x = 1\n"), 0o644)
	if _, err := exec.LookPath("python3"); err == nil {
		_, _ = c.Check(context.Background(), py, "x.py", []byte("x = 1\n"))
		if _, err := os.Stat(filepath.Join(dir, "__pycache__")); err == nil {
			t.Error("the python check wrote __pycache__ into the workspace")
		}
	}
}

// TestExternalMissingOrFailing: no binary means no check; a runner that fails is an error,
// never a reported syntax problem.
func TestExternalMissingOrFailing(t *testing.T) {
	missing := Checker{LookPath: func(string) (string, error) { return "", exec.ErrNotFound }}
	if p := check(t, &missing, "x.py", "def f(:\n"); p != nil {
		t.Errorf("a missing checker reported %s", p)
	}
	failing := Checker{Runner: func(context.Context, *exec.Cmd) ([]byte, error) { return nil, errors.New("sandbox refused") }}
	abs := filepath.Join(t.TempDir(), "x.sh")
	if err := os.WriteFile(abs, []byte("echo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := failing.Check(context.Background(), abs, "x.sh", []byte("echo\n"))
	if p != nil || err == nil || !strings.Contains(err.Error(), "sandbox refused") {
		t.Errorf("got %v, %v; want the runner's error", p, err)
	}
}
