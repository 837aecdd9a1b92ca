package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testToken = "tok-0123456789abcdef"

// TestToolResultsNeverShowSecrets drives the lifecycle: the node token and a provider key
// printed by a command, or stored in a workspace file, come back as [redacted].
func TestToolResultsNeverShowSecrets(t *testing.T) {
	env := newEnv(t)
	env.Secrets = SecretRedactor(func(name string) string {
		if name == "SOME_API_KEY" {
			return "sk-secret-key-value-42"
		}
		return ""
	}, []string{"SOME_API_KEY", "UNSET_KEY"}, testToken)
	writeFiles(t, env.Root, map[string]string{"leak.txt": "token=" + testToken + "\nkey sk-secret-key-value-42 end\n"})

	for _, tc := range []struct{ tool, args string }{
		{"read_file", `{"path":"leak.txt"}`},
		{"grep", `{"pattern":"token|key"}`},
		{"bash", `{"command":"cat leak.txt; echo ` + testToken + `"}`},
	} {
		res := call(t, env, tc.tool, tc.args)
		if strings.Contains(res.Output, testToken) || strings.Contains(res.Output, "sk-secret-key-value-42") {
			t.Errorf("%s shows a secret:\n%s", tc.tool, res.Output)
		}
		mustContain(t, res.Output, "token=[redacted]", "key [redacted] end")
	}
}

func TestRedactorSkipsShortAndEmptyValues(t *testing.T) {
	r := NewRedactor("", "short", "a-long-secret-value", "a-long-secret-value-with-more")
	got := r.Redact("short a-long-secret-value a-long-secret-value-with-more")
	if want := "short [redacted] [redacted]"; got != want {
		t.Errorf("Redact = %q, want %q", got, want)
	}
	if got := (Redactor{}).Redact("anything " + testToken); got != "anything "+testToken {
		t.Errorf("the zero Redactor changed text: %q", got)
	}
}

// TestReadToolsRefuseTroupeState: troupe's own state (the node file with the bus token) is
// refused by every read tool by name, and through a symlink to it.
func TestReadToolsRefuseTroupeState(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{".troupe/node.json": `{"token":"` + testToken + `"}`, "ok.txt": "fine\n"})
	if err := symlink(".troupe/node.json", env.Root, "innocent.json"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ tool, args string }{
		{"read_file", `{"path":".troupe/node.json"}`},
		{"read_file", `{"path":"innocent.json"}`},
		{"read_file", `{"path":"./x/../.troupe/node.json"}`},
		{"list_dir", `{"path":".troupe"}`},
		{"glob", `{"pattern":"*","path":".troupe"}`},
		{"grep", `{"pattern":"token","path":".troupe"}`},
	} {
		res := call(t, env, tc.tool, tc.args)
		if !res.IsError || !strings.Contains(res.Output, troupeStateRefusal) {
			t.Errorf("%s %s = %+v; want a refusal saying %q", tc.tool, tc.args, res, troupeStateRefusal)
		}
	}
	if res := call(t, env, "grep", `{"pattern":"token"}`); strings.Contains(res.Output, testToken) {
		t.Errorf("grep over the workspace shows the token through the symlink:\n%s", res.Output)
	}
}

// symlink creates root/name pointing at target.
func symlink(target, root, name string) error {
	return os.Symlink(target, filepath.Join(root, name))
}
