package actors

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// startAgentNode starts a Node with the default tools (agent tools included) on a scripted
// provider; a model named "broken/…" fails to open, as a child's bad provider would.
func startAgentNode(t *testing.T, script string, limits AgentLimits, setup func(root string)) *testNode {
	t.Helper()
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644)
	if setup != nil {
		setup(root)
	}
	tn, node := newAgentNode(t, root, script, limits)
	tn.attach(t, node)
	return tn
}

// newAgentNode starts a Node in root without attaching a test client (the caller owns it).
func newAgentNode(t *testing.T, root, script string, limits AgentLimits) (*testNode, *Node) {
	t.Helper()
	s, err := llm.ParseScript("test", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	tn := &testNode{provider: &recordingProvider{Provider: llm.NewScriptedFrom(s)}}
	node, err := StartNode(NodeOptions{
		Root: root,
		Provider: func(model, baseURL string, getenv func(string) string) (llm.Provider, string, error) {
			if strings.HasPrefix(model, "broken/") {
				return nil, "", errors.New("no API key for broken: set BROKEN_API_KEY")
			}
			return tn.provider, "scripted", nil
		},
		Retry:  llm.RetryPolicy{MaxAttempts: 1},
		Agents: limits,
	})
	if err != nil {
		t.Fatal(err)
	}
	return tn, node
}

// requestsOf returns the requests the agent with handle made, in order.
func (tn *testNode) requestsOf(handle string) []*llm.Request {
	var out []*llm.Request
	for _, r := range tn.provider.all() {
		if r.Agent == handle {
			out = append(out, r)
		}
	}
	return out
}

// waitFinished returns the session.finished payload of a session, once it is there.
func (tn *testNode) waitFinished(t *testing.T, id string) *messages.SessionFinishedData {
	t.Helper()
	return tn.waitFinishedWithin(t, id, 30*time.Second)
}

// waitFinishedWithin is waitFinished with its own (scaled) deadline.
func (tn *testNode) waitFinishedWithin(t *testing.T, id string, d time.Duration) *messages.SessionFinishedData {
	t.Helper()
	var fin *messages.SessionFinishedData
	checkFor(t, d, func() error {
		for _, e := range tn.sessionEvents(id) {
			if e.Type == messages.EventSessionFinished {
				v, _ := e.DecodeData()
				fin = v.(*messages.SessionFinishedData)
				return nil
			}
		}
		return fmt.Errorf("session %s has not finished", id)
	})
	return fin
}

// agentResults returns the agent.finished payloads the session emitted, by handle.
func (tn *testNode) agentResults(id string) map[string]*messages.AgentResult {
	out := map[string]*messages.AgentResult{}
	for _, e := range tn.sessionEvents(id) {
		if e.Type == messages.EventAgentFinished {
			v, _ := e.DecodeData()
			r := v.(*messages.AgentResult)
			out[r.Handle] = r
		}
	}
	return out
}

func lastContent(req *llm.Request) string {
	return req.Messages[len(req.Messages)-1].Content
}

func TestParallelChildrenReturnProjectedResultsNotTranscripts(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [
			{"name": "spawn_agent", "args": {"task_name": "find_a", "agent_type": "explorer", "message": "where is alpha?"}},
			{"name": "spawn_agent", "args": {"task_name": "find_b", "agent_type": "explorer", "message": "where is beta?"}}]},
		{"expect": "Subagent results", "text": "both reported"}],
	"agents": {
		"find_a": {"turns": [
			{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}], "delay_ms": 100},
			{"text": "alpha is at a.txt:1"}]},
		"find_b": {"turns": [{"text": "beta is nowhere"}]}}}`, AgentLimits{}, nil)
	fin := tn.run(t, "p1", "go")
	if fin.Status != messages.StatusDone || fin.Final != "both reported" {
		t.Fatalf("parent finished: %+v", fin)
	}
	results := tn.agentResults("p1")
	a, b := results["root/find_a"], results["root/find_b"]
	if a == nil || b == nil {
		t.Fatalf("agent.finished events: %v", results)
	}
	if a.Status != messages.AgentDone || a.Summary != "alpha is at a.txt:1" || a.Usage.Turns != 2 {
		t.Errorf("find_a result: %+v", a)
	}
	if len(a.Evidence) != 1 || a.Evidence[0].Ref != "a.txt:1" {
		t.Errorf("find_a evidence: %+v", a.Evidence)
	}
	if b.Status != messages.AgentDone || b.Summary != "beta is nowhere" {
		t.Errorf("find_b result: %+v", b)
	}
	parent := tn.requestsOf("root")
	if len(parent) != 2 {
		t.Fatalf("parent made %d requests, want 2", len(parent))
	}
	note := lastContent(parent[1])
	for _, want := range []string{"agent root/find_a (explorer): done", "alpha is at a.txt:1", "agent root/find_b (explorer): done"} {
		if !strings.Contains(note, want) {
			t.Errorf("the parent's context lacks %q:\n%s", want, note)
		}
	}
	// The projection, never the transcript: the child's tool output never reaches the parent.
	for _, m := range parent[1].Messages {
		if strings.Contains(m.Content, "alpha\n") || strings.Contains(m.Content, "1\talpha") {
			t.Errorf("the child's raw tool output reached the parent: %q", m.Content)
		}
	}
	// The children ran as sessions of their own, under the parent, in parallel.
	for _, id := range []string{"p1-find_a", "p1-find_b"} {
		evs := tn.sessionEvents(id)
		if len(evs) == 0 || evs[0].Type != messages.EventSessionStarted || evs[0].Parent != "p1" || !strings.HasPrefix(evs[0].Agent, "root/") {
			t.Errorf("child %s events: %+v", id, evs)
		}
	}
	for _, r := range tn.provider.all() {
		if v := projection.Violations(r.Messages); len(v) > 0 {
			t.Errorf("request of %s breaks pairing: %v", r.Agent, v)
		}
	}
	// A read-only role got only read-only tools, and the spawn tools were not among them.
	child := tn.requestsOf("root/find_a")[0]
	for _, spec := range child.Tools {
		if spec.Name == "bash" || spec.Name == "spawn_agent" || spec.Name == "edit_file" {
			t.Errorf("explorer was given %s", spec.Name)
		}
	}
}

func TestContextModesGiveTheChildOnlyWhatTheyAllow(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"text": "reading", "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "listing", "tool_calls": [{"name": "list_dir", "args": {}}]},
		{"tool_calls": [
			{"name": "spawn_agent", "args": {"task_name": "fresh_one", "agent_type": "explorer", "message": "fresh task"}},
			{"name": "spawn_agent", "args": {"task_name": "forked", "agent_type": "explorer", "message": "forked task", "context": "fork"}},
			{"name": "spawn_agent", "args": {"task_name": "part", "agent_type": "explorer", "message": "partial task", "context": "partial", "fork_turns": "1"}}]},
		{"text": "done"}],
	"agents": {"*": {"turns": [{"text": "ok"}]}}}`, AgentLimits{}, nil)
	if fin := tn.run(t, "p2", "the user's secret request"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	fresh := tn.requestsOf("root/fresh_one")[0].Messages
	if len(fresh) != 1 || !strings.Contains(fresh[0].Content, "fresh task") || !strings.Contains(fresh[0].Content, "root/fresh_one") {
		t.Errorf("fresh child saw: %+v", fresh)
	}
	forked := tn.requestsOf("root/forked")[0].Messages
	if !strings.Contains(forked[0].Content, "the user's secret request") || !strings.Contains(lastContent(tn.requestsOf("root/forked")[0]), "forked task") {
		t.Errorf("forked child did not get the parent's history: %+v", forked)
	}
	for _, m := range forked {
		for _, c := range m.ToolCalls {
			if c.Name == "spawn_agent" {
				t.Errorf("the fork includes the unanswered spawn turn: %+v", m)
			}
		}
	}
	part := tn.requestsOf("root/part")[0].Messages
	var joined strings.Builder
	for _, m := range part {
		joined.WriteString(m.Content + "\n")
	}
	if strings.Contains(joined.String(), "the user's secret request") || strings.Contains(joined.String(), "reading") {
		t.Errorf("partial fork of 1 turn saw older turns:\n%s", joined.String())
	}
	if !strings.Contains(joined.String(), "listing") {
		t.Errorf("partial fork lacks the last turn:\n%s", joined.String())
	}
	if part[0].Role != llm.RoleUser {
		t.Errorf("partial fork starts with %s, want a user message", part[0].Role)
	}
	for _, r := range tn.provider.all() {
		if v := projection.Violations(r.Messages); len(v) > 0 {
			t.Errorf("request of %s breaks pairing: %v", r.Agent, v)
		}
	}
}

func TestBadSpawnsAreToolErrorsThatSayWhatToFix(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [
			{"name": "spawn_agent", "args": {"task_name": "x", "agent_type": "wizard", "message": "m"}},
			{"name": "wait_agent", "args": {"handles": ["root/nobody"]}},
			{"name": "spawn_agent", "args": {"task_name": "lean", "agent_type": "greedy", "message": "m"}}]},
		{"text": "noted"}],
	"agents": {"*": {"turns": [{"text": "ok"}]}}}`, AgentLimits{}, func(root string) {
		os.MkdirAll(filepath.Join(root, ".troupe", "agents"), 0o755)
		os.WriteFile(filepath.Join(root, ".troupe", "agents", "greedy.md"), []byte("---\ndescription: wants everything\ntools: [read_file, web_search, mcp__db__query]\n---\nBe greedy."), 0o644)
	})
	if fin := tn.run(t, "p3", "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	results := toolResults(tn.requestsOf("root")[1])
	if len(results) != 3 {
		t.Fatalf("results: %+v", results)
	}
	if !results[0].IsError || !strings.Contains(results[0].Content, `unknown agent type "wizard"`) || !strings.Contains(results[0].Content, "explorer, planner, verifier, worker, reviewer") {
		t.Errorf("unknown role: %+v", results[0])
	}
	if !results[1].IsError || !strings.Contains(results[1].Content, "unknown handle root/nobody") {
		t.Errorf("wait on unknown handle: %+v", results[1])
	}
	if results[2].IsError || !strings.Contains(results[2].Content, "dropped: web_search, mcp__db__query") {
		t.Errorf("role asking for tools the parent lacks: %+v", results[2])
	}
}

func toolResults(req *llm.Request) []llm.Message {
	var out []llm.Message
	for _, m := range req.Messages {
		if m.Role == llm.RoleTool {
			out = append(out, m)
		}
	}
	return out
}

func TestDepthLimitStopsSpawningPastIt(t *testing.T) {
	// Every agent tries to spawn one more level; with a limit of 2 the child at depth 2 has no
	// spawn tool, and says so in its answer.
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "l1", "agent_type": "worker", "message": "go deeper"}}]},
		{"text": "root done"}],
	"agents": {
		"l1": {"turns": [{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "l2", "agent_type": "worker", "message": "deeper"}}]}, {"text": "l1 done"}]},
		"l2": {"turns": [{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "l3", "agent_type": "worker", "message": "deeper"}}]}, {"text": "l2 done"}]}}}`,
		AgentLimits{MaxDepth: 2}, nil)
	if fin := tn.run(t, "p4", "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	l2 := tn.requestsOf("root/l1/l2")
	if len(l2) != 2 {
		t.Fatalf("l2 made %d requests", len(l2))
	}
	res := toolResults(l2[1])
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].Content, "unknown tool") {
		t.Errorf("spawn past the depth limit: %+v", res)
	}
	if len(tn.requestsOf("root/l1/l2/l3")) != 0 {
		t.Errorf("an agent past the depth limit ran")
	}
}

func TestChildWithFailingProviderGivesParentAFailedResult(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "cheap", "agent_type": "cheapo", "message": "m"}}]},
		{"expect": "failed", "text": "handled"}]}`, AgentLimits{}, func(root string) {
		os.MkdirAll(filepath.Join(root, ".troupe", "agents"), 0o755)
		os.WriteFile(filepath.Join(root, ".troupe", "agents", "cheapo.md"), []byte("---\ndescription: cheap\nmodel: broken/tiny\n---\nBe cheap."), 0o644)
	})
	if fin := tn.run(t, "p5", "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	r := tn.agentResults("p5")["root/cheap"]
	if r == nil || r.Status != messages.AgentFailed || !strings.Contains(r.Error, "BROKEN_API_KEY") {
		t.Fatalf("result: %+v", r)
	}
}

func TestChildThatLoopsEndsAtItsBudget(t *testing.T) {
	loop := strings.Repeat(`{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},`, 10)
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "spin", "agent_type": "explorer", "message": "m"}}]},
		{"expect": "budget-exhausted", "text": "it ran out"}],
	"agents": {"spin": {"turns": [`+loop+`{"text": "never"}]}}}`, AgentLimits{MaxTurns: 3}, nil)
	if fin := tn.run(t, "p6", "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	r := tn.agentResults("p6")["root/spin"]
	if r == nil || r.Status != messages.AgentBudget || r.Usage.Turns != 3 {
		t.Fatalf("result: %+v", r)
	}
}

func TestCancelReachesGrandchildren(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "mid", "agent_type": "worker", "message": "m", "background": true}}]},
		{"delay_ms": 300, "tool_calls": [{"name": "cancel_agent", "args": {"handle": "root/mid"}}]},
		{"tool_calls": [{"name": "wait_agent", "args": {"handles": ["root/mid"], "timeout_s": 20}}]},
		{"expect": "cancelled", "text": "stopped it"}],
	"agents": {
		"mid": {"turns": [{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "leaf", "agent_type": "explorer", "message": "m"}}]}, {"text": "mid done"}]},
		"leaf": {"turns": [{"delay_ms": 20000, "text": "too late"}]}}}`, AgentLimits{}, nil)
	start := time.Now()
	if fin := tn.run(t, "p7", "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	if time.Since(start) > 15*time.Second {
		t.Errorf("the cancel did not cut the grandchild's 20 s call short")
	}
	if fin := tn.waitFinished(t, "p7-mid-leaf"); fin.Status != messages.StatusInterrupted {
		t.Errorf("grandchild: %+v", fin)
	}
	if r := tn.agentResults("p7")["root/mid"]; r == nil || r.Status != messages.AgentCancelled {
		t.Errorf("child result: %+v", r)
	}
}

func TestTwoChildrenEditingOneFileTheSecondIsRejectedAsStale(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [
			{"name": "spawn_agent", "args": {"task_name": "first", "agent_type": "worker", "message": "edit"}},
			{"name": "spawn_agent", "args": {"task_name": "second", "agent_type": "worker", "message": "edit"}}]},
		{"text": "done"}],
	"agents": {
		"first": {"turns": [
			{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
			{"tool_calls": [{"name": "edit_file", "args": {"path": "a.txt", "old_string": "alpha", "new_string": "first"}}]},
			{"text": "first edited"}]},
		"second": {"turns": [
			{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
			{"delay_ms": 800, "tool_calls": [{"name": "edit_file", "args": {"path": "a.txt", "old_string": "alpha", "new_string": "second"}}]},
			{"text": "second tried"}]}}}`, AgentLimits{}, nil)
	tn.runYolo(t, "p8")
	data, _ := os.ReadFile(filepath.Join(tn.Root, "a.txt"))
	if string(data) != "first\n" {
		t.Errorf("a.txt = %q, want the first edit kept", data)
	}
	res := toolResults(tn.requestsOf("root/second")[2])
	last := res[len(res)-1]
	// Rejected either at the edit (its baseline is stale) or, when the change was seen by the
	// re-check before its call, because the text it meant to replace is gone: never applied.
	if !last.IsError || !(strings.Contains(last.Content, "changed") || strings.Contains(last.Content, "not found")) {
		t.Errorf("the second edit was not rejected: %+v", last)
	}
	if r := tn.agentResults("p8")["root/first"]; r == nil || len(r.FilesChanged) != 1 || r.FilesChanged[0] != "a.txt" {
		t.Errorf("first's result: %+v", r)
	}
}

// runYolo runs a headless session in yolo mode (workers may edit) and checks it is done.
func (tn *testNode) runYolo(t *testing.T, id string) {
	t.Helper()
	if fin := tn.run(t, id, "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
}

func TestWorktreeChildWorksOnItsOwnBranch(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_AUTHOR_NAME", "t")
	t.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "t")
	t.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
	script := `{"turns": [
		{"tool_calls": [
			{"name": "spawn_agent", "args": {"task_name": "iso", "agent_type": "worker", "message": "add a file", "worktree": true}}]},
		{"expect": "troupe/iso", "text": "merged later"}],
	"agents": {"iso": {"turns": [
		{"tool_calls": [{"name": "write_file", "args": {"path": "new.txt", "content": "hello\n"}}]},
		{"text": "added new.txt"}]}}}`
	tn := startAgentNode(t, script, AgentLimits{}, func(root string) {
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "init"}} {
			if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
	})
	tn.runYolo(t, "p9")
	r := tn.agentResults("p9")["root/iso"]
	if r == nil || r.Branch != "troupe/iso" || !strings.Contains(r.DiffStat, "new.txt") {
		t.Fatalf("result: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(tn.Root, "new.txt")); !os.IsNotExist(err) {
		t.Errorf("the child wrote into the main tree")
	}
	if _, err := os.Stat(filepath.Join(tn.Root, ".troupe", "worktrees", "iso", "new.txt")); err != nil {
		t.Errorf("the worktree lacks the child's file: %v", err)
	}
}

func TestWorktreeOutsideGitIsAClearError(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "iso", "agent_type": "worker", "message": "m", "worktree": true}}]},
		{"text": "ok"}]}`, AgentLimits{}, nil)
	tn.runYolo(t, "p10")
	res := toolResults(tn.requestsOf("root")[1])
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].Content, "git") {
		t.Errorf("worktree outside a repository: %+v", res)
	}
}

func TestQueuedSpawnsWaitForASlot(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [
			{"name": "spawn_agent", "args": {"task_name": "q1", "agent_type": "explorer", "message": "m"}},
			{"name": "spawn_agent", "args": {"task_name": "q2", "agent_type": "explorer", "message": "m"}},
			{"name": "spawn_agent", "args": {"task_name": "q3", "agent_type": "explorer", "message": "m"}}]},
		{"text": "done"}],
	"agents": {"*": {"turns": [{"delay_ms": 100, "text": "ok"}]}}}`, AgentLimits{MaxRunning: 1}, nil)
	tn.runYolo(t, "p11")
	var states []string
	for _, e := range tn.sessionEvents("p11") {
		if e.Type == messages.EventAgentSpawned {
			v, _ := e.DecodeData()
			states = append(states, string(v.(*messages.AgentSpawnedData).State))
		}
	}
	if strings.Join(states, ",") != "running,queued,queued" {
		t.Errorf("spawn states: %v", states)
	}
	if n := len(tn.agentResults("p11")); n != 3 {
		t.Errorf("%d results, want 3", n)
	}
}

func TestResumedParentGetsFinishedResultsAndMarksUnfinishedInterrupted(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644)
	first, node := newAgentNode(t, root, `{"turns": [
		{"tool_calls": [
			{"name": "spawn_agent", "args": {"task_name": "quick", "agent_type": "explorer", "message": "m", "background": true}},
			{"name": "spawn_agent", "args": {"task_name": "slow", "agent_type": "explorer", "message": "m", "background": true}}]},
		{"delay_ms": 30000, "text": "never"}],
	"agents": {"quick": {"turns": [{"text": "quick found it"}]}, "slow": {"turns": [{"delay_ms": 30000, "text": "never"}]}}}`, AgentLimits{})
	client, err := node.Client()
	if err != nil {
		t.Fatal(err)
	}
	var results atomic.Int32
	client.Subscribe(messages.SessionEventsSubject(node.NS, "p12"), func(e *messages.Envelope) {
		if e.Type == messages.EventAgentFinished {
			results.Add(1)
		}
	})
	if err := client.StartSession(&messages.StartSession{ID: "p12", Task: "go", Model: "scripted", Mode: "yolo", Workspace: root}); err != nil {
		t.Fatal(err)
	}
	checkFor(t, 10*time.Second, func() error {
		if len(first.requestsOf("root")) < 2 || results.Load() < 1 {
			return fmt.Errorf("the parent is not waiting on its second call with quick's result in")
		}
		return nil
	})
	client.Close()
	if err := node.Close(); err != nil { // the process dies while slow still runs
		t.Fatal(err)
	}

	tn, node2 := newAgentNode(t, root, `{"turns": [
		{"text": "unused"},
		{"expect": "interrupted", "text": "resumed with both"}]}`, AgentLimits{})
	tn.attach(t, node2)
	if err := tn.client.StartSession(&messages.StartSession{ID: "p12", Resume: true, Model: "scripted", Mode: "yolo", Workspace: root}); err != nil {
		t.Fatal(err)
	}
	if fin := tn.waitFinished(t, "p12"); fin.Status != messages.StatusDone || fin.Final != "resumed with both" {
		t.Fatalf("resumed parent: %+v", fin)
	}
	// quick's result reached the context before the crash or with the resume; slow's comes
	// with the resume, marked interrupted.
	var all strings.Builder
	for _, m := range tn.requestsOf("root")[0].Messages {
		all.WriteString(m.Content + "\n")
	}
	note := all.String()
	if !strings.Contains(lastContent(tn.requestsOf("root")[0]), "root/slow (explorer): interrupted") {
		t.Errorf("the resume did not deliver slow's interrupted result last")
	}
	for _, want := range []string{"root/quick (explorer): done", "quick found it", "root/slow (explorer): interrupted"} {
		if !strings.Contains(note, want) {
			t.Errorf("resumed context lacks %q:\n%s", want, note)
		}
	}
}

func TestSendAgentReachesARunningChild(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "listener", "agent_type": "explorer", "message": "m", "background": true}}]},
		{"tool_calls": [{"name": "send_agent", "args": {"handle": "root/listener", "message": "also check b.txt"}}]},
		{"tool_calls": [{"name": "wait_agent", "args": {"handles": ["root/listener"], "timeout_s": 20}}]},
		{"expect": "heard you", "text": "done"}],
	"agents": {"listener": {"turns": [
		{"delay_ms": 400, "tool_calls": [{"name": "list_dir", "args": {}}]},
		{"expect": "also check b.txt", "text": "heard you"}]}}}`, AgentLimits{}, nil)
	tn.runYolo(t, "p13")
	// wait_agent delivered the result: it is not delivered a second time as a note.
	last := lastContent(tn.requestsOf("root")[3])
	if strings.Contains(last, "Subagent results") {
		t.Errorf("a result seen through wait_agent came again as a note: %s", last)
	}
}

func TestHeadlessParentWaitsForBackgroundChildrenBeforeFinishing(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "bg", "agent_type": "explorer", "message": "m", "background": true}}]},
		{"text": "my answer before bg ended"},
		{"expect": "bg says hi", "text": "final, with bg's result"}],
	"agents": {"bg": {"turns": [{"delay_ms": 300, "text": "bg says hi"}]}}}`, AgentLimits{}, nil)
	fin := tn.run(t, "p14", "go")
	if fin.Status != messages.StatusDone || fin.Final != "final, with bg's result" {
		t.Fatalf("finished: %+v", fin)
	}
	// The background child did not hold the parent's second call.
	if len(tn.requestsOf("root")) != 3 {
		t.Errorf("parent requests: %d", len(tn.requestsOf("root")))
	}
}

func TestVerifierMustGiveAVerdict(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "check", "agent_type": "verifier", "message": "does a.txt say alpha?"}}]},
		{"expect": "verdict pass", "text": "verified"}],
	"agents": {"check": {"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "grep -q alpha a.txt"}}]},
		{"text": "it does"},
		{"expect": "VERDICT", "text": "a.txt:1 says alpha.\nVERDICT: pass"}]}}}`, AgentLimits{}, nil)
	// No sandbox here keeps the workspace read-only to commands, so plan-safe bash asks; --yes
	// answers. (TestVerifierWithoutSandboxOrYesIsDenied covers the refusal.)
	if err := tn.client.StartSession(&messages.StartSession{ID: "p15", Task: "go", Model: "scripted", Mode: "yolo", Workspace: tn.Root, Yes: true}); err != nil {
		t.Fatal(err)
	}
	if fin := tn.waitFinished(t, "p15"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	r := tn.agentResults("p15")["root/check"]
	if r == nil || r.Verdict != "pass" || len(r.Evidence) == 0 || r.Evidence[0].Command != "grep -q alpha a.txt" || r.Evidence[0].Outcome != "ok" {
		t.Fatalf("verifier result: %+v", r)
	}
}

func TestVerifierWithoutSandboxOrYesIsDenied(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "check", "agent_type": "verifier", "message": "m"}}]},
		{"text": "ok"}],
	"agents": {"check": {"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "touch written.txt"}}]},
		{"expect": "denied", "text": "could not run it\nVERDICT: fail"}]}}}`, AgentLimits{}, nil)
	tn.runYolo(t, "p16")
	if _, err := os.Stat(filepath.Join(tn.Root, "written.txt")); !os.IsNotExist(err) {
		t.Errorf("a verifier wrote the workspace")
	}
	if r := tn.agentResults("p16")["root/check"]; r == nil || r.Verdict != "fail" || !strings.HasPrefix(r.Evidence[0].Outcome, "error") {
		t.Errorf("result: %+v", r)
	}
}
