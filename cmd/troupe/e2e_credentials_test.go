package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/tools/sandbox"
)

// credentialFiles are the files of a fake $HOME, each holding its own marker.
var credentialFiles = []string{
	".ssh/id_ed25519", ".gnupg/private-keys-v1.d/k.key", ".aws/credentials", ".azure/msal_token_cache.json",
	".config/gcloud/application_default_credentials.json", ".kube/config", ".docker/config.json", ".netrc",
	".git-credentials", ".config/gh/hosts.yml", ".npmrc", ".pypirc", ".cargo/credentials.toml",
	".password-store/site.gpg", ".mozilla/firefox/p/logins.json", ".config/google-chrome/Default/Cookies", ".env",
	"private/notes.txt", // hidden by [sandbox] deny_read
}

// fakeHome makes a $HOME holding every credential file, a readable neighbour in ~/.config, a
// .env beside the workspace, and a user config that adds ~/private to the hidden list.
func fakeHome(t *testing.T, repo string) string {
	t.Helper()
	home := t.TempDir()
	files := map[string]string{".config/other/ok.txt": "VISIBLE-neighbour",
		".config/troupe/config.toml": "[sandbox]\ndeny_read = [\"~/private\"]\n"}
	for i, f := range credentialFiles {
		files[f] = fmt.Sprintf("SECRET-%d", i)
	}
	for name, content := range files {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(repo), ".env.local"), []byte("SECRET-parent\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// readAllCommand lists ~/.config, cats the neighbour and every credential file, each on its
// own so one refusal does not hide the others' output.
func readAllCommand(home, repo string) string {
	parts := []string{"cat ~/.config/other/ok.txt", "ls ~/.config"}
	for _, f := range credentialFiles {
		parts = append(parts, "cat "+filepath.Join(home, f))
	}
	parts = append(parts, "cat "+filepath.Join(filepath.Dir(repo), ".env.local"))
	return strings.Join(parts, "; ") // the last cat fails: the note about hidden paths follows
}

// TestSandboxHidesCredentials drives the real binary under each backend this machine has: a
// command reading every credential of a fake $HOME gets none of them, and still reads the rest
// of ~/.config.
func TestSandboxHidesCredentials(t *testing.T) {
	sup := sandbox.Detect()
	for _, backend := range []struct {
		mode, skip string
	}{
		{"landlock", map[bool]string{true: "", false: "Landlock is not available on this kernel (" + sup.Note + ")"}[sup.LandlockABI >= 1]},
		{"bwrap", map[bool]string{true: "", false: "bubblewrap cannot run here (" + sup.Note + ")"}[sup.BwrapWorks]},
	} {
		t.Run(backend.mode, func(t *testing.T) {
			if backend.skip != "" {
				t.Skip(backend.skip)
			}
			repo := newRepo(t, nil)
			home := fakeHome(t, repo)
			model := writeScript(t, repo, `{"turns": [
				{"tool_calls": [{"name": "bash", "args": {"command": `+jsonString(readAllCommand(home, repo))+`}}]},
				{"text": "done"}]}`)
			env := testEnv(t, "HOME="+home)
			r := troupe(t, repo, env, "run", "--json", "--mode", "yolo", "--sandbox", backend.mode, "--model", model, "read them")
			var out string
			for _, d := range toolResults(t, envelopes(t, r.stdout)) {
				out += d.Output
			}
			if strings.Contains(out, "SECRET-") {
				t.Errorf("a credential reached the model under %s:\n%s", backend.mode, out)
			}
			if !strings.Contains(out, "[credentials hidden by troupe's sandbox") {
				t.Errorf("the failed command's result does not say the path is hidden:\n%s", out)
			}
			if !strings.Contains(out, "VISIBLE-neighbour") || !strings.Contains(out, "other") {
				t.Errorf("the rest of ~/.config is not readable under %s:\n%s\n%s", backend.mode, out, r.stderr)
			}
		})
	}
}

// TestCredentialsWithoutSandbox: with the sandbox off, a command naming a credential is
// refused when nobody can be asked, even in yolo mode, and the file tools refuse a hidden path
// as they refuse .troupe/.
func TestCredentialsWithoutSandbox(t *testing.T) {
	repo := newRepo(t, map[string]string{"keys.txt": "SECRET-in-workspace\n"})
	home := fakeHome(t, repo)
	cfg := filepath.Join(home, ".config/troupe/config.toml")
	if err := os.WriteFile(cfg, []byte("[sandbox]\ndeny_read = [\"~/private\", "+jsonString(filepath.Join(repo, "keys.txt"))+"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "cat ~/.ssh/id_ed25519"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "cat \"$HOME/.aws/credentials\""}}]},
		{"tool_calls": [{"name": "read_file", "args": {"path": "keys.txt"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "echo fine"}}]},
		{"text": "done"}]}`)
	r := troupe(t, repo, testEnv(t, "HOME="+home), "run", "--json", "--mode", "yolo", "--sandbox", "off", "--model", model, "read them")
	results := toolResults(t, envelopes(t, r.stdout))
	if len(results) != 4 {
		t.Fatalf("%d tool results, want 4:\n%s\n%s", len(results), r.stdout, r.stderr)
	}
	for i, d := range results[:3] {
		if strings.Contains(d.Output, "SECRET-") || !strings.Contains(d.Output, "credentials") {
			t.Errorf("call %d was not refused for naming a credential: %s", i, d.Output)
		}
	}
	if !strings.Contains(results[3].Output, "fine") {
		t.Errorf("an ordinary command was refused: %s", results[3].Output)
	}
}

// jsonString is s as a JSON string literal.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestDoctorListsHiddenCredentials: troupe doctor names what commands cannot read.
func TestDoctorListsHiddenCredentials(t *testing.T) {
	repo := newRepo(t, nil)
	home := fakeHome(t, repo)
	r := troupe(t, repo, testEnv(t, "HOME="+home), "doctor")
	for _, want := range []string{"hidden from commands:", "~/.ssh", "~/.aws", "~/.config/gcloud", "~/private", filepath.Join(filepath.Dir(repo), ".env.local")} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor does not list %s:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "~/.config/other") {
		t.Errorf("doctor lists a path that is not hidden:\n%s", r.stdout)
	}
}
