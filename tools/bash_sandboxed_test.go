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
	if n := sandboxNote(env, "true", "touch: cannot touch '/etc/x': Permission denied\n", true); !strings.Contains(n, "--sandbox off") {
		t.Errorf("no note for a denial under the sandbox: %q", n)
	}
	if n := sandboxNote(env, "true", "FAIL: TestX\n", true); n != "" {
		t.Errorf("a plain failure got a sandbox note: %q", n)
	}
	if n := sandboxNote(env, "true", "Permission denied", false); n != "" {
		t.Errorf("a command that succeeded got a note: %q", n)
	}
	if n := sandboxNote(&Env{}, "true", "Permission denied", true); n != "" {
		t.Errorf("no sandbox, yet a note: %q", n)
	}
}

// TestSandboxNoteNamesHiddenCredentials: a failed command that named a credential path is told
// the sandbox hides it, not to ask for the sandbox off.
func TestSandboxNoteNamesHiddenCredentials(t *testing.T) {
	env := &Env{Sandbox: noopSandbox{}, Root: "/w", Environ: []string{"HOME=/home/u"}, Hidden: []string{"/home/u/.ssh"}}
	n := sandboxNote(env, "cat ~/.ssh/id_ed25519", "cat: /home/u/.ssh/id_ed25519: No such file or directory", true)
	if !strings.Contains(n, "credentials hidden by troupe's sandbox: /home/u/.ssh") || strings.Contains(n, "--sandbox off") {
		t.Errorf("note = %q", n)
	}
}
