package tools

import (
	"context"
	"errors"
	"strings"
	"testing"
)

type fakeSkills map[string]*LoadedSkill

func (f fakeSkills) LoadSkill(ctx context.Context, name string) (*LoadedSkill, error) {
	if sk, ok := f[name]; ok {
		return sk, nil
	}
	return nil, errors.New("no skill " + name)
}

// load_skill returns the body and the folder's files; a skill with allowed-tools then bounds
// the calls until another skill is loaded.
func TestLoadSkillNarrowsToolsWhileActive(t *testing.T) {
	env := newEnv(t)
	env.Skills = fakeSkills{
		"pdf":   {Name: "pdf", Dir: "/s/pdf", Body: "Use pdftotext.", Files: []string{"forms.md"}, AllowedTools: []string{"read_file", "bash"}},
		"notes": {Name: "notes", Dir: "/s/notes", Body: "Keep notes."},
	}
	reg, err := NewRegistry(append(Builtins(), LoadSkillTool())...)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, env.Root, map[string]string{"a.txt": "alpha\n"})
	run := func(name, args string) Result {
		return reg.Execute(context.Background(), env, Call{ID: "c", Name: name, Args: args})
	}
	if res := run("load_skill", `{"name":"pdf"}`); res.IsError || !strings.Contains(res.Output, "Use pdftotext.") ||
		!strings.Contains(res.Output, "- forms.md") || !strings.Contains(res.Output, "read_file, bash") {
		t.Fatalf("load_skill pdf: %+v", res)
	}
	if res := run("write_file", `{"path":"b.txt","content":"x"}`); !res.IsError || !res.Rejected || !strings.Contains(res.Output, "skill pdf") {
		t.Errorf("write_file under pdf: %+v", res)
	}
	if res := run("read_file", `{"path":"a.txt"}`); res.IsError {
		t.Errorf("read_file under pdf: %s", res.Output)
	}
	if res := run("load_skill", `{"name":"notes"}`); res.IsError {
		t.Fatalf("load_skill notes: %s", res.Output)
	}
	if res := run("write_file", `{"path":"b.txt","content":"x"}`); res.IsError {
		t.Errorf("write_file after a skill without allowed-tools: %s", res.Output)
	}
	if res := run("load_skill", `{"name":"nope"}`); !res.IsError || !strings.Contains(res.Output, "no skill nope") {
		t.Errorf("unknown skill: %+v", res)
	}
}
