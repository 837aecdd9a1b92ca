package actors

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

func TestResetBoundaryCoversEverythingSoFar(t *testing.T) {
	if _, ok := resetBoundary(nil, true); ok {
		t.Error("an empty context got a boundary")
	}
	items := []projection.Item{
		{Seq: 3, Boundary: &projection.Boundary{FromSeq: 1, ToSeq: 2}},
		{Seq: 4, Msg: llm.Message{Role: llm.RoleUser, Content: "a"}},
		{Seq: 6, Msg: llm.Message{Role: llm.RoleAssistant, Content: "b"}},
	}
	b, ok := resetBoundary(items, false)
	if !ok || b.FromSeq != 1 || b.ToSeq != 6 || b.Reason != "/reset" || strings.Contains(b.Summary, "goal") {
		t.Errorf("boundary %+v", b)
	}
	if b, _ := resetBoundary(items, true); !strings.Contains(b.Summary, "goal") {
		t.Errorf("a reset that keeps the goal does not say so: %q", b.Summary)
	}
}

func TestActiveSkillIsTheLastOneLoaded(t *testing.T) {
	items := []projection.Item{
		{Msg: llm.Message{Role: llm.RoleTool, ToolName: "load_skill", Content: "Skill alpha (folder /x)\n\nbody"}},
		{Msg: llm.Message{Role: llm.RoleTool, ToolName: "load_skill", IsError: true, Content: "load_skill: no skill"}},
	}
	if got := activeSkill(items); got != "alpha" {
		t.Errorf("after load_skill alpha: %q", got)
	}
	items = append(items, projection.Item{Msg: llm.Message{Role: llm.RoleUser, Content: projection.NotePrefix + skillNote + "Skill beta (folder /y)"}})
	if got := activeSkill(items); got != "beta" {
		t.Errorf("after /skills beta: %q", got)
	}
	if got := activeSkill(nil); got != "" {
		t.Errorf("no skill loaded: %q", got)
	}
}

func TestNarrowToolsSaysWhatTookEachAway(t *testing.T) {
	all := append(tools.Builtins(), tools.GoalTools()...)
	plan := &config.PromptMode{Name: "plan", Tools: []string{"read_file", "grep"}}
	kept, away := narrowTools(all, "reviewer", []string{"read_file", "bash", "get_goal"}, plan)
	var names []string
	for _, tool := range kept {
		names = append(names, tool.Spec().Name)
	}
	if strings.Join(names, ",") != "read_file,get_goal" {
		t.Errorf("kept %v", names)
	}
	by := map[string]string{}
	for _, a := range away {
		by[a.Name] = a.By
	}
	if by["write_file"] != "role reviewer" || by["bash"] != "prompt mode plan" || len(away) != len(all)-2 {
		t.Errorf("narrowed %v", away)
	}
	report := toolsReport([]llm.ToolSpec{{Name: "read_file", Description: "Read a text file. Long details."}}, away,
		&config.Skill{Name: "rel", AllowedTools: []string{"read_file"}})
	for _, want := range []string{"tools (1):", "read_file      Read a text file.\n", "bash           by prompt mode plan", "skill rel is active"} {
		if !strings.Contains(report, want) {
			t.Errorf("/tools misses %q:\n%s", want, report)
		}
	}
}

// /reset starts the model's view afresh behind a boundary: the log keeps the old turn, the
// next request does not show it, and the goal stays.
func TestResetStartsAFreshContextAndKeepsTheLog(t *testing.T) {
	rn := startRouterNode(t, `{"turns": [{"text": "one"}, {"text": "two"}]}`)
	rn.startChat(t, "x1", "")
	if _, err := rn.client.Input("x1", "remember the word zebra"); err != nil {
		t.Fatal(err)
	}
	waitIdleAfter(t, rn, "x1", 1)
	rn.input(t, "x1", "/goal keep the release green")
	out := rn.input(t, "x1", "/reset").Output
	if !strings.Contains(out, "fresh context") || !strings.Contains(out, "the goal stays") {
		t.Fatalf("/reset: %q", out)
	}
	if again := rn.input(t, "x1", "/reset").Output; !strings.Contains(again, "already empty") {
		t.Errorf("a second /reset: %q", again)
	}
	if st, err := rn.client.Status("x1"); err != nil || st.Goal == nil || st.Goal.Status != messages.GoalActive {
		t.Errorf("the goal after /reset: %+v %v", st, err)
	}
	rn.input(t, "x1", "/goal clear") // an open goal would refuse the scripted final answer
	if _, err := rn.client.Input("x1", "what next?"); err != nil {
		t.Fatal(err)
	}
	waitIdleAfter(t, rn, "x1", 2)
	req := rn.provider.all()[1]
	for _, m := range req.Messages {
		if strings.Contains(m.Content, "zebra") || m.Content == "one" {
			t.Errorf("the request after /reset still shows %q", m.Content)
		}
	}
	if last := req.Messages[len(req.Messages)-1]; last.Content != "what next?" {
		t.Errorf("last message %q", last.Content)
	}
	entries, _ := rn.store.Log("x1")
	kept := false
	for _, e := range entries {
		kept = kept || (e.Kind == store.KindUser && strings.Contains(e.Text, "zebra"))
	}
	if !kept {
		t.Error("/reset lost the old turn from the log")
	}
}

// waitIdleAfter waits until the provider saw n requests and the session is idle again.
func waitIdleAfter(t *testing.T, rn *routerNode, id string, n int) {
	t.Helper()
	checkFor(t, 20*time.Second, func() error {
		st, err := rn.client.Status(id)
		if err != nil {
			return err
		}
		if len(rn.provider.all()) < n || st.Phase != messages.PhaseIdle {
			return errors.New("the turn is still running")
		}
		return nil
	})
}

func TestQualifyModelKeepsTheProvider(t *testing.T) {
	for _, c := range []struct{ name, current, want string }{
		{"gpt-4o", "openai/gpt-4o-mini", "openai/gpt-4o"},
		{"anthropic/claude-sonnet-4", "openai/gpt-4o-mini", "anthropic/claude-sonnet-4"},
		{"scripted:/tmp/b.json", "scripted:/tmp/a.json", "scripted:/tmp/b.json"},
		{"other", "scripted:/tmp/a.json", "other"},
		{"qwen3", "scripted", "qwen3"},
	} {
		if got := qualifyModel(c.name, c.current); got != c.want {
			t.Errorf("qualifyModel(%q, %q) = %q, want %q", c.name, c.current, got, c.want)
		}
	}
}
