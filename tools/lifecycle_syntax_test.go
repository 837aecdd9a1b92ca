package tools

import (
	"context"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
)

// countingSandbox runs commands unchanged and counts them.
type countingSandbox struct{ wrapped atomic.Int32 }

func (s *countingSandbox) Wrap(*exec.Cmd, *Env) error { s.wrapped.Add(1); return nil }

// TestAfterWriteSyntaxCheck: a write that leaves a file unparseable succeeds, keeps the file
// and tells the model where the syntax error is; a clean write says nothing extra.
func TestAfterWriteSyntaxCheck(t *testing.T) {
	env := newEnv(t)
	reg := builtinRegistry(t)
	run := func(name, args string) Result {
		return reg.Execute(context.Background(), env, Call{ID: "1", Name: name, Args: args})
	}
	res := run("write_file", `{"path":"cmd/main.go","content":"package main\n\nfunc main() {\n\tx := \n}\n"}`)
	if res.IsError {
		t.Fatalf("a write with a syntax error must succeed: %s", res.Output)
	}
	mustContain(t, res.Output, "syntax check: cmd/main.go:5:1: expected operand", "\n    }\n    ^", "the change was kept")
	if got := readFileT(t, env.Root+"/cmd/main.go"); !strings.Contains(got, "x := ") {
		t.Errorf("the file was not kept: %q", got)
	}

	res = run("write_file", `{"path":"ok.json","content":"{\"a\": 1}\n"}`)
	if res.IsError || strings.Contains(res.Output, "syntax check") {
		t.Errorf("a clean write got: %s", res.Output)
	}
	run("read_file", `{"path":"ok.json"}`)
	res = run("edit_file", `{"path":"ok.json","old_string":"1}","new_string":"1,}"}`)
	if res.IsError {
		t.Fatalf("edit failed: %s", res.Output)
	}
	mustContain(t, res.Output, "syntax check: ok.json:1:9:")

	// A read of a broken file is not checked: only writes are.
	res = run("read_file", `{"path":"cmd/main.go"}`)
	if strings.Contains(res.Output, "syntax check") {
		t.Errorf("a read was syntax-checked: %s", res.Output)
	}
}

func TestAfterWriteExternalCheckUsesSandbox(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	sb := &countingSandbox{}
	env := newEnv(t)
	env.Sandbox = sb
	res := builtinRegistry(t).Execute(context.Background(), env, Call{ID: "1", Name: "write_file",
		Args: `{"path":"run.sh","content":"echo hi\nif [ x ]; then\n"}`})
	if res.IsError {
		t.Fatalf("write failed: %s", res.Output)
	}
	mustContain(t, res.Output, "syntax check: run.sh:3:")
	if sb.wrapped.Load() == 0 {
		t.Error("the external check did not go through the session's sandbox")
	}
}
