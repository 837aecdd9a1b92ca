package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/mcptest"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

func TestMain(m *testing.M) {
	code := m.Run()
	mcptest.Cleanup()
	os.Exit(code)
}

// memArtifacts keeps artifacts in memory.
type memArtifacts struct {
	mu   sync.Mutex
	refs map[string][]byte
}

func (m *memArtifacts) PutArtifact(data []byte) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refs == nil {
		m.refs = map[string][]byte{}
	}
	ref := fmt.Sprintf("a%d", len(m.refs)+1)
	m.refs[ref] = append([]byte(nil), data...)
	return ref, nil
}

func (m *memArtifacts) Artifact(ref string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.refs[ref], nil
}

func testMCPServer(t *testing.T, name string, timeoutS int) config.MCPServer {
	return config.MCPServer{Name: name, Command: mcptest.Binary(t), Env: map[string]string{mcptest.Variable: mcptest.ModeTools},
		TimeoutS: timeoutS, Source: "test"}
}

// startTestHub starts the server actors on their own actor system.
func startTestHub(t *testing.T, servers ...config.MCPServer) *mcpHub {
	t.Helper()
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	hub, err := startMCP(system, NodeOptions{MCPServers: servers, Root: t.TempDir(), Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		hub.close()
		system.Shutdown()
	})
	return hub
}

func status(t *testing.T, hub *mcpHub, server string) *messages.MCPServerStatus {
	res, err := hub.root.RequestFuture(hub.pids[server], &messages.MCPListTools{}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	return res.(*messages.MCPServerStatus)
}

// TestMCPServerActor: a lazy server starts when a session first needs its tools; its tools
// are offered as mcp__<server>__<tool> (the invalid schema skipped, the others kept, the read-
// only hint mapped to read risk); calls go by message; a call past the server's timeout is an
// error result, not a stuck turn; a 50 MB result is bounded with the whole kept as an artifact;
// a server that dies is restarted with a backoff and answers again.
func TestMCPServerActor(t *testing.T) {
	// The 50 MB result crosses stdio as JSON; under -race on a loaded machine that took over
	// two minutes, so its server's timeout is generous and scaled like every test deadline.
	hub := startTestHub(t, testMCPServer(t, "t", int(testwait.Scale(10*time.Minute)/time.Second)), testMCPServer(t, "slow", 1))
	if st := status(t, hub, "t"); st.State != messages.MCPStopped {
		t.Fatalf("a lazy server before first use: %s", st.State)
	}
	ts := hub.tools(nil)
	specs := map[string]tools.Spec{}
	for _, tl := range ts {
		specs[tl.Spec().Name] = tl.Spec()
	}
	if _, ok := specs["mcp__t__bad_schema"]; ok || len(specs) != 12 {
		t.Fatalf("tools offered: %v", specs)
	}
	if specs["mcp__t__echo"].Risk != tools.RiskRead || specs["mcp__t__sleep"].Risk != tools.RiskExec {
		t.Errorf("risks: echo %s sleep %s", specs["mcp__t__echo"].Risk, specs["mcp__t__sleep"].Risk)
	}
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	arts := &memArtifacts{}
	reg.SetOverflow(tools.ArtifactOverflow(arts))
	env := &tools.Env{Root: t.TempDir(), Artifacts: arts, MCP: hub.caller("s1")}
	call := func(name, args string) tools.Result {
		return reg.Execute(context.Background(), env, tools.Call{ID: "c", Name: name, Args: args})
	}
	if res := call("mcp__t__echo", `{"msg":"hi"}`); res.IsError || res.Output != "echo: hi" {
		t.Fatalf("echo: %+v", res)
	}
	if res := call("mcp__t__echo", `{}`); !res.IsError || !res.Rejected {
		t.Errorf("arguments against the server's schema are validated first: %+v", res)
	}
	began := time.Now()
	if res := call("mcp__slow__sleep", `{"ms": 5000}`); !res.IsError || !strings.Contains(res.Output, "no answer within 1s") {
		t.Errorf("a call past its timeout: %+v after %s", res, time.Since(began))
	}
	res := call("mcp__t__big", `{"mb": 50}`)
	if len(res.Output) > tools.DefaultMaxResultBytes+1024 || !strings.Contains(res.Output, "BEGIN") || !strings.Contains(res.Output, "read_artifact ref=a1") {
		t.Fatalf("50 MB result: %d bytes: %.300s", len(res.Output), res.Output)
	}
	if kept, _ := arts.Artifact("a1"); len(kept) < 1<<20 {
		t.Errorf("the artifact keeps %d bytes", len(kept))
	}

	if res := call("mcp__t__crash", `{}`); !res.IsError || !strings.Contains(res.Output, "stopped during the call") {
		t.Errorf("a crash mid-call: %+v", res)
	}
	checkFor(t, 30*time.Second, func() error {
		st := status(t, hub, "t")
		if st.State != messages.MCPReady || st.Restarts != 1 {
			return fmt.Errorf("state %s restarts %d (%s)", st.State, st.Restarts, st.LastError)
		}
		return nil
	})
	if res := call("mcp__t__echo", `{"msg":"again"}`); res.IsError || res.Output != "echo: again" {
		t.Fatalf("after the restart: %+v", res)
	}
}

// TestMCPToolListChanged: notifications/tools/list_changed makes the actor list again; the
// next registry built has the new tool.
func TestMCPToolListChanged(t *testing.T) {
	hub := startTestHub(t, testMCPServer(t, "t", 10))
	before := len(hub.tools(nil))
	if res := hub.caller("s1").CallMCP(context.Background(), "t", "grow", json.RawMessage(`{}`)); res.IsError || res.Session != "s1" {
		t.Fatalf("%+v: an answer names the calling session", res)
	}
	checkFor(t, 10*time.Second, func() error {
		if st := status(t, hub, "t"); st.Version < 2 {
			return fmt.Errorf("version %d", st.Version)
		}
		return nil
	})
	var names []string
	for _, tl := range hub.tools(nil) {
		names = append(names, tl.Spec().Name)
	}
	if len(names) != before+1 || !strings.Contains(strings.Join(names, ","), "mcp__t__grown") {
		t.Errorf("after list_changed: %v, was %d tools", names, before)
	}
}

// TestMCPServerThatCannotStart: a server that is not installed is left out of the tools; a
// call to it says why, and the other servers' tools are offered.
func TestMCPServerThatCannotStart(t *testing.T) {
	missing := config.MCPServer{Name: "gone", Command: "no-such-mcp-server", Source: ".mcp.json"}
	hub := startTestHub(t, missing, testMCPServer(t, "t", 10))
	ts := hub.tools(nil)
	for _, tl := range ts {
		if strings.HasPrefix(tl.Spec().Name, "mcp__gone__") {
			t.Errorf("offered %s", tl.Spec().Name)
		}
	}
	if len(ts) != 6 {
		t.Errorf("the working server's tools: %d", len(ts))
	}
	res := hub.caller("s1").CallMCP(context.Background(), "gone", "x", nil)
	if !res.IsError || !strings.Contains(res.Output, `command "no-such-mcp-server" not found`) {
		t.Errorf("a call to it: %+v", res)
	}
}

// TestSessionCallsAnMCPTool: a whole session on a Node configured with a server: the model
// is offered the server's tools and its call reaches the server.
func TestSessionCallsAnMCPTool(t *testing.T) {
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	s, err := llm.ParseScript("test", []byte(`{"turns": [
		{"tool_calls": [{"name": "mcp__t__echo", "args": {"msg": "from the model"}}]},
		{"text": "done"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tn := &testNode{provider: &recordingProvider{Provider: llm.NewScriptedFrom(s)}}
	node, err := StartNode(NodeOptions{Root: root, Retry: llm.RetryPolicy{MaxAttempts: 1},
		Provider: func(string, string, func(string) string) (llm.Provider, string, error) {
			return tn.provider, "scripted", nil
		},
		MCPServers: []config.MCPServer{testMCPServer(t, "t", 10)}})
	if err != nil {
		t.Fatal(err)
	}
	tn.attach(t, node)
	if fin := tn.run(t, "s1", "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	reqs := tn.provider.all()
	var offered bool
	for _, spec := range reqs[0].Tools {
		offered = offered || spec.Name == "mcp__t__echo"
	}
	if !offered {
		t.Errorf("the first request does not offer mcp__t__echo")
	}
	var got string
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == llm.RoleTool {
			got = m.Content
		}
	}
	if got != "echo: from the model" {
		t.Errorf("the tool result: %q", got)
	}
	id := tn.startInteractive(t, messages.StartSession{ID: "i1", Model: "scripted"})
	if out := tn.command(t, id, "/mcp"); !strings.HasPrefix(out, "t ") || !strings.Contains(out, "ready") || !strings.Contains(out, "7 tools") { // as the server lists them, bad_schema included
		t.Errorf("/mcp: %q", out)
	}
}

// TestMCPServesWebSearch: with search through an MCP server's tool, the hub offers
// web_search built from that tool, and a call reaches it; a tool the server lacks makes a
// web_search whose calls say so.
func TestMCPServesWebSearch(t *testing.T) {
	hub := startTestHub(t, testMCPServer(t, "t", 10))
	find := func(ts []tools.Tool) tools.Tool {
		for _, tl := range ts {
			if tl.Spec().Name == "web_search" {
				return tl
			}
		}
		return nil
	}
	search := find(hub.tools(&tools.SearchConfig{Provider: "mcp", Server: "t", Tool: "search"}))
	if search == nil || search.Spec().Risk != tools.RiskNetwork {
		t.Fatal("no web_search through the server's search tool")
	}
	env := &tools.Env{Root: t.TempDir(), MCP: hub.caller("s1")}
	res := search.Run(context.Background(), env, json.RawMessage(`{"query":"harness","count":1}`))
	if res.IsError || !strings.Contains(res.Output, "1. harness, hit 1") || strings.Contains(res.Output, "hit 2") {
		t.Errorf("a search: %+v", res)
	}
	if find(hub.tools(nil)) != nil {
		t.Error("web_search offered without a search config")
	}
	broken := find(hub.tools(&tools.SearchConfig{Provider: "mcp", Server: "t", Tool: "nope"}))
	if res := broken.Run(context.Background(), env, json.RawMessage(`{"query":"x"}`)); !res.IsError || !strings.Contains(res.Output, `has no tool "nope"`) {
		t.Errorf("a tool the server lacks: %+v", res)
	}
}

// TestMCPServerPrompts: a server's prompts are in its status once it starts, a prompt is
// filled with its arguments through the server's actor, and a prompt the server adds later
// (notifications/prompts/list_changed) is listed without a restart.
func TestMCPServerPrompts(t *testing.T) {
	hub := startTestHub(t, testMCPServer(t, "t", 10))
	p := hub.prompter("s1")
	sts := p.Statuses([]string{"t"})
	if len(sts) != 1 || sts[0].State != messages.MCPReady || len(sts[0].Prompts) != 1 || sts[0].Prompts[0].Name != "review" ||
		len(sts[0].Prompts[0].Arguments) != 2 || !sts[0].Prompts[0].Arguments[0].Required {
		t.Fatalf("statuses: %+v", sts[0])
	}
	res := p.Get(context.Background(), "t", "review", map[string]string{"code": "x := 1", "language": "Go"})
	if res.IsError || res.Output != "Please review this Go code:\nx := 1\n\nSay what could break." || res.Session != "s1" {
		t.Errorf("the filled prompt: %+v", res)
	}
	if res := p.Get(context.Background(), "t", "review", nil); !res.IsError || !strings.Contains(res.Output, "review needs code") {
		t.Errorf("the server's own refusal: %+v", res)
	}
	if res := hub.caller("s1").CallMCP(context.Background(), "t", "grow", nil); res.IsError {
		t.Fatalf("grow: %+v", res)
	}
	testwait.For(t, 30*time.Second, func() error {
		for _, pr := range p.Statuses(nil)[0].Prompts {
			if pr.Name == "grown" {
				return nil
			}
		}
		return fmt.Errorf("no prompt grown yet")
	})
}
