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

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// Tests of the context projection in a running session (docs/DESIGN-NOTES.md "Context"): the window is never
// exceeded, compaction happens and keeps calls paired, the boundary is marked as the harness's,
// the stable prefix stays byte-identical, and every way a compaction can fail leaves a usable
// session.

// inOrder makes the scripted provider play the main script by the number of calls it answered
// rather than by the assistant messages in the request: a compaction replaces assistant
// messages, so the scripted provider's own count would go back and replay earlier turns. The
// request it passes on holds one placeholder assistant message per turn played, then the
// request's other messages (so expect and the scripted failures still work per turn); the
// recording provider outside it sees the real request. Usage is reported as ctxRequestTokens
// of the real request: the count a provider would report, in the measure the tests check.
// Requests of other agents (the compactor: root/#compactor) pass through unchanged.
type inOrder struct {
	llm.Provider
	mu     sync.Mutex
	played int
}

func (p *inOrder) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Reply, error) {
	if req.Agent != "" && req.Agent != "root" {
		return p.Provider.Stream(ctx, req, emit)
	}
	p.mu.Lock()
	n := p.played
	p.mu.Unlock()
	msgs := make([]llm.Message, n, n+len(req.Messages))
	for i := range msgs {
		msgs[i] = llm.Message{Role: llm.RoleAssistant, Content: "(an earlier turn)"}
	}
	for _, m := range req.Messages {
		if m.Role != llm.RoleAssistant {
			msgs = append(msgs, m)
		}
	}
	played := *req
	played.Messages = msgs
	reply, err := p.Provider.Stream(ctx, &played, emit)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.played++
	p.mu.Unlock()
	reply.Usage.InputTokens = ctxRequestTokens(req)
	return reply, nil
}

// ctxRequestTokens estimates what req costs as the session does: the system prompt, the tool
// schemas as JSON, and the messages.
func ctxRequestTokens(req *llm.Request) int {
	tools, _ := json.Marshal(req.Tools)
	return projection.EstimateTokens(req.System) + projection.EstimateTokens(string(tools)) + projection.EstimateMessages(req.Messages)
}

// ctxPrefix is the stable prefix of req: its system prompt and tool schemas, as bytes.
func ctxPrefix(req *llm.Request) string {
	tools, _ := json.Marshal(req.Tools)
	return req.System + "\x00" + string(tools)
}

// startContextNode starts a Node with the default tools on the scripted provider, played in
// order (inOrder) and recorded. setup, if set, prepares the workspace first.
func startContextNode(tb testing.TB, script string, setup func(root string)) *testNode {
	tb.Helper()
	root := tb.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644)
	if setup != nil {
		setup(root)
	}
	s, err := llm.ParseScript("context", []byte(script))
	if err != nil {
		tb.Fatal(err)
	}
	tn := &testNode{provider: &recordingProvider{Provider: &inOrder{Provider: llm.NewScriptedFrom(s)}}}
	node, err := StartNode(NodeOptions{
		Root: root,
		Provider: func(string, string, func(string) string) (llm.Provider, string, error) {
			return tn.provider, "scripted", nil
		},
		Retry: llm.RetryPolicy{MaxAttempts: 1},
	})
	if err != nil {
		tb.Fatal(err)
	}
	tn.attach(tb, node)
	return tn
}

// runWindowed starts a headless yolo session with the given context window and waits until it
// has finished (within d).
func (tn *testNode) runWindowed(tb testing.TB, id string, window, maxTurns int, d time.Duration) *messages.SessionFinishedData {
	tb.Helper()
	if err := tn.client.StartSession(&messages.StartSession{ID: id, Task: "work through the files", Model: "scripted", Mode: "yolo",
		Workspace: tn.Root, ContextWindow: window, MaxTurns: maxTurns}); err != nil {
		tb.Fatal(err)
	}
	return tn.ctxWaitFinished(tb, id, d)
}

func (tn *testNode) ctxWaitFinished(tb testing.TB, id string, d time.Duration) *messages.SessionFinishedData {
	tb.Helper()
	var fin []messages.SessionFinishedData
	testwait.For(tb, d, func() error {
		if fin = ctxEvents[messages.SessionFinishedData](tn, id, messages.EventSessionFinished); len(fin) == 0 {
			return fmt.Errorf("session %s has not finished", id)
		}
		return nil
	})
	return &fin[0]
}

// ctxEvents returns the decoded payloads of the session's events of type typ, in order.
func ctxEvents[T any](tn *testNode, id string, typ messages.EventType) []T {
	var out []T
	for _, e := range tn.sessionEvents(id) {
		if e.Type != typ {
			continue
		}
		if v, err := e.DecodeData(); err == nil {
			if d, ok := v.(*T); ok {
				out = append(out, *d)
			}
		}
	}
	return out
}

// ctxGenFiles writes n files gen/fNNN.txt of lines numbered lines each (about 62 bytes a line).
func ctxGenFiles(tb testing.TB, root string, n, lines int) {
	tb.Helper()
	dir := filepath.Join(root, "gen")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	for f := 0; f < n; f++ {
		var sb strings.Builder
		for l := 0; l < lines; l++ {
			fmt.Fprintf(&sb, "f%03d line %05d: the quick brown fox jumps over the lazy dog %d\n", f, l, l%97)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", f)), []byte(sb.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// ctxLoad is how large the tool outputs of a long script are.
type ctxLoad struct {
	SeqLines  int // bash seq 1 N: about 4.9 bytes a line at 3000
	ReadLines int // read_file limit: about 70 bytes a line
	GrepFiles int // grep over this many generated files (about 1.6 KB of matches each)
}

// ctxSummary is the #compactor's answer: a summary in the four sections ParseSummary reads.
const ctxSummary = `Summary:
The user asked to work through the generated files. The assistant listed number ranges with seq, read gen/fNNN.txt files and grepped them for "lazy dog"; every command succeeded.

Files touched:
- gen/ (read only)

Key results:
- seq printed the expected ranges
- grep found the expected lines

Open issues:
- none`

// ctxLongScript is a script of turns tool turns with large outputs (bash seq, read_file of a
// distinct generated file, grep across generated files, in turn), then the final answer
// "finished". compactor, if not nil, is the #compactor agent's script.
func ctxLongScript(turns int, load ctxLoad, compactor *llm.Script) string {
	s := llm.Script{}
	for i := 0; i < turns; i++ {
		var call llm.ScriptCall
		switch i % 4 {
		case 0, 2:
			call = llm.ScriptCall{Name: "bash", Args: ctxJSON(map[string]any{"command": fmt.Sprintf("seq %d %d", i, i+load.SeqLines-1)})}
		case 1:
			call = llm.ScriptCall{Name: "read_file", Args: ctxJSON(map[string]any{"path": fmt.Sprintf("gen/f%03d.txt", i/4), "limit": load.ReadLines})}
		case 3:
			call = llm.ScriptCall{Name: "grep", Args: ctxJSON(map[string]any{"pattern": fmt.Sprintf("dog %d", 1+i%9), "path": "gen", "glob": ctxGrepGlob(load.GrepFiles)})}
		}
		s.Turns = append(s.Turns, llm.ScriptTurn{Text: fmt.Sprintf("Step %d.", i+1), ToolCalls: []llm.ScriptCall{call}})
	}
	s.Turns = append(s.Turns, llm.ScriptTurn{Text: "finished"})
	if compactor != nil {
		s.Agents = map[string]*llm.Script{compactorAgent: compactor}
	}
	data, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// ctxGrepGlob matches the first n generated files (n ≤ 100).
func ctxGrepGlob(n int) string {
	switch {
	case n <= 1:
		return "f000.txt"
	case n <= 10:
		return fmt.Sprintf("f00[0-%d].txt", n-1)
	default:
		return fmt.Sprintf("f0[0-%d]?.txt", (n-1)/10)
	}
}

func ctxJSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

// ctxCheck is what the recorded requests of one session show.
type ctxCheck struct {
	main, compactor int   // requests of the session and of its compactor
	maxTokens       int   // the largest request, estimated (ctxRequestTokens)
	maxBytes        int   // the largest request, in requestSize bytes
	overWindow      []int // indexes of requests over the window
	violations      []string
	prefixDiffers   []int // main requests whose stable prefix differs from the first one's
	boundaryReqs    int   // main requests opening with a compact boundary
	badBoundary     []string
	summaryAsUser   []int // main requests where the compactor's summary appears outside a boundary
}

// ctxCheckRequests reads the recorded requests against the window.
func ctxCheckRequests(reqs []*llm.Request, window int) ctxCheck {
	var c ctxCheck
	var prefix string
	for i, req := range reqs {
		tok := ctxRequestTokens(req)
		c.maxTokens = max(c.maxTokens, tok)
		c.maxBytes = max(c.maxBytes, requestSize(req))
		if tok > window {
			c.overWindow = append(c.overWindow, i)
		}
		if strings.HasSuffix(req.Agent, "/"+compactorAgent) {
			c.compactor++
			continue
		}
		c.main++
		for _, v := range projection.Violations(req.Messages) {
			c.violations = append(c.violations, fmt.Sprintf("request %d: %s", i, v))
		}
		if p := ctxPrefix(req); prefix == "" {
			prefix = p
		} else if p != prefix {
			c.prefixDiffers = append(c.prefixDiffers, i)
		}
		for k, m := range req.Messages {
			isBoundary := strings.Contains(m.Content, "[troupe compact boundary]")
			if isBoundary {
				if k != 0 || m.Role != llm.RoleUser || !strings.HasPrefix(m.Content, "[troupe compact boundary]") ||
					!strings.Contains(m.Content, "it is not a message from the user") || !strings.HasSuffix(m.Content, "[end of compact boundary]") {
					c.badBoundary = append(c.badBoundary, fmt.Sprintf("request %d message %d (%s): %.120q", i, k, m.Role, m.Content))
				}
				c.boundaryReqs++
				continue
			}
			if strings.Contains(m.Content, "The user asked to work through the generated files") {
				c.summaryAsUser = append(c.summaryAsUser, i)
			}
		}
	}
	return c
}

// A 60-turn session of large outputs in a 12 000-token window: it compacts, never sends a
// request over the window or with a call split from its result, shows the boundary as the
// harness's, keeps its stable prefix byte-identical, and finishes.
func TestContextStaysInsideASmallWindowOver60Turns(t *testing.T) {
	const window, turns = 12000, 60
	load := ctxLoad{SeqLines: 900, ReadLines: 60, GrepFiles: 4}
	script := ctxLongScript(turns, load, &llm.Script{Turns: []llm.ScriptTurn{{Text: ctxSummary}}})
	tn := startContextNode(t, script, func(root string) { ctxGenFiles(t, root, turns/4+1, 200) })
	fin := tn.runWindowed(t, "w60", window, turns+10, 60*time.Second)
	if fin.Status != messages.StatusDone || fin.Final != "finished" {
		t.Fatalf("finished: %+v", fin)
	}
	c := ctxCheckRequests(tn.provider.all(), window)
	compacted := ctxEvents[messages.ContextCompactedData](tn, "w60", messages.EventContextCompacted)
	t.Logf("%d main requests, %d compactor requests, largest %d tokens (%d bytes) of %d, %d compactions",
		c.main, c.compactor, c.maxTokens, c.maxBytes, window, len(compacted))
	if c.main != turns+1 {
		t.Errorf("%d main requests, want %d (one per turn)", c.main, turns+1)
	}
	t.Run("Window", func(t *testing.T) {
		if len(c.overWindow) > 0 {
			t.Errorf("requests over the %d-token window: %v (largest %d tokens)", window, c.overWindow, c.maxTokens)
		}
	})
	t.Run("Compacted", func(t *testing.T) {
		if len(compacted) == 0 || c.compactor != len(compacted) {
			t.Fatalf("%d compactions, %d compactor requests in %d turns of large outputs: want at least one, one request each",
				len(compacted), c.compactor, turns)
		}
		for _, d := range compacted {
			if d.Mechanical || d.Error != "" || d.Reason != "auto" || d.TokensAfter >= d.TokensBefore {
				t.Errorf("compaction %+v: want an auto compaction by the model's summary, with fewer tokens after", d)
			}
		}
	})
	t.Run("Pairing", func(t *testing.T) {
		if len(c.violations) > 0 {
			t.Errorf("pairing violations: %v", c.violations)
		}
	})
	t.Run("Boundary", func(t *testing.T) {
		if c.boundaryReqs == 0 || len(c.badBoundary) > 0 {
			t.Errorf("%d requests show a boundary; shown wrongly: %v", c.boundaryReqs, c.badBoundary)
		}
		if len(c.summaryAsUser) > 0 {
			t.Errorf("requests %v show the summary outside the marked boundary", c.summaryAsUser)
		}
	})
	t.Run("Prefix", func(t *testing.T) {
		if len(c.prefixDiffers) > 0 {
			t.Errorf("the stable prefix (system + tools) changed in requests %v", c.prefixDiffers)
		}
	})
}

// A turn whose output jumps the context past the hard limit is compacted mechanically before
// the call (no time to wait for a model summary), and the call then fits.
func TestContextHardBlockCompactsMechanicallyBeforeTheCall(t *testing.T) {
	const window = 16000
	var turns strings.Builder // five different commands: the same one five times is a loop
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&turns, `{"tool_calls": [{"name": "bash", "args": {"command": "seq %d %d"}}]},`, i, i+1199)
	}
	script := `{"turns": [` + turns.String() + `
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 1 6000"}}]},
		{"text": "finished"}],
		"agents": {"#compactor": {"turns": [{"text": "Summary: printed numbers."}]}}}`
	tn := startContextNode(t, script, nil)
	fin := tn.runWindowed(t, "block", window, 20, 30*time.Second)
	if fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	c := ctxCheckRequests(tn.provider.all(), int(float64(window)*hardLimit))
	if len(c.overWindow) > 0 || len(c.violations) > 0 {
		t.Errorf("requests past the hard limit: %v (largest %d tokens); violations %v", c.overWindow, c.maxTokens, c.violations)
	}
	compacted := ctxEvents[messages.ContextCompactedData](tn, "block", messages.EventContextCompacted)
	if len(compacted) == 0 || compacted[0].Reason != "block" || !compacted[0].Mechanical || compacted[0].Error != "" {
		t.Fatalf("compactions %+v: want first a mechanical one for the block", compacted)
	}
	if c.compactor != 0 {
		t.Errorf("%d compactor requests: a block compacts without the model", c.compactor)
	}
}

// A turn too large for the window even after compaction fails the session with a clear error
// instead of sending a request that cannot fit.
func TestContextLatestTurnTooLargeForTheWindowFailsClearly(t *testing.T) {
	const window = 9000
	script := `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 1 300"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 1 6000"}}]},
		{"text": "finished"}]}`
	tn := startContextNode(t, script, nil)
	fin := tn.runWindowed(t, "huge", window, 20, 30*time.Second)
	if fin.Status != messages.StatusFailed || fin.Kind != messages.FailConfig || !strings.Contains(fin.Error, "does not fit") {
		t.Fatalf("finished: %+v, want a config failure saying the turn does not fit", fin)
	}
	if c := ctxCheckRequests(tn.provider.all(), window); len(c.overWindow) > 0 {
		t.Errorf("requests over the window: %v (largest %d tokens)", c.overWindow, c.maxTokens)
	}
}

// A summary the model got wrong, or a compactor whose calls fail, leaves a mechanical boundary:
// context.compacted says mechanical=true and why, an error event says the session goes on, and
// it does.
func TestCompactorFailuresFallBackToAMechanicalSummary(t *testing.T) {
	cases := []struct {
		name      string
		compactor *llm.Script // nil: the script has no #compactor agent
		wantErr   string      // in context.compacted's error
	}{
		{"EmptyReply", &llm.Script{Turns: []llm.ScriptTurn{{Text: " \n\n "}}}, "empty"},
		{"HeadingsOnly", &llm.Script{Turns: []llm.ScriptTurn{{Text: "Summary:\nFiles touched:\nnone"}}}, "empty"},
		{"TooLong", &llm.Script{Turns: []llm.ScriptTurn{{Text: "Summary: " + strings.Repeat("the numbers were printed again. ", 300)}}}, "over its token budget"},
		{"ProviderFails", &llm.Script{Turns: []llm.ScriptTurn{{Text: ctxSummary,
			Fail: []llm.ScriptFailure{{Status: 500}, {Status: 500}, {Status: 500}, {Status: 500}, {Status: 500}, {Status: 500}, {Status: 500}, {Status: 500}}}}}, "scripted failure"},
		{"UnknownAgent", nil, "no agents entry"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			const window, turns = 12000, 16
			tn := startContextNode(t, ctxLongScript(turns, ctxLoad{SeqLines: 900, ReadLines: 60, GrepFiles: 4}, tc.compactor),
				func(root string) { ctxGenFiles(t, root, turns/4+1, 200) })
			fin := tn.runWindowed(t, "f", window, turns+10, 30*time.Second)
			if fin.Status != messages.StatusDone || fin.Final != "finished" {
				t.Fatalf("finished: %+v", fin)
			}
			compacted := ctxEvents[messages.ContextCompactedData](tn, "f", messages.EventContextCompacted)
			if len(compacted) == 0 {
				t.Fatal("no compaction")
			}
			for _, d := range compacted {
				if !d.Mechanical || !strings.Contains(d.Error, tc.wantErr) || d.TokensAfter >= d.TokensBefore {
					t.Errorf("compaction %+v: want mechanical, error containing %q, fewer tokens after", d, tc.wantErr)
				}
			}
			var said int
			for _, e := range ctxEvents[messages.ErrorData](tn, "f", messages.EventError) {
				if strings.Contains(e.Message, "compaction") && strings.Contains(e.Message, "mechanical summary") && !e.Fatal {
					said++
				}
			}
			if said != len(compacted) {
				t.Errorf("%d error events about the compaction for %d mechanical compactions", said, len(compacted))
			}
			c := ctxCheckRequests(tn.provider.all(), window)
			if len(c.overWindow) > 0 || len(c.violations) > 0 || len(c.badBoundary) > 0 || c.boundaryReqs == 0 {
				t.Errorf("over the window %v, violations %v, boundaries %d shown wrongly %v", c.overWindow, c.violations, c.boundaryReqs, c.badBoundary)
			}
			for _, req := range tn.requestsOf("root") {
				if m := req.Messages[0]; strings.HasPrefix(m.Content, "[troupe compact boundary]") && !strings.Contains(m.Content, "without a model") {
					t.Fatalf("a mechanical boundary does not say it was built without a model: %.300q", m.Content)
				}
			}
		})
	}
}

// A provider's "context too long" compacts and retries the call once: the session goes on. A
// second overflow of the same call fails the session rather than looping.
func TestOverflowCompactsAndRetriesOnce(t *testing.T) {
	const window, turns, at = 32768, 10, 6
	load := ctxLoad{SeqLines: 2000, ReadLines: 100, GrepFiles: 4}
	overflow := llm.ScriptFailure{Status: 400, ContextTooBig: true, Message: "prompt is too long"}
	for _, tc := range []struct {
		name      string
		failures  int
		wantState messages.SessionStatus
	}{{"Once", 1, messages.StatusDone}, {"Twice", 2, messages.StatusFailed}} {
		t.Run(tc.name, func(t *testing.T) {
			var s llm.Script
			if err := json.Unmarshal([]byte(ctxLongScript(turns, load, &llm.Script{Turns: []llm.ScriptTurn{{Text: ctxSummary}}})), &s); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < tc.failures; i++ {
				s.Turns[at].Fail = append(s.Turns[at].Fail, overflow)
			}
			tn := startContextNode(t, string(ctxJSON(s)), func(root string) { ctxGenFiles(t, root, turns/4+1, 200) })
			fin := tn.runWindowed(t, "o", window, turns+10, 30*time.Second)
			if fin.Status != tc.wantState {
				t.Fatalf("finished: %+v, want %s", fin, tc.wantState)
			}
			compacted := ctxEvents[messages.ContextCompactedData](tn, "o", messages.EventContextCompacted)
			if len(compacted) != 1 || compacted[0].Reason != "overflow" || compacted[0].Mechanical || compacted[0].Turn != at+1 {
				t.Fatalf("compactions %+v: want one overflow compaction by the model at turn %d", compacted, at+1)
			}
			main := tn.requestsOf("root")
			if want := turns + 1 + tc.failures; tc.failures == 1 && len(main) != want {
				t.Errorf("%d main requests, want %d: every turn once, the overflowing one again", len(main), want)
			}
			if tc.failures == 2 {
				if len(main) != at+2 || !strings.Contains(fin.Error, "too long") {
					t.Errorf("%d main requests (want %d: the call and one retry), error %q", len(main), at+2, fin.Error)
				}
				return
			}
			retry := main[at+1]
			if !strings.HasPrefix(retry.Messages[0].Content, "[troupe compact boundary]") || len(retry.Messages) >= len(main[at].Messages) {
				t.Errorf("the retried call is not the compacted context: %d messages (before %d), first %.80q",
					len(retry.Messages), len(main[at].Messages), retry.Messages[0].Content)
			}
			if v := projection.Violations(retry.Messages); len(v) > 0 {
				t.Errorf("the retried call: %v", v)
			}
		})
	}
}

// A window the stable prefix alone fills fails the session at start, with a config error that
// says what to do, before any model call.
func TestWindowSmallerThanTheStablePrefixFailsAtStart(t *testing.T) {
	tn := startContextNode(t, `{"turns": [{"text": "never"}]}`, nil)
	// StartSession answers with the same reason (TestWindowTooSmallStartIsAnsweredPromptly);
	// this test checks the session's events say it.
	go tn.client.StartSession(&messages.StartSession{ID: "tiny", Task: "hi", Model: "scripted", Mode: "yolo", Workspace: tn.Root, ContextWindow: 1000})
	fin := tn.ctxWaitFinished(t, "tiny", 5*time.Second)
	if fin.Status != messages.StatusFailed || fin.Kind != messages.FailConfig ||
		!strings.Contains(fin.Error, "too small for the stable prefix") || !strings.Contains(fin.Error, "--context-window") {
		t.Fatalf("finished: %+v, want a config failure naming the stable prefix and --context-window", fin)
	}
	if n := len(tn.provider.all()); n != 0 {
		t.Errorf("%d model requests", n)
	}
}

// A session that fails while starting (here: its window is too small) answers the start
// request at once with its reason: the supervisor hears of the failure from the session (it no
// longer waits for a readiness answer the stopped session would never give, which took 10 s).
func TestWindowTooSmallStartIsAnsweredPromptly(t *testing.T) {
	tn := startContextNode(t, `{"turns": [{"text": "never"}]}`, nil)
	begin := time.Now()
	err := tn.client.StartSession(&messages.StartSession{ID: "tiny", Task: "hi", Model: "scripted", Mode: "yolo", Workspace: tn.Root, ContextWindow: 1000})
	took := time.Since(begin)
	if err == nil || !strings.Contains(err.Error(), "too small for the stable prefix") {
		t.Fatalf("StartSession: %v; want the session's own reason (a window too small for the stable prefix)", err)
	}
	if took > testwait.Scale(3*time.Second) {
		t.Fatalf("StartSession answered after %v; want an answer within %v", took.Round(time.Millisecond), testwait.Scale(3*time.Second))
	}
}

// /compact in an interactive session compacts between turns through the compactor, with no
// call to the main model; /status then counts it, and the next turn sees the boundary.
func TestCompactCommandCompactsWithoutAMainModelCall(t *testing.T) {
	tn := startContextNode(t, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 1 1000"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 5 1005"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 9 1009"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 13 1013"}}]},
		{"text": "ready"},
		{"expect": "go on", "text": "went on"}],
		"agents": {"#compactor": {"turns": [{"text": "Summary: printed four ranges of numbers."}]}}}`, nil)
	const id = "i"
	if err := tn.client.StartSession(&messages.StartSession{ID: id, Task: "print numbers", Model: "scripted", Mode: "yolo",
		Workspace: tn.Root, Interactive: true, ContextWindow: 12000}); err != nil {
		t.Fatal(err)
	}
	tn.waitFinals(t, id, 1)
	before := len(tn.requestsOf("root"))
	ack, err := tn.client.Input(id, "/compact keep the ranges")
	if err != nil || ack.Routed != messages.RoutedCommand || !strings.Contains(ack.Output, "compaction 1") {
		t.Fatalf("/compact: %+v, %v", ack, err)
	}
	var compacted []messages.ContextCompactedData
	checkFor(t, 30*time.Second, func() error {
		if compacted = ctxEvents[messages.ContextCompactedData](tn, id, messages.EventContextCompacted); len(compacted) == 0 {
			return fmt.Errorf("no context.compacted")
		}
		return nil
	})
	if d := compacted[0]; d.Reason != "manual" || d.Mechanical || d.TokensAfter >= d.TokensBefore {
		t.Errorf("compaction %+v: want a manual one by the model, with fewer tokens after", d)
	}
	if after := len(tn.requestsOf("root")); after != before {
		t.Errorf("/compact made %d calls to the main model", after-before)
	}
	creqs := tn.requestsOf("root/" + compactorAgent)
	if len(creqs) != 1 || !strings.Contains(creqs[0].Messages[0].Content, "Focus on: keep the ranges") {
		t.Fatalf("%d compactor requests; want one carrying the focus", len(creqs))
	}
	checkFor(t, 10*time.Second, func() error {
		ack, err := tn.client.Input(id, "/status")
		if err != nil {
			return err
		}
		if !strings.Contains(ack.Output, "compactions 1") || !strings.Contains(ack.Output, "phase       idle") {
			return fmt.Errorf("/status: %s", ack.Output)
		}
		return nil
	})
	if ack, err := tn.client.Input(id, "go on"); err != nil || ack.Routed != messages.RoutedModel {
		t.Fatalf("go on: %+v, %v", ack, err)
	}
	tn.waitFinals(t, id, 2)
	main := tn.requestsOf("root")
	last := main[len(main)-1]
	if !strings.HasPrefix(last.Messages[0].Content, "[troupe compact boundary]") || !strings.Contains(last.Messages[0].Content, "printed four ranges") {
		t.Errorf("the turn after /compact does not open with the boundary: %.200q", last.Messages[0].Content)
	}
	if v := projection.Violations(last.Messages); len(v) > 0 {
		t.Errorf("violations after /compact: %v", v)
	}
	if err := tn.client.Cancel(id, "done"); err != nil {
		t.Fatal(err)
	}
}
