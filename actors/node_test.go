package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// checkFor polls cond until it holds or the scaled deadline passes (no fixed sleeps).
func checkFor(t *testing.T, d time.Duration, cond func() error) {
	t.Helper()
	testwait.For(t, d, cond)
}

// recordingProvider wraps a provider and keeps every request it was sent.
type recordingProvider struct {
	llm.Provider
	mu       sync.Mutex
	requests []*llm.Request
}

func (r *recordingProvider) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Reply, error) {
	r.mu.Lock()
	r.requests = append(r.requests, req)
	r.mu.Unlock()
	return r.Provider.Stream(ctx, req, emit)
}

func (r *recordingProvider) all() []*llm.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*llm.Request(nil), r.requests...)
}

// panicTool panics when run: the executor must turn that into an error result.
type panicTool struct{}

func (panicTool) Spec() tools.Spec {
	return tools.Spec{Name: "explode", Description: "panics", Schema: json.RawMessage(`{"type":"object"}`), Risk: tools.RiskRead}
}
func (panicTool) Run(ctx context.Context, env *tools.Env, args json.RawMessage) tools.Result {
	panic("boom")
}

type testNode struct {
	*Node
	client   *Client
	provider *recordingProvider
	mu       sync.Mutex
	events   []*messages.Envelope
}

func startTestNode(t *testing.T, script string, extra ...tools.Tool) *testNode {
	t.Helper()
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644)
	s, err := llm.ParseScript("test", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	tn := &testNode{provider: &recordingProvider{Provider: llm.NewScriptedFrom(s)}}
	node, err := StartNode(NodeOptions{
		Root: root,
		Provider: func(model, baseURL string, getenv func(string) string) (llm.Provider, string, error) {
			return tn.provider, "scripted", nil
		},
		Tools: func() (*tools.Registry, error) {
			return tools.NewRegistry(append(tools.Builtins(), extra...)...)
		},
		Retry: llm.RetryPolicy{MaxAttempts: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	tn.attach(t, node)
	return tn
}

// attach connects a client to the node, records every event of the project, and closes both
// when the test ends.
func (tn *testNode) attach(t testing.TB, node *Node) {
	t.Helper()
	var err error
	tn.Node = node
	root := node.Root
	if tn.client, err = node.Client(); err != nil {
		t.Fatal(err)
	}
	if _, err := tn.client.Subscribe(messages.ProjectEventsSubject(node.NS), func(e *messages.Envelope) {
		tn.mu.Lock()
		tn.events = append(tn.events, e)
		tn.mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		tn.client.Close()
		if err := node.Close(); err != nil {
			t.Errorf("close node: %v", err)
		}
		if _, err := os.Stat(filepath.Join(root, ".troupe", "node.json")); !os.IsNotExist(err) {
			t.Errorf("node.json left after Close")
		}
	})
}

// run starts a headless session and waits for its session.finished event.
func (tn *testNode) run(t *testing.T, id, task string) *messages.SessionFinishedData {
	t.Helper()
	err := tn.client.StartSession(&messages.StartSession{ID: id, Task: task, Model: "scripted", Mode: "yolo", Workspace: tn.Root})
	if err != nil {
		t.Fatal(err)
	}
	var fin *messages.SessionFinishedData
	checkFor(t, 30*time.Second, func() error {
		for _, e := range tn.sessionEvents(id) {
			if e.Type == messages.EventSessionFinished {
				v, _ := e.DecodeData()
				fin = v.(*messages.SessionFinishedData)
				return nil
			}
		}
		return os.ErrNotExist
	})
	return fin
}

func (tn *testNode) sessionEvents(id string) []*messages.Envelope {
	tn.mu.Lock()
	defer tn.mu.Unlock()
	var out []*messages.Envelope
	for _, e := range tn.events {
		if e.Session == id {
			out = append(out, e)
		}
	}
	return out
}

func TestPanickingToolGivesAnErrorResultAndTheSessionGoesOn(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "explode"}, {"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "survived"}]}`, panicTool{})
	fin := tn.run(t, "s1", "go")
	if fin.Status != messages.StatusDone || fin.Final != "survived" {
		t.Fatalf("finished: %+v", fin)
	}
	reqs := tn.provider.all()
	last := reqs[len(reqs)-1].Messages
	var results []llm.Message
	for _, m := range last {
		if m.Role == llm.RoleTool {
			results = append(results, m)
		}
	}
	if len(results) != 2 || !results[0].IsError || !strings.Contains(results[0].Content, "boom") {
		t.Fatalf("results: %+v", results)
	}
	if results[1].IsError || !strings.Contains(results[1].Content, "alpha") {
		t.Errorf("the call after the panic: %+v", results[1])
	}
}

func TestEveryRequestKeepsCallsPairedWithResultsInOrder(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}, {"name": "list_dir", "args": {}}, {"name": "glob", "args": {"pattern": "*.txt"}}]},
		{"tool_calls": [{"name": "grep", "args": {"pattern": "alpha"}}]},
		{"text": "ok"}]}`)
	if fin := tn.run(t, "s2", "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	for i, req := range tn.provider.all() {
		var pending []string
		for _, m := range req.Messages {
			switch m.Role {
			case llm.RoleAssistant, llm.RoleUser:
				if len(pending) > 0 {
					t.Errorf("request %d: unanswered %v", i, pending)
				}
				pending = nil
				for _, c := range m.ToolCalls {
					pending = append(pending, c.ID)
				}
			case llm.RoleTool:
				if len(pending) == 0 || pending[0] != m.ToolCallID {
					t.Errorf("request %d: result %s out of order (pending %v)", i, m.ToolCallID, pending)
					continue
				}
				pending = pending[1:]
			}
		}
		if len(pending) > 0 {
			t.Errorf("request %d: unanswered %v at end", i, pending)
		}
	}
}

func TestEventsAreGapFreeAndStampedPerSession(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "ok"}]}`)
	tn.run(t, "s3", "one")
	evs := tn.sessionEvents("s3")
	for i, e := range evs {
		if e.Seq != uint64(i+1) || e.V != messages.Version || e.NS != tn.NS || e.Agent != "root" {
			t.Fatalf("event %d: %+v", i, e)
		}
	}
	want := []messages.EventType{messages.EventSessionStarted, messages.EventTurnStarted}
	for i, w := range want {
		if evs[i].Type != w {
			t.Errorf("event %d is %s, want %s", i, evs[i].Type, w)
		}
	}
	if last := evs[len(evs)-1]; last.Type != messages.EventSessionFinished {
		t.Errorf("last event %s", last.Type)
	}
}

func TestAssistantEntriesAreStampedWithTheirModel(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"text": "hello"}]}`)
	tn.run(t, "s4", "hi")
	entries, err := tn.Store().Log("s4")
	if err != nil {
		t.Fatal(err)
	}
	var sawAssistant bool
	for _, e := range entries {
		if e.Kind == "assistant" {
			sawAssistant = true
			if e.Model != "scripted" {
				t.Errorf("assistant entry model %q", e.Model)
			}
		}
	}
	if !sawAssistant {
		t.Fatal("no assistant entry stored")
	}
}

func TestInputRouting(t *testing.T) {
	cases := map[string]inputKind{
		"":                 inputEmpty,
		"   ":              inputEmpty,
		"/help":            inputCommand,
		"/status now":      inputCommand,
		"/stauts":          inputUnknown,
		"/usr/bin is slow": inputModel,
		"fix the bug":      inputModel,
		"//comment":        inputModel,
	}
	for in, want := range cases {
		if got := classifyInput(in); got.Kind != want {
			t.Errorf("%q: %s, want %s", in, got.Kind, want)
		}
	}
	if r := classifyInput("/stauts"); r.Nearest != "status" {
		t.Errorf("nearest = %q", r.Nearest)
	}
}

func FuzzInputRouting(f *testing.F) {
	for _, s := range []string{"", "/help", "/x y", "hello", "/usr/bin", "/ø"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := classifyInput(s)
		if r.Kind == inputCommand {
			if _, ok := lookupCommand(r.Command); !ok {
				t.Fatalf("%q routed to unknown command %q", s, r.Command)
			}
		}
		if strings.TrimSpace(s) == "" && r.Kind != inputEmpty {
			t.Fatalf("blank %q not ignored", s)
		}
	})
}

func TestCommandEnvironDropsSecrets(t *testing.T) {
	env := CommandEnviron([]string{"PATH=/bin", "OPENAI_API_KEY=sk", "GITHUB_TOKEN=t", "HOME=/h", "RANDOM_VAR=x", "MY_PASS=1"},
		[]string{"MY_PASS"}, map[string]string{"EXTRA": "1"})
	got := strings.Join(env, " ")
	for _, want := range []string{"PATH=/bin", "HOME=/h", "MY_PASS=1", "EXTRA=1", "TERM=dumb"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in %s", want, got)
		}
	}
	for _, bad := range []string{"OPENAI_API_KEY", "GITHUB_TOKEN", "RANDOM_VAR"} {
		if strings.Contains(got, bad) {
			t.Errorf("leaked %s: %s", bad, got)
		}
	}
}

// Input sent the moment StartSession returns reaches the session: the Node answers only once
// the session's control subject is bound.
func TestInputRightAfterStartIsAnswered(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"text": "hi"}]}`)
	for i := 0; i < 20; i++ {
		id := fmt.Sprintf("i%d", i)
		if err := tn.client.StartSession(&messages.StartSession{ID: id, Model: "scripted", Mode: "ask", Workspace: tn.Root, Interactive: true}); err != nil {
			t.Fatal(err)
		}
		ack, err := tn.client.Input(id, "/status")
		if err != nil {
			t.Fatalf("session %s: %v", id, err)
		}
		if ack.Routed != messages.RoutedCommand || !strings.Contains(ack.Output, "phase") {
			t.Fatalf("ack %+v", ack)
		}
		if err := tn.client.Cancel(id, "done"); err != nil {
			t.Fatal(err)
		}
	}
}
