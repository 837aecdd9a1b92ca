package actors

import (
	"errors"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

func TestModelViewListsKnownModelsMarkingTheCurrent(t *testing.T) {
	out := modelView(modelFacts{Model: "openai/gpt-4o-mini", Name: "gpt-4o-mini", Wire: "openai/gpt-4o-mini", Window: 128000,
		CanSwitch: true, Known: []string{"openai/gpt-4o", "openai/gpt-4o-mini"}})
	if !strings.Contains(out, "\n * openai/gpt-4o-mini") || !strings.Contains(out, "\n   openai/gpt-4o\n") {
		t.Fatalf("the list does not mark the current model:\n%s", out)
	}
	if out := modelView(modelFacts{Model: "x", Wire: "x"}); !strings.Contains(out, "none known: set a provider's API key") {
		t.Fatalf("no models says how to get some:\n%s", out)
	}
}

func TestSkillProblemsArePlainLines(t *testing.T) {
	err := errors.Join(errors.New("skill /p/.agents/skills/a/SKILL.md: no front matter"), errors.New("skill /p/b/SKILL.md: name is required"))
	got := skillProblems(err)
	if len(got) != 2 || !strings.HasPrefix(got[0], "skipped a broken skill, /p/.agents/skills/a/SKILL.md: no front matter") ||
		!strings.Contains(got[1], "/p/b/SKILL.md: name is required") {
		t.Fatalf("problems = %q", got)
	}
	if skillProblems(nil) != nil {
		t.Fatal("no error, no problems")
	}
	st := formatSkillStatus(&messages.StatusReply{Skills: []string{"deploy", "review"}, Warnings: got[:1]})
	if !strings.Contains(st, "skills      2: deploy, review") || !strings.Contains(st, "warning     skipped a broken skill") {
		t.Fatalf("/status skills:\n%s", st)
	}
}
