package actors

import (
	"slices"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

func TestChildrenPrepareAdmitsASpawn(t *testing.T) {
	roles := []config.Role{
		{Name: "explorer", Tools: []string{"read_file", "grep", "web_fetch"}, Mode: "plan"},
		{Name: "worker", Mode: "yolo", MaxTurns: 7},
	}
	newKids := func(maxDepth int) *children {
		k := newChildren()
		limits := AgentLimits{}.withDefaults()
		limits.MaxDepth = maxDepth
		k.delegation = &Delegation{NewChild: func(*messages.StartSession) (SessionDeps, error) { return SessionDeps{}, nil },
			Roles: func() ([]config.Role, error) { return roles, nil }, Limits: limits}
		k.allowlist = []string{"bash(make test)"}
		return k
	}
	cfg := newSessionConfig(&messages.StartSession{ID: "p", Model: "m/x", Mode: messages.ModeAutoEdit, Allow: []string{"bash(go *)"},
		Interactive: true})
	history := []llm.Message{{Role: llm.RoleUser, Content: "earlier"}}
	parent := childParent{cfg: &cfg, workspace: "/w", tools: []string{"read_file", "grep", "bash", "spawn_agent"},
		history: func() []llm.Message { return history }}
	for _, tc := range []struct {
		name      string
		req       messages.SpawnAgent
		maxDepth  int
		err       string
		mode      messages.Mode
		tools     []string
		inherited int
		note      string
		maxTurns  int
	}{
		{name: "a bad task name", req: messages.SpawnAgent{TaskName: "Bad Name", AgentType: "explorer"}, maxDepth: 2, err: "task_name"},
		{name: "an unknown role", req: messages.SpawnAgent{TaskName: "a", AgentType: "poet"}, maxDepth: 2, err: "poet"},
		{name: "the depth limit", req: messages.SpawnAgent{TaskName: "a", AgentType: "explorer"}, maxDepth: 0, err: "depth limit"},
		{name: "the role's tools within the parent's, the stricter mode", req: messages.SpawnAgent{TaskName: "a", AgentType: "explorer"},
			maxDepth: 2, mode: messages.ModePlan, tools: []string{"read_file", "grep"}, note: "dropped: web_fetch"},
		{name: "at the depth limit no agent tools; the parent's mode when stricter; a fork", maxDepth: 1,
			req:  messages.SpawnAgent{TaskName: "b", AgentType: "worker", Context: messages.ContextFork},
			mode: messages.ModeAutoEdit, tools: []string{"read_file", "grep", "bash"}, inherited: 1, maxTurns: 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, notes, err := newKids(tc.maxDepth).prepare(&tc.req, parent)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			st := c.start
			if st.Mode != tc.mode || !slices.Equal(st.Tools, tc.tools) || len(c.inherited) != tc.inherited {
				t.Fatalf("mode %s tools %v inherited %d", st.Mode, st.Tools, len(c.inherited))
			}
			if st.ID != "p-"+tc.req.TaskName || st.Agent != "root/"+tc.req.TaskName || st.Parent != "p" || st.Depth != 1 || !st.AskUser {
				t.Fatalf("start %+v", st)
			}
			if !slices.Equal(st.Allow, []string{"bash(go *)", "bash(make test)"}) {
				t.Fatalf("allow %v: the configured patterns and the session allowlist", st.Allow)
			}
			if tc.maxTurns != 0 && st.MaxTurns != tc.maxTurns {
				t.Fatalf("max turns %d, want the role's %d", st.MaxTurns, tc.maxTurns)
			}
			if tc.note != "" && !strings.Contains(strings.Join(notes, "\n"), tc.note) {
				t.Fatalf("notes %v, want %q", notes, tc.note)
			}
			if c.rec.State != messages.AgentQueued || !strings.Contains(st.Task, "Task:") {
				t.Fatalf("record %+v task %q", c.rec, st.Task)
			}
		})
	}
}
