package actors

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// A project's skills are listed in the stable prefix by name and description only; load_skill
// brings the body, and the skill's allowed-tools bound the calls that follow.
func TestSkillsAreIndexedThenLoadedOnDemand(t *testing.T) {
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	skill := filepath.Join(root, ".agents", "skills", "release", "SKILL.md")
	os.MkdirAll(filepath.Dir(skill), 0o755)
	os.WriteFile(skill, []byte("---\nname: release\ndescription: Cut a release.\nallowed-tools: read_file\n---\nRun scripts/release.sh, BODY-MARK.\n"), 0o644)
	s, err := llm.ParseScript("test", []byte(`{"turns": [
		{"tool_calls": [{"name": "load_skill", "args": {"name": "release"}}]},
		{"expect": "BODY-MARK", "tool_calls": [{"name": "write_file", "args": {"path": "x.txt", "content": "x"}}]},
		{"expect": "not available while skill release is active", "text": "done"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tn := &testNode{provider: &recordingProvider{Provider: llm.NewScriptedFrom(s)}}
	node, err := StartNode(NodeOptions{Root: root, Retry: llm.RetryPolicy{MaxAttempts: 1},
		Provider: func(model, baseURL string, getenv func(string) string) (llm.Provider, string, error) {
			return tn.provider, "scripted", nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	tn.attach(t, node)
	fin := tn.run(t, "sk", "release it")
	if fin.Status != messages.StatusDone || fin.Final != "done" {
		t.Fatalf("finished %+v", fin)
	}
	first := tn.provider.all()[0]
	if !strings.Contains(first.System, "- release: Cut a release.") || strings.Contains(first.System, "BODY-MARK") {
		t.Errorf("the prefix must list the skill without its body:\n%s", first.System)
	}
	if _, err := os.Stat(filepath.Join(root, "x.txt")); !os.IsNotExist(err) {
		t.Errorf("a tool the skill leaves out ran: %v", err)
	}
}

// The user's AGENTS.md comes before the project's; both are in the stable prefix.
func TestSystemPromptCarriesUserAndProjectInstructions(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(root, "CLAUDE.md"), []byte("PROJECT-RULES"), 0o644)
	os.WriteFile(filepath.Join(user, "AGENTS.md"), []byte("USER-RULES"), 0o644)
	p := SystemPrompt(PromptParts{Root: root, Mode: "ask", UserDir: user})
	u, pr := strings.Index(p, "USER-RULES"), strings.Index(p, "PROJECT-RULES")
	if u < 0 || pr < 0 || u > pr {
		t.Errorf("instructions missing or out of order:\n%s", p)
	}
	if p != SystemPrompt(PromptParts{Root: root, Mode: "ask", UserDir: user}) {
		t.Error("the prefix is not byte-stable")
	}
}
