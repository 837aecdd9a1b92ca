package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHooksFromEveryFileInOrderAndProjectOnesSkippedUntilTrusted(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "proj")
	home := filepath.Join(dir, "home")
	for _, d := range []string{filepath.Join(root, ".claude"), filepath.Join(home, ".claude")} {
		os.MkdirAll(d, 0o755)
	}
	user := filepath.Join(dir, "user.toml")
	os.WriteFile(user, []byte("[[hooks.PreToolUse]]\nmatcher = \"bash\"\ncommand = \"u1\"\ntimeout_s = 5\n"), 0o644)
	os.WriteFile(filepath.Join(root, "troupe.toml"), []byte("[[hooks.Stop]]\ncommand = \"p1\"\n"), 0o644)
	os.WriteFile(filepath.Join(home, ClaudeSettingsFile), []byte(`{"hooks":{"PostToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"cu","timeout":30}]}],"Notification":[{"hooks":[{"type":"command","command":"n"}]}]}}`), 0o644)
	os.WriteFile(filepath.Join(root, ClaudeSettingsFile), []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"cp"}]}]}}`), 0o644)
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	load := func(userFile string) *Config {
		c, err := Load(LoadOptions{UserFile: userFile, ProjectFile: filepath.Join(root, "troupe.toml"), Getenv: getenv})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	list, warnings := load(user).ProjectHooks(root, getenv)
	var got []string
	for _, h := range list {
		got = append(got, string(h.Event)+":"+h.Command+":"+map[bool]string{true: "skipped", false: "runs"}[h.Skipped != ""])
	}
	if want := "PreToolUse:u1:runs PostToolUse:cu:runs Stop:p1:skipped PreToolUse:cp:skipped"; strings.Join(got, " ") != want {
		t.Errorf("hooks %v\nwant %s", got, want)
	}
	if !list[1].Claude || list[1].TimeoutS != 30 || list[0].Claude || list[0].TimeoutS != 5 {
		t.Errorf("kinds and timeouts: %+v %+v", list[0], list[1])
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "Notification") {
		t.Errorf("warnings %q", warnings)
	}
	if !strings.Contains(list[2].Skipped, "trusted_projects") {
		t.Errorf("skip reason %q does not say how to trust", list[2].Skipped)
	}
	trusting := filepath.Join(dir, "trusting.toml")
	os.WriteFile(trusting, []byte("trusted_projects = ["+quote(root)+"]\n"), 0o644)
	list, _ = load(trusting).ProjectHooks(root, getenv)
	for _, h := range list {
		if h.Skipped != "" {
			t.Errorf("%s skipped in a trusted project", h.Command)
		}
	}
}

func TestBadHookConfigIsOneLineEach(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.toml")
	os.WriteFile(user, []byte("[[hooks.PreToolUs]]\ncommand = \"x\"\n[[hooks.Stop]]\ncommand = \"\"\n[[hooks.PostToolUse]]\nmatcher = \"(\"\ncommand = \"x\"\n"), 0o644)
	c, err := Load(LoadOptions{UserFile: user, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"hooks.PreToolUs", "unknown event", "hooks.Stop", "no command", "not a regular expression"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	os.WriteFile(user, []byte("[[hooks.Stop]]\ncomand = \"x\"\n"), 0o644)
	if _, err := Load(LoadOptions{UserFile: user}); err == nil || !strings.Contains(err.Error(), "command") {
		t.Errorf("a misspelt key: %v", err)
	}
	bad := filepath.Join(dir, "settings.json")
	os.WriteFile(bad, []byte(`{"hooks": {`), 0o644)
	if _, _, err := LoadClaudeHooks(bad); err == nil || !strings.Contains(err.Error(), "fix the JSON") {
		t.Errorf("broken settings.json: %v", err)
	}
}
