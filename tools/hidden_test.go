package tools

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestFileToolsKeepOutOfHiddenPaths: a credential path inside the workspace (a workspace in
// $HOME, or [sandbox] deny_read) is refused by the file tools and never walked by the
// directory tools, as .troupe/ is.
func TestFileToolsKeepOutOfHiddenPaths(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{".ssh/id_ed25519": "SECRET key\n", "keys.txt": "SECRET list\n", "ok.txt": "SECRET-free\n"})
	root, err := filepath.EvalSymlinks(env.Root)
	if err != nil {
		t.Fatal(err)
	}
	env.Hidden = []string{filepath.Join(root, ".ssh"), filepath.Join(root, "keys.txt")}
	for _, c := range []struct{ tool, args string }{
		{"read_file", `{"path":"keys.txt"}`},
		{"read_file", `{"path":".ssh/id_ed25519"}`},
		{"list_dir", `{"path":".ssh"}`},
		{"write_file", `{"path":".ssh/authorized_keys","content":"x"}`},
	} {
		mustFail(t, call(t, env, c.tool, c.args), "holds credentials")
	}
	for _, c := range []struct{ tool, args string }{
		{"grep", `{"pattern":"SECRET"}`},
		{"list_dir", `{}`},
		{"glob", `{"pattern":"**"}`},
	} {
		out := call(t, env, c.tool, c.args).Output
		if strings.Contains(out, "keys.txt") || strings.Contains(out, "id_ed25519") || strings.Contains(out, "SECRET key") {
			t.Errorf("%s shows a hidden path:\n%s", c.tool, out)
		}
		if !strings.Contains(out, "ok.txt") {
			t.Errorf("%s lost the rest of the workspace:\n%s", c.tool, out)
		}
	}
}
