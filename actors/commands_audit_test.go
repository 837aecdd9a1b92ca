package actors

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// command sends a slash command to a session and returns its output; it must be answered
// locally.
func (tn *testNode) command(t *testing.T, id, line string) string {
	t.Helper()
	ack, err := tn.client.Input(id, line)
	if err != nil || ack == nil || ack.Routed != messages.RoutedCommand {
		t.Fatalf("%s: %+v %v", line, ack, err)
	}
	return ack.Output
}

// waitIdleAfter waits until a session is idle again with at least n model calls made.
func (tn *testNode) waitIdleAfter(t *testing.T, id string, calls int) {
	t.Helper()
	checkFor(t, 20*time.Second, func() error {
		st, err := tn.client.Status(id)
		if err != nil {
			return err
		}
		if got := len(tn.provider.all()); st.Phase != phaseIdle || got < calls {
			return fmt.Errorf("phase %s after %d model calls, want idle after %d", st.Phase, got, calls)
		}
		return nil
	})
}

// startInteractive starts an interactive yolo session and waits until it answers.
func (tn *testNode) startInteractive(t *testing.T, start messages.StartSession) string {
	t.Helper()
	start.Interactive, start.Mode = true, messages.ModeYolo
	var id string
	if start.Model == "" {
		id = tn.startWith(t, start)
	} else {
		start.Workspace = tn.Root
		if err := tn.client.StartSession(&start); err != nil {
			t.Fatal(err)
		}
		id = start.ID
	}
	checkFor(t, 10*time.Second, func() error {
		_, err := tn.client.Status(id)
		return err
	})
	return id
}

func auditLine(out, check string) string {
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(strings.TrimSpace(l[4:]), check) {
			return l
		}
	}
	return ""
}

func TestAuditCommandChecksALiveSessionWithoutTheModel(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"expect": "alpha", "text": "a.txt says alpha"},
		{"expect": "a.txt was changed outside this session", "text": "noted the change"}]}`, AgentLimits{}, nil)
	id := tn.startInteractive(t, messages.StartSession{ID: "au1"})
	out := tn.command(t, id, "/audit")
	if !strings.HasSuffix(out, "6 ok, 0 warn, 0 fail") || !strings.Contains(out, "no file read or edited yet") {
		t.Fatalf("/audit of a new session:\n%s", out)
	}
	if _, err := tn.client.Input(id, "what does a.txt say?"); err != nil {
		t.Fatal(err)
	}
	tn.waitIdleAfter(t, id, 2)
	os.WriteFile(filepath.Join(tn.Root, "a.txt"), []byte("omega\n"), 0o644)

	out = tn.command(t, id, "/audit")
	for check, want := range map[string]string{
		"pairing":    "ok   pairing    1 tool call in the context, each with exactly one result",
		"file truth": "warn file truth a.txt changed on disk since it was last read (turn 1)",
		"registry":   "ok   registry",
		"goal":       "ok   goal       no goal set",
		"store":      "contiguous, checksums ok",
		"bus":        "ok   bus        connected, ping round trip",
	} {
		if l := auditLine(out, check); !strings.Contains(l, want) {
			t.Errorf("%s: %q, want %q\n%s", check, l, want, out)
		}
	}
	if !strings.HasSuffix(out, "5 ok, 1 warn, 0 fail") {
		t.Errorf("summary:\n%s", out)
	}
	if n := len(tn.provider.all()); n != 2 {
		t.Errorf("/audit made model calls: %d requests, want 2", n)
	}
	v := tn.waitEvent(t, id, messages.EventAuditFinished).(*messages.AuditData)
	if len(v.Checks) != 6 || v.Checks[0].Name != auditPairing {
		t.Errorf("audit.finished: %+v", v)
	}
	// The audit only looked: the next model call is still told about the change, once.
	if _, err := tn.client.Input(id, "anything new?"); err != nil {
		t.Fatal(err)
	}
	tn.waitIdleAfter(t, id, 3)
	if fin := tn.requestsOf("root"); len(fin) != 3 || !strings.Contains(lastContent(fin[2])+fin[2].Messages[len(fin[2].Messages)-2].Content, "changed outside") {
		t.Errorf("the change did not reach the model after /audit")
	}
}

func TestDoctorCommandReportsTheSessionScopeChecks(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [{"text": "unused"}]}`, AgentLimits{}, nil)
	id := tn.startInteractive(t, messages.StartSession{ID: "dr1"})
	out := tn.command(t, id, "/doctor")
	for _, want := range []string{
		"--   sandbox    off: commands run unsandboxed",
		"ok   store      the log is empty",
		"ok   bus        connected",
		"--   provider   scripted: not probed from the session",
		"fix: run troupe doctor --probe",
		"git",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("/doctor lacks %q:\n%s", want, out)
		}
	}
	if n := len(tn.provider.all()); n != 0 {
		t.Errorf("/doctor called the model %d times", n)
	}
}

func TestCostCommandSaysWhenNoPriceIsKnown(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [{"text": "hello there"}]}`, AgentLimits{}, nil)
	id := tn.startInteractive(t, messages.StartSession{ID: "co1", Model: "acme/mystery-1"})
	if _, err := tn.client.Input(id, "hi"); err != nil {
		t.Fatal(err)
	}
	tn.waitIdleAfter(t, id, 1)
	st, err := tn.client.Status(id)
	if err != nil || st.InputTokens == 0 {
		t.Fatalf("status: %+v %v", st, err)
	}
	out := tn.command(t, id, "/cost")
	want := fmt.Sprintf("%d in, %d out  no price known for acme/mystery-1", st.InputTokens, st.OutputTokens)
	if !strings.Contains(out, "session root") || !strings.Contains(out, want) || !strings.Contains(out, "total $0.00, not counting 1 model without") {
		t.Errorf("/cost:\n%s\nwant %q", out, want)
	}
}

// cachingProvider reports half of every request's input as read from the prompt cache, as
// providers with prompt caching do.
type cachingProvider struct{ llm.Provider }

func (p cachingProvider) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Reply, error) {
	r, err := p.Provider.Stream(ctx, req, emit)
	if r != nil {
		r.Usage.CacheReadTokens = r.Usage.InputTokens / 2
	}
	return r, err
}

func TestCostCommandPricesCachedInputAtTheCachedRate(t *testing.T) {
	script, err := llm.ParseScript("test", []byte(`{"turns": [{"text": "hello there"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tn := &testNode{provider: &recordingProvider{Provider: cachingProvider{llm.NewScriptedFrom(script)}}}
	node, err := StartNode(NodeOptions{Root: t.TempDir(), Retry: llm.RetryPolicy{MaxAttempts: 1},
		Provider: func(string, string, func(string) string) (llm.Provider, string, error) {
			return tn.provider, "scripted", nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	tn.attach(t, node)
	id := tn.startInteractive(t, messages.StartSession{ID: "co2", Model: "anthropic/claude-sonnet-4-5"})
	if _, err := tn.client.Input(id, "hi"); err != nil {
		t.Fatal(err)
	}
	tn.waitIdleAfter(t, id, 1)
	st, err := tn.client.Status(id)
	if err != nil || st.InputTokens < 2 {
		t.Fatalf("status: %+v %v", st, err)
	}
	cached := st.InputTokens / 2
	price, _ := llm.PriceOf("anthropic/claude-sonnet-4-5")
	out := tn.command(t, id, "/cost")
	want := fmt.Sprintf("%d in (%d cached), %d out  %s", st.InputTokens, cached, st.OutputTokens, formatDollars(price.Cost(st.InputTokens, cached, st.OutputTokens)))
	if !strings.Contains(out, want) || strings.Contains(out, "no cached input recorded") {
		t.Errorf("/cost:\n%s\nwant %q", out, want)
	}
	if m, err := tn.Store().Meta(id); err != nil || m.CachedInputTokens != cached {
		t.Errorf("stored meta: %+v %v", m, err)
	}
}

func TestDelegateStartsAChildThatAgentsAndCostShow(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"expect": "Subagent results", "text": "the explorer found alpha"}],
	"agents": {"find-alpha": {"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "searched the tree\nalpha is at a.txt:1"}]}}}`, AgentLimits{}, nil)
	id := tn.startInteractive(t, messages.StartSession{ID: "de1"})

	if out := tn.command(t, id, "/delegate find alpha --role explorr"); !strings.Contains(out, `unknown agent type "explorr" (did you mean "explorer"?)`) {
		t.Errorf("a bad role: %q", out)
	}
	if out := tn.command(t, id, "/delegate --role"); !strings.Contains(out, "usage: /delegate TASK") {
		t.Errorf("no task: %q", out)
	}
	out := tn.command(t, id, "/delegate find alpha --role explorer")
	if !strings.Contains(out, "delegated to root/find-alpha") {
		t.Fatalf("/delegate: %q", out)
	}
	res := tn.waitEvent(t, id, messages.EventAgentFinished).(*messages.AgentResult)
	if res.Status != messages.AgentDone || res.Handle != "root/find-alpha" {
		t.Fatalf("agent.finished: %+v", res)
	}
	agents := tn.command(t, id, "/agents")
	if row := strings.Fields(strings.Split(agents, "\n")[1]); len(row) < 5 || row[0] != "find-alpha" || row[1] != "explorer" || row[2] != "done" || row[3] != "2" ||
		!strings.HasSuffix(agents, "alpha is at a.txt:1") {
		t.Errorf("/agents:\n%s", agents)
	}
	cost := tn.command(t, id, "/cost")
	if !strings.Contains(cost, "root/find-alpha") || !strings.Contains(cost, "with subagents") {
		t.Errorf("/cost:\n%s", cost)
	}
	if n := len(tn.requestsOf("root")); n != 0 {
		t.Fatalf("the commands called the parent's model %d times", n)
	}
	// The child's result reaches the parent's model with the user's next message.
	if _, err := tn.client.Input(id, "what did it find?"); err != nil {
		t.Fatal(err)
	}
	tn.waitIdleAfter(t, id, 3)
	if reqs := tn.requestsOf("root"); len(reqs) != 1 || !strings.Contains(lastContent(reqs[0])+reqs[0].Messages[0].Content, "alpha is at a.txt:1") {
		t.Errorf("the parent's model did not get the result")
	}
}
