package actors

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// routerNode is a Node with the built-in tools (so prompt modes narrow them), one skill, and a
// provider opener that records the models it was asked for and refuses "no-such-model".
type routerNode struct {
	*testNode
	mu     sync.Mutex
	opened []string
}

func startRouterNode(t *testing.T, script string) *routerNode {
	t.Helper()
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	skill := filepath.Join(root, ".agents", "skills", "release")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: release\ndescription: Cut a release. Tags and notes.\nallowed-tools: [read_file, bash]\n---\nRun the release checklist.\n"), 0o644)
	s, err := llm.ParseScript("test", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	rn := &routerNode{testNode: &testNode{provider: &recordingProvider{Provider: llm.NewScriptedFrom(s)}}}
	node, err := StartNode(NodeOptions{
		Root: root,
		Provider: func(model, baseURL string, getenv func(string) string) (llm.Provider, string, error) {
			if model == "no-such-model" {
				return nil, "", errors.New("unknown model no-such-model")
			}
			rn.mu.Lock()
			rn.opened = append(rn.opened, model)
			rn.mu.Unlock()
			return rn.provider, model, nil
		},
		Retry: llm.RetryPolicy{MaxAttempts: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	rn.attach(t, node)
	return rn
}

func (rn *routerNode) startChat(t *testing.T, id, promptMode string) {
	t.Helper()
	err := rn.client.StartSession(&messages.StartSession{ID: id, Model: "scripted", Mode: messages.ModeYolo, Workspace: rn.Root,
		Interactive: true, PromptMode: promptMode})
	if err != nil {
		t.Fatal(err)
	}
}

// input sends a line and fails the test unless the session answered it locally.
func (rn *routerNode) input(t *testing.T, id, line string) *messages.InputAck {
	t.Helper()
	ack, err := rn.client.Input(id, line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	if ack.Routed != messages.RoutedCommand && ack.Routed != messages.RoutedExit {
		t.Fatalf("%s was routed %q (output %q), not answered by the session", line, ack.Routed, ack.Output)
	}
	if strings.TrimSpace(ack.Output) == "" {
		t.Errorf("%s: an empty answer", line)
	}
	return ack
}

// commandArgs are harmless arguments for the commands that take one.
var commandArgs = map[string][]string{
	"help": {"tools"}, "goal": {"ship the release"}, "mode": {"auto-edit"}, "worktree": {"list"},
	"model": {"scripted-b", "no-such-model"}, "reset": {"all", "bogus"}, "prompt": {"plan", "nosuch"}, "skills": {"release", "nosuch"},
	"compact": {"keep the plan"}, "memory": {"project", "add project Releases are cut from main."},
}

// Every command in the table, bare and with a harmless argument, is answered by the session:
// the provider sees no request and the log gets no user message. The session then still
// takes a real message, in the state the commands left it.
func TestNoLocalCommandReachesTheModel(t *testing.T) {
	rn := startRouterNode(t, `{"turns": [{"text": "hi"}]}`)
	rn.startChat(t, "r1", "")
	for _, c := range commandTable() {
		rn.input(t, "r1", "/"+c.Name)
		for _, arg := range commandArgs[c.Name] {
			rn.input(t, "r1", "/"+c.Name+" "+arg)
		}
	}
	if n := len(rn.provider.all()); n != 0 {
		t.Fatalf("local commands reached the model: %d requests", n)
	}
	entries, err := rn.store.Log("r1")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Kind == store.KindUser {
			t.Errorf("a command was logged as a user message: %q", e.Text)
		}
	}
	// The commands took effect: plan narrowed the tools, the model switched, the skill is in
	// the context, and the next real message is the only user message the model sees.
	if _, err := rn.client.Input("r1", "hello"); err != nil {
		t.Fatal(err)
	}
	checkFor(t, 20*time.Second, func() error {
		if len(rn.provider.all()) == 0 {
			return errors.New("no model call for the real message")
		}
		return nil
	})
	req := rn.provider.all()[0]
	if req.Model != "scripted-b" || !strings.Contains(req.System, "Prompt mode plan") {
		t.Errorf("the request after /model and /prompt: model %q, system has plan: %v", req.Model, strings.Contains(req.System, "Prompt mode plan"))
	}
	for _, tool := range req.Tools {
		if tool.Name == "write_file" || tool.Name == "edit_file" {
			t.Errorf("prompt mode plan left %s", tool.Name)
		}
	}
	var users []string
	for _, m := range req.Messages {
		if m.Role == llm.RoleUser && !strings.HasPrefix(m.Content, "[troupe compact boundary]") {
			users = append(users, m.Content)
		}
	}
	if len(users) < 2 || users[len(users)-1] != "hello" || !strings.Contains(strings.Join(users, "\n"), "Run the release checklist.") {
		t.Errorf("user messages the model saw: %q", users)
	}
	meta, err := rn.store.Meta("r1")
	if err != nil || meta.Model != "scripted-b" {
		t.Errorf("the switched model is not recorded for resume: %+v %v", meta, err)
	}
}

// The answers say what each command is for: an unknown command gets the nearest names,
// /help NAME shows every command's usage, and /help lists every family that has commands.
func TestHelpCoversTheWholeTable(t *testing.T) {
	rn := startRouterNode(t, `{"turns": [{"text": "hi"}]}`)
	rn.startChat(t, "h1", "")
	help := rn.input(t, "h1", "/help").Output
	for _, c := range commandTable() {
		if !slices.Contains(commandFamilies, c.Family) {
			t.Errorf("/%s is in family %q, which /help does not list", c.Name, c.Family)
		}
		if !strings.Contains(help, " "+c.Family+"\n") || !strings.Contains(help, "/"+c.Name+" ") {
			t.Errorf("/help misses /%s or its family %s", c.Name, c.Family)
		}
		usage := rn.input(t, "h1", "/help "+c.Name).Output
		if !strings.HasPrefix(usage, "usage: "+c.Usage) {
			t.Errorf("/help %s: %q", c.Name, usage)
		}
	}
	for typo, want := range map[string]string{"/tols": "/tools", "/sesion": "/session", "/promt plan": "/prompt", "/permisions": "/permissions"} {
		out := rn.input(t, "h1", typo).Output
		if !strings.Contains(out, "unknown command") || !strings.Contains(out, want) {
			t.Errorf("%s: %q (want a hint of %s)", typo, out, want)
		}
	}
	if n := len(rn.provider.all()); n != 0 {
		t.Errorf("help reached the model: %d requests", n)
	}
}

// A prompt mode's stable prefix is the same bytes whether the session started in it or
// switched to it with /prompt; the tools the model is offered are the same too.
func TestPromptSwitchGivesTheModesOwnPrefix(t *testing.T) {
	rn := startRouterNode(t, `{"turns": [{"text": "one"}, {"text": "two"}]}`)
	rn.startChat(t, "p1", "plan")
	rn.startChat(t, "p2", "")
	if out := rn.input(t, "p2", "/prompt plan").Output; !strings.Contains(out, "prompt mode plan") {
		t.Fatalf("/prompt plan: %q", out)
	}
	if meta, err := rn.store.Meta("p2"); err != nil || meta.PromptMode != "plan" {
		t.Errorf("the switched prompt mode is not recorded for resume: %+v %v", meta, err)
	}
	for i, id := range []string{"p1", "p2"} {
		if _, err := rn.client.Input(id, "look around"); err != nil {
			t.Fatal(err)
		}
		checkFor(t, 20*time.Second, func() error {
			if len(rn.provider.all()) <= i {
				return fmt.Errorf("no model call for %s", id)
			}
			return nil
		})
	}
	reqs := rn.provider.all()
	if reqs[0].System != reqs[1].System {
		t.Errorf("the plan prefix differs between a start in plan and a switch to it:\n%s\n---\n%s", reqs[0].System, reqs[1].System)
	}
	names := func(r *llm.Request) (out []string) {
		for _, tool := range r.Tools {
			out = append(out, tool.Name)
		}
		return out
	}
	if !slices.Equal(names(reqs[0]), names(reqs[1])) {
		t.Errorf("tools differ: %v vs %v", names(reqs[0]), names(reqs[1]))
	}
	waitIdleAfter(t, rn, "p2", 2) // a command during p2's turn would be answered "busy"
	if out := rn.input(t, "p2", "/tools").Output; !strings.Contains(out, "write_file") || !strings.Contains(out, "by prompt mode plan") {
		t.Errorf("/tools does not say what plan took away: %q", out)
	}
}

// A session started in plan (no spawn_agent) that switches to code gets the agent tools back
// and can use them: the switch brings the delegation with the tools.
func TestPromptSwitchFromPlanBringsTheAgentToolsBack(t *testing.T) {
	rn := startRouterNode(t, `{"turns": [{"tool_calls": [{"name": "list_agents", "args": {}}]}, {"text": "none yet"}]}`)
	rn.startChat(t, "d1", "plan")
	if out := rn.input(t, "d1", "/tools").Output; !strings.Contains(out, "list_agents    by prompt mode plan") {
		t.Fatalf("plan kept the agent tools: %q", out)
	}
	rn.input(t, "d1", "/prompt code")
	if _, err := rn.client.Input("d1", "any agents?"); err != nil {
		t.Fatal(err)
	}
	waitIdleAfter(t, rn, "d1", 2)
	for _, m := range rn.provider.all()[1].Messages {
		if m.Role == llm.RoleTool && (m.IsError || m.ToolName != "list_agents") {
			t.Errorf("list_agents after /prompt code: %+v", m)
		}
	}
}
