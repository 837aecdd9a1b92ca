package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// TestProtectedFilesAlwaysAsk: a write to a file that grants power asks in every mode but yolo,
// even under an allow pattern or the session allowlist; a deny pattern still wins.
func TestProtectedFilesAlwaysAsk(t *testing.T) {
	allowAll := Policy{Allow: []string{"write_file", "edit_file(**)"}}
	tests := []struct {
		name, tool, path string
		mode             messages.Mode
		deny             []string
		want             Decision
	}{
		{"troupe.toml in auto-edit", "write_file", "troupe.toml", messages.ModeAutoEdit, nil, Ask},
		{"troupe.toml cleaned", "write_file", "./sub/../troupe.toml", messages.ModeAutoEdit, nil, Ask},
		{"nested troupe.toml", "edit_file", "pkg/troupe.toml", messages.ModeAutoEdit, nil, Ask},
		{"agent file", "write_file", ".troupe/agents/reviewer.md", messages.ModeAutoEdit, nil, Ask},
		{"git config", "edit_file", ".git/config", messages.ModeAutoEdit, nil, Ask},
		{"git hook", "write_file", ".git/hooks/pre-commit", messages.ModeAsk, nil, Ask},
		{"nested repository", "write_file", "vendor/x/.git/config", messages.ModeAutoEdit, nil, Ask},
		{"gitmodules", "write_file", ".gitmodules", messages.ModeAutoEdit, nil, Ask},
		{"envrc", "write_file", ".envrc", messages.ModeAutoEdit, nil, Ask},
		{"yolo allows", "write_file", ".git/hooks/pre-commit", messages.ModeYolo, nil, Allow},
		{"deny still wins", "write_file", "troupe.toml", messages.ModeAutoEdit, []string{"write_file(troupe.toml)"}, Deny},
		{"plan still denies", "write_file", "troupe.toml", messages.ModePlan, nil, Deny},
		{"ordinary file allowed", "write_file", "src/troupe.go", messages.ModeAutoEdit, nil, Allow},
		{"gitignore is ordinary", "write_file", ".gitignore", messages.ModeAutoEdit, nil, Allow},
		{"a name that only contains .git", "write_file", "docs/.github/ci.yml", messages.ModeAutoEdit, nil, Allow},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := allowAll
			p.Mode, p.Deny = tc.mode, tc.deny
			args := `{"path":"` + tc.path + `","content":"x","old_string":"a","new_string":"b"}`
			got, reason := p.Decide(specOf(t, tc.tool), []byte(args), []string{"write_file", "edit_file"})
			if got != tc.want {
				t.Errorf("Decide = %v (%s), want %v", got, reason, tc.want)
			}
			if got == Ask && !strings.Contains(reason, "protected file") {
				t.Errorf("reason %q does not say the file is protected", reason)
			}
		})
	}
}

// TestProtectedWriteIsDeniedHeadlessAndAudited: with no one to ask, a protected write through
// a symlink is refused, nothing is written, and the gate reports the denial for the audit.
func TestProtectedWriteIsDeniedHeadlessAndAudited(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{".git/config": "[core]\n"})
	if err := symlink(".git/config", env.Root, "harmless.cfg"); err != nil {
		t.Fatal(err)
	}
	g := NewGate(Policy{Mode: messages.ModeAutoEdit, Allow: []string{"write_file"}}, nil, "rerun with --yes")
	var audit []string
	g.OnDecision(func(_ context.Context, spec Spec, d Decision, reason string) {
		audit = append(audit, spec.Name+" "+d.String()+": "+reason)
	})
	reg := builtinRegistry(t)
	reg.AddCheck(g.Check())
	res := reg.Execute(context.Background(), env, Call{ID: "c1", Name: "write_file",
		Args: `{"path":"harmless.cfg","content":"[core]\n\tfsmonitor = touch /tmp/pwned\n"}`})
	if !res.IsError || !strings.Contains(res.Output, "protected file") || !strings.Contains(res.Output, "--yes") {
		t.Errorf("result = %+v; want a denial naming the protected file and --yes", res)
	}
	if got := readFileT(t, env.Root+"/.git/config"); got != "[core]\n" {
		t.Errorf(".git/config was written: %q", got)
	}
	if len(audit) != 1 || !strings.HasPrefix(audit[0], "write_file deny: ") || !strings.Contains(audit[0], ".git/config") {
		t.Errorf("audit = %q; want one deny naming .git/config", audit)
	}
}
