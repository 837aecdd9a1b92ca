package tools

import (
	"os/exec"
	"strings"
	"testing"
)

type noopSandbox struct{}

func (noopSandbox) Wrap(*exec.Cmd, *Env) error { return nil }

func TestSandboxNoteOnlyWhenConfinedAndDenied(t *testing.T) {
	env := &Env{Sandbox: noopSandbox{}}
	if n := sandboxNote(env, "touch: cannot touch '/etc/x': Permission denied\n", true); !strings.Contains(n, "--sandbox off") {
		t.Errorf("no note for a denial under the sandbox: %q", n)
	}
	if n := sandboxNote(env, "FAIL: TestX\n", true); n != "" {
		t.Errorf("a plain failure got a sandbox note: %q", n)
	}
	if n := sandboxNote(env, "Permission denied", false); n != "" {
		t.Errorf("a command that succeeded got a note: %q", n)
	}
	if n := sandboxNote(&Env{}, "Permission denied", true); n != "" {
		t.Errorf("no sandbox, yet a note: %q", n)
	}
}
