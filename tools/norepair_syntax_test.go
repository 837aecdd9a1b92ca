package tools

import (
	"strings"
	"testing"
)

// The post-edit syntax check is part of issue 9's layer: with repair off (the repair bench's
// baseline) a write that leaves a syntax error says nothing of it; with repair on it does.
// Either way the write stays.
func TestNoRepairSkipsTheSyntaxCheck(t *testing.T) {
	for _, noRepair := range []bool{false, true} {
		env := newEnv(t)
		env.NoRepair = noRepair
		res := call(t, env, "write_file", `{"path":"main.go","content":"package main\n\nfunc main() {\n"}`)
		if res.IsError {
			t.Fatalf("NoRepair %v: the write failed: %s", noRepair, res.Output)
		}
		if reported := strings.Contains(res.Output, "syntax check: main.go:"); reported == noRepair {
			t.Errorf("NoRepair %v: syntax error reported %v: %s", noRepair, reported, res.Output)
		}
		if got := readFileT(t, env.Root+"/main.go"); !strings.Contains(got, "func main() {") {
			t.Errorf("NoRepair %v: the file was not kept: %q", noRepair, got)
		}
	}
}
