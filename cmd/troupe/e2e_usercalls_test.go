package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The line chat's own calls: "!command" runs bash through the session's executor (a deny rule
// refuses it even in yolo mode) and its output becomes the user's note; "@path" attaches files
// through read_file's rules, and each one that cannot be attached says why in one line while
// the message still reaches the model.
func TestChatShellAndMentionsGoThroughTheSession(t *testing.T) {
	repo := newRepo(t, map[string]string{
		"notes.md":    "file-marker-7\n",
		"bin.dat":     "a\x00b",
		"docs/a.md":   "x\n",
		"troupe.toml": "[permissions]\ndeny = [\"bash(rm*)\"]\n",
		"creds.txt":   "token " + githubToken + "\n",
	})
	big := bytes.Repeat([]byte("a line of the big log\n"), 50<<20/22) // 50 MB of text
	if err := os.WriteFile(filepath.Join(repo, "big.log"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "id_rsa")
	if err := os.WriteFile(secret, []byte("SECRET-KEY-MATERIAL\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The model's one turn checks that the last attachment (bin.dat's) reached it.
	model := writeScript(t, repo, `{"turns": [{"text": "attached all", "expect": "binary file"}]}`)
	cmd, stdin, out, stderr := startChat(t, repo, "--mode", "yolo", "--sandbox", "off", "--model", model)
	step := func(line, want string) {
		t.Helper()
		io.WriteString(stdin, line+"\n")
		out.waitFor(t, want, 30*time.Second)
	}
	step("!echo shell-marker-42", "(the output is in the context as your note)")
	if !strings.Contains(out.text(), "shell-marker-42\n[exit code 0]") {
		t.Errorf("the command's output is not shown:\n%s", out.text())
	}
	step("!cat creds.txt", "token [redacted]") // redacted as any tool output is
	step("!", "! needs a command after it")
	step("!rm -f notes.md", "denied by the pattern bash(rm*)")
	if _, err := os.Stat(filepath.Join(repo, "notes.md")); err != nil {
		t.Fatalf("a denied !rm ran: %v", err)
	}
	step("look at @notes.md @nope.txt @docs @"+secret+" @big.log @bin.dat", "attached all")
	for _, want := range []string{"✓ 1 line", "nope.txt does not exist", "docs is a directory", "id_rsa\" refused", "binary file"} {
		if !strings.Contains(out.text(), want) {
			t.Errorf("the chat does not say %q:\n%s", want, out.text())
		}
	}
	io.WriteString(stdin, "/exit\n")
	if code := waitExit(t, cmd, 30*time.Second); code != 0 {
		t.Fatalf("chat exit %d: %s", code, stderr.String())
	}
	id := regexp.MustCompile(`session (\S+)`).FindStringSubmatch(stderr.String())
	if id == nil {
		t.Fatalf("no session id in %q", stderr.String())
	}
	log := troupe(t, repo, testEnv(t), "log", id[1]).stdout
	for _, want := range []string{"The user ran a shell command", "$ echo shell-marker-42", "The user attached @notes.md", "file-marker-7",
		"@nope.txt, which could not be attached", "look at @notes.md"} {
		if !strings.Contains(log, want) {
			t.Errorf("the context lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log+out.text(), githubToken) {
		t.Error("a secret in a command's output was not redacted")
	}
	if strings.Contains(log, "SECRET-KEY-MATERIAL") {
		t.Error("a file outside the workspace reached the context")
	}
	if strings.Contains(log, "$ rm -f notes.md") {
		t.Error("a denied command was noted as run")
	}
	if n := strings.Count(log, "a line of the big log"); n == 0 || n > 5000 {
		t.Errorf("the 50 MB file gave %d lines to the context (read_file's bound keeps a head)", n)
	}
}

// githubToken has the form of a GitHub token (the redactor knows the format), built so that no
// token-shaped literal sits in the source.
var githubToken = "ghp_" + strings.Repeat("a1B2", 9)
