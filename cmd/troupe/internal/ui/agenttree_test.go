package ui

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// t0 is the clock of the test envelopes.
var t0 = time.Date(2025, 3, 1, 12, 1, 0, 0, time.UTC)

// evs builds envelope sequences with per-session gap-free seq, as sessions emit them.
type evs struct {
	seq  map[string]uint64
	list []messages.Envelope
}

func newEvs() *evs { return &evs{seq: map[string]uint64{}} }

// at adds one envelope sec seconds after t0. who is "session" or "session agent parent".
func (e *evs) at(sec float64, who string, typ messages.EventType, data any) *evs {
	f := strings.Fields(who)
	for len(f) < 3 {
		f = append(f, "")
	}
	raw, err := json.Marshal(data)
	if err != nil {
		panic(err)
	}
	e.seq[f[0]]++
	e.list = append(e.list, messages.Envelope{V: 1, Seq: e.seq[f[0]], TS: t0.Add(time.Duration(sec * float64(time.Second))),
		NS: "ns", Session: f[0], Agent: f[1], Parent: f[2], Type: typ, Data: raw})
	return e
}

func (e *evs) tree() *agentTree {
	t := newAgentTree()
	for i := range e.list {
		t.apply(&e.list[i])
	}
	return t
}

// states is the tree in display order: "depth handle role state turns tokens".
func states(t *agentTree, focus string) []string {
	var out []string
	for _, r := range t.rows(focus) {
		out = append(out, strings.Repeat("  ", len(r.last))+r.Handle+" "+orDash(r.Role)+" "+r.State())
	}
	return out
}

const (
	rootS  = "20250301-120100-aaaaaa root"
	childS = "20250301-120105-bbbbbb root/verify_retries 20250301-120100-aaaaaa"
	grandS = "20250301-120107-cccccc root/verify_retries/lint 20250301-120105-bbbbbb"
)

func started(role, task string) *messages.SessionStartedData {
	return &messages.SessionStartedData{Model: "scripted", Mode: "yolo", Role: role, Task: task}
}

func tool(id, summary string) *messages.ToolCallData {
	return &messages.ToolCallData{Turn: 1, CallID: id, Tool: strings.Fields(summary)[0], Summary: summary}
}

func TestAgentTreeStates(t *testing.T) {
	cases := []struct {
		name  string
		evs   *evs
		focus string
		want  []string
	}{
		{"started", newEvs().at(0, rootS, messages.EventSessionStarted, started("", "fix it")),
			"", []string{"root - started"}},
		{"thinking", newEvs().at(0, rootS, messages.EventSessionStarted, started("", "x")).
			at(1, rootS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1}),
			"", []string{"root - thinking"}},
		{"tool runs then the turn goes on", newEvs().
			at(1, rootS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1}).
			at(2, rootS, messages.EventToolProposed, tool("c1", "bash go test ./...")).
			at(2, rootS, messages.EventToolStarted, tool("c1", "bash go test ./...")),
			"", []string{"root - tool bash go test ./..."}},
		{"tool finished: working until the next turn", newEvs().
			at(1, rootS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1}).
			at(2, rootS, messages.EventToolProposed, tool("c1", "read_file a")).
			at(2, rootS, messages.EventToolStarted, tool("c1", "read_file a")).
			at(3, rootS, messages.EventToolFinished, &messages.ToolFinishedData{CallID: "c1"}),
			"", []string{"root - working"}},
		{"parallel tools: the last started shows", newEvs().
			at(2, rootS, messages.EventToolStarted, tool("c1", "read_file a")).
			at(2, rootS, messages.EventToolStarted, tool("c2", "read_file b")).
			at(3, rootS, messages.EventToolFinished, &messages.ToolFinishedData{CallID: "c2"}),
			"", []string{"root - tool read_file a"}},
		{"approval until decided", newEvs().
			at(2, rootS, messages.EventToolProposed, tool("c1", "bash rm x")).
			at(2, rootS, messages.EventToolApproval, &messages.ApprovalRequestedData{CallID: "c1", Summary: messages.ApprovalSummary{Tool: "bash", Command: "rm x"}}),
			"", []string{"root - waiting for approval"}},
		{"approval decided", newEvs().
			at(2, rootS, messages.EventToolApproval, &messages.ApprovalRequestedData{CallID: "c1"}).
			at(3, rootS, messages.EventToolDecision, &messages.DecisionData{CallID: "c1", Decision: messages.DecisionAllowed}).
			at(3, rootS, messages.EventToolStarted, tool("c1", "bash rm x")),
			"", []string{"root - tool bash rm x"}},
		{"retry then text", newEvs().
			at(1, rootS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1}).
			at(2, rootS, messages.EventModelRetry, &messages.ModelRetryData{Attempt: 1}),
			"", []string{"root - retrying"}},
		{"interactive turn ends idle", newEvs().
			at(1, rootS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1}).
			at(2, rootS, messages.EventTurnFinished, &messages.TurnFinishedData{Turn: 1, Stop: "end"}),
			"", []string{"root - idle"}},
		{"done", newEvs().
			at(1, rootS, messages.EventSessionFinished, &messages.SessionFinishedData{Status: "done", Final: "ok", Turns: 2}),
			"", []string{"root - done"}},
		{"budget", newEvs().
			at(1, rootS, messages.EventSessionFinished, &messages.SessionFinishedData{Status: "failed", Kind: "budget"}),
			"", []string{"root - budget-exhausted"}},
		{"interrupted", newEvs().
			at(1, rootS, messages.EventSessionFinished, &messages.SessionFinishedData{Status: "interrupted"}),
			"", []string{"root - interrupted"}},
		{"spawned queued", newEvs().
			at(0, rootS, messages.EventSessionStarted, started("", "x")).
			at(4, rootS, messages.EventAgentSpawned, &messages.AgentSpawnedData{Handle: "root/verify_retries",
				Session: "20250301-120105-bbbbbb", Role: "verifier", State: messages.AgentQueued}),
			"", []string{"root - started", "  root/verify_retries verifier queued"}},
		{"a parent between turns waits for its running children", newEvs().
			at(0, rootS, messages.EventSessionStarted, started("", "x")).
			at(1, rootS, messages.EventToolProposed, tool("c1", "spawn_agent verify_retries")).
			at(2, rootS, messages.EventAgentSpawned, &messages.AgentSpawnedData{Handle: "root/verify_retries",
				Session: "20250301-120105-bbbbbb", Role: "verifier", State: messages.AgentRunning}).
			at(3, rootS, messages.EventTurnFinished, &messages.TurnFinishedData{Turn: 1, Stop: "tool_calls"}),
			"", []string{"root - waiting for agents", "  root/verify_retries verifier started"}},
		{"a parent whose children ended is no longer waiting", newEvs().
			at(1, rootS, messages.EventToolProposed, tool("c1", "spawn_agent verify_retries")).
			at(2, rootS, messages.EventAgentSpawned, &messages.AgentSpawnedData{Handle: "root/verify_retries",
				Session: "20250301-120105-bbbbbb", Role: "verifier", State: messages.AgentRunning}).
			at(4, rootS, messages.EventAgentFinished, &messages.AgentResult{Session: "20250301-120105-bbbbbb", Status: messages.AgentDone}),
			"", []string{"root - working", "  root/verify_retries verifier done"}},
		{"a subagent's task is its brief's task", newEvs().
			at(5, childS, messages.EventSessionStarted, started("verifier",
				"[troupe] You are subagent root/verify_retries (role verifier), started by root. Be brief.\n\nTask:\nrun the tests")),
			"", []string{"root/verify_retries verifier started"}},
		{"child linked by its parent id, role from session.started", newEvs().
			at(0, rootS, messages.EventSessionStarted, started("", "x")).
			at(5, childS, messages.EventSessionStarted, started("verifier", "verify")).
			at(6, childS, messages.EventToolStarted, tool("c1", "bash go test ./...")),
			"", []string{"root - started", "  root/verify_retries verifier tool bash go test ./..."}},
		{"child linked by handle when the parent id is missing", newEvs().
			at(0, rootS, messages.EventSessionStarted, started("", "x")).
			at(5, "20250301-120105-bbbbbb root/explore", messages.EventSessionStarted, started("explorer", "look")),
			"", []string{"root - started", "  root/explore explorer started"}},
		{"the parent's outcome for a child stands over the child's own", newEvs().
			at(5, childS, messages.EventSessionStarted, started("verifier", "verify")).
			at(6, childS, messages.EventSessionFinished, &messages.SessionFinishedData{Status: "interrupted"}).
			at(6, rootS, messages.EventAgentFinished, &messages.AgentResult{Handle: "root/verify_retries",
				Session: "20250301-120105-bbbbbb", Status: messages.AgentCancelled}),
			"", []string{"root - started", "  root/verify_retries verifier cancelled"}},
		{"agent.finished before the child's session.finished", newEvs().
			at(5, childS, messages.EventSessionStarted, started("verifier", "verify")).
			at(6, rootS, messages.EventAgentFinished, &messages.AgentResult{Session: "20250301-120105-bbbbbb", Status: messages.AgentBudget}).
			at(6, childS, messages.EventSessionFinished, &messages.SessionFinishedData{Status: "failed"}),
			"", []string{"root - started", "  root/verify_retries verifier budget-exhausted"}},
		{"resume starts over", newEvs().
			at(1, rootS, messages.EventSessionFinished, &messages.SessionFinishedData{Status: "interrupted"}).
			at(9, rootS, messages.EventSessionStarted, &messages.SessionStartedData{Resumed: true}).
			at(9, rootS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1}),
			"", []string{"root - thinking"}},
		{"focus: a session and its descendants only", newEvs().
			at(0, rootS, messages.EventSessionStarted, started("", "x")).
			at(0, "20250301-120100-dddddd root", messages.EventSessionStarted, started("", "other")).
			at(5, childS, messages.EventSessionStarted, started("verifier", "v")).
			at(7, grandS, messages.EventSessionStarted, started("worker", "lint")),
			"20250301-120105-bbbbbb", []string{"root/verify_retries verifier started", "  root/verify_retries/lint worker started"}},
		{"focus: the children of a parent quiet since watch joined", newEvs().
			at(5, childS, messages.EventSessionStarted, started("verifier", "v")).
			at(7, grandS, messages.EventSessionStarted, started("worker", "lint")),
			"20250301-120100-aaaaaa", []string{"root/verify_retries verifier started", "  root/verify_retries/lint worker started"}},
		{"focus by short id", newEvs().
			at(0, rootS, messages.EventSessionStarted, started("", "x")).
			at(0, "20250301-120100-dddddd root", messages.EventSessionStarted, started("", "other")),
			"dddddd", []string{"root - started"}},
		{"unknown event types are ignored", newEvs().
			at(0, rootS, messages.EventSessionStarted, started("", "x")).
			at(1, rootS, messages.EventType("future.thing"), map[string]int{"x": 1}),
			"", []string{"root - started"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := states(c.evs.tree(), c.focus)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestAgentTreeCounters(t *testing.T) {
	tr := newEvs().
		at(0, rootS, messages.EventSessionStarted, started("", "x")).
		at(1, rootS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1}).
		at(2, rootS, messages.EventUsage, &messages.UsageData{TotalInputTokens: 1000, TotalOutputTokens: 200}).
		at(3, rootS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 2}).
		at(4, rootS, messages.EventUsage, &messages.UsageData{TotalInputTokens: 2500, TotalOutputTokens: 400}).
		at(42, rootS, messages.EventSessionFinished, &messages.SessionFinishedData{Status: "done", Turns: 2}).tree()
	a := tr.agents["20250301-120100-aaaaaa"]
	if a.Turns != 2 || a.Tokens() != 2900 || a.Elapsed(t0.Add(time.Hour)) != 42*time.Second {
		t.Errorf("turns %d tokens %d elapsed %v", a.Turns, a.Tokens(), a.Elapsed(t0.Add(time.Hour)))
	}
	if a.Running() {
		t.Error("a finished agent runs")
	}
	c := newEvs().at(5, childS, messages.EventSessionStarted, started("verifier",
		"[troupe] You are subagent root/verify_retries (role verifier), started by root.\n\nTask:\nrun the tests")).tree()
	if task := c.agents["20250301-120105-bbbbbb"].Task; task != "run the tests" {
		t.Errorf("task %q", task)
	}
}

func TestAgentTreeForgetsOldFinishedTrees(t *testing.T) {
	e := newEvs()
	for i := range 10 {
		s := "s" + string(rune('a'+i))
		e.at(float64(i), s, messages.EventSessionStarted, started("", "x"))
		if i < 8 {
			e.at(float64(i), s, messages.EventSessionFinished, &messages.SessionFinishedData{Status: "done"})
		}
	}
	tr := e.tree()
	tr.forget(4)
	if len(tr.agents) > 4 || tr.agents["si"] == nil || tr.agents["sj"] == nil {
		t.Errorf("kept %v", states(tr, ""))
	}
}

// scenario is a root session with a tree of subagents in every state, for the golden views.
func scenario() *evs {
	const (
		explore = "20250301-120104-eeeeee root/explore 20250301-120100-aaaaaa"
		fixer   = "20250301-120109-ffffff root/fix_parser 20250301-120100-aaaaaa"
	)
	return newEvs().
		at(0, rootS, messages.EventSessionStarted, started("", "Make the flaky test in ./parser pass reliably")).
		at(1, rootS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1}).
		at(3, rootS, messages.EventUsage, &messages.UsageData{TotalInputTokens: 9000, TotalOutputTokens: 1400}).
		at(3, rootS, messages.EventToolProposed, tool("call_1_0", "spawn_agent explore")).
		at(3, rootS, messages.EventToolStarted, tool("call_1_0", "spawn_agent explore")).
		at(4, rootS, messages.EventAgentSpawned, &messages.AgentSpawnedData{Handle: "root/explore", Session: "20250301-120104-eeeeee",
			Role: "explorer", State: "running", Task: "find where the parser test races"}).
		at(4, explore, messages.EventSessionStarted, started("explorer", "find where the parser test races")).
		at(4, explore, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1}).
		at(4, rootS, messages.EventToolFinished, &messages.ToolFinishedData{CallID: "call_1_0"}).
		at(5, rootS, messages.EventAgentSpawned, &messages.AgentSpawnedData{Handle: "root/verify_retries", Session: "20250301-120105-bbbbbb",
			Role: "verifier", State: "running", Task: "run the parser tests 20 times"}).
		at(5, childS, messages.EventSessionStarted, started("verifier", "run the parser tests 20 times")).
		at(6, childS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1}).
		at(7, grandS, messages.EventSessionStarted, started("worker", "lint the parser package")).
		at(8, grandS, messages.EventSessionFinished, &messages.SessionFinishedData{Status: "failed", Kind: "budget",
			Error: "turn budget exhausted: 3 turns without a final answer", Turns: 3}).
		at(9, rootS, messages.EventAgentSpawned, &messages.AgentSpawnedData{Handle: "root/fix_parser", Session: "20250301-120109-ffffff",
			Role: "worker", State: messages.AgentQueued, Task: "fix the race in parser.go"}).
		at(10, explore, messages.EventUsage, &messages.UsageData{TotalInputTokens: 3000, TotalOutputTokens: 250}).
		at(11, explore, messages.EventSessionFinished, &messages.SessionFinishedData{Status: "done", Final: "the race is in parser.go:42", Turns: 2}).
		at(11, rootS, messages.EventAgentFinished, &messages.AgentResult{Handle: "root/explore", Session: "20250301-120104-eeeeee",
			Role: "explorer", Status: "done", Summary: "the race is in parser.go:42", Usage: messages.AgentUsage{Turns: 2, InputTokens: 3000, OutputTokens: 250}}).
		at(12, childS, messages.EventToolStarted, tool("call_1_0", "bash go test -count=20 ./parser")).
		at(12, childS, messages.EventUsage, &messages.UsageData{TotalInputTokens: 4100, TotalOutputTokens: 300}).
		at(13, rootS, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 2}).
		at(14, rootS, messages.EventToolProposed, tool("call_2_0", "bash git stash")).
		at(14, rootS, messages.EventToolApproval, &messages.ApprovalRequestedData{Turn: 2, CallID: "call_2_0",
			Summary: messages.ApprovalSummary{Tool: "bash", Operation: "run", Command: "git stash"}}).
		at(15, fixer, messages.EventSessionStarted, started("worker", "fix the race in parser.go")).
		at(16, fixer, messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1})
}

func TestAgentTreeFrameGolden(t *testing.T) {
	cases := []struct {
		name          string
		upTo          int // envelopes of the scenario applied; 0 for all
		focus         string
		width, height int
	}{
		{"tree", 0, "", 160, 40},
		{"tree_narrow", 0, "", 72, 40},
		{"tree_short", 0, "", 160, 8},
		{"tree_focus", 0, "20250301-120105-bbbbbb", 160, 40},
		{"tree_early", 6, "", 160, 40},
		{"tree_empty", -1, "", 160, 40},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := scenario()
			switch {
			case c.upTo < 0:
				e.list = nil
			case c.upTo > 0:
				e.list = e.list[:c.upTo]
			}
			lines := renderFrame(e.tree(), c.focus, frameHeader{status: "node n4242 (pid 4242)", rate: 17}, t0.Add(20*time.Second), c.width, c.height)
			if len(lines) > c.height-1 {
				t.Errorf("%d lines do not fit in %d", len(lines), c.height)
			}
			for _, l := range lines {
				if n := len([]rune(l)); n > c.width {
					t.Errorf("line of %d runes wider than %d: %q", n, c.width, l)
				}
			}
			golden(t, "watch_"+c.name+".golden", strings.Join(lines, "\n")+"\n")
		})
	}
}

// The lines view prints one line per state change, through the watcher as watch runs it.
func TestAgentTreeLinesGolden(t *testing.T) {
	for _, focus := range []string{"", "20250301-120105-bbbbbb"} {
		var out bytes.Buffer
		w := NewWatcher(&out, focus, false, "dumb")
		w.loc = time.UTC
		for _, env := range scenario().at(30, rootS, messages.EventSessionFinished, &messages.SessionFinishedData{
			Status: "interrupted", Error: "the troupe node stopped", Turns: 2}).list {
			data, _ := json.Marshal(env)
			w.Event(data)
		}
		if strings.Contains(out.String(), "\x1b") {
			t.Errorf("ANSI codes in piped output:\n%q", out.String())
		}
		name := "watch_lines.golden"
		if focus != "" {
			name = "watch_lines_focus.golden"
		}
		golden(t, name, out.String())
	}
}

// The JSON view prints the envelopes verbatim; with a session, that session's and its
// descendants' only.
func TestWatchJSONFiltersByTree(t *testing.T) {
	var out bytes.Buffer
	w := NewWatcher(&out, "20250301-120105-bbbbbb", true, "")
	var want int
	for _, env := range scenario().list {
		data, _ := json.Marshal(env)
		w.Event(data)
		if env.Session == "20250301-120105-bbbbbb" || env.Session == "20250301-120107-cccccc" {
			want++
		}
	}
	got := strings.Count(out.String(), "\n")
	if got != want || strings.Contains(out.String(), "aaaaaa") && !strings.Contains(out.String(), `"parent":"20250301-120100-aaaaaa"`) {
		t.Errorf("printed %d envelopes, want %d:\n%s", got, want, out.String())
	}
}

func TestWatchEventRate(t *testing.T) {
	var r eventRate
	for i := range 5 {
		r.add(t0.Add(time.Duration(i) * 100 * time.Millisecond))
	}
	if got := r.perSecond(t0.Add(1500 * time.Millisecond)); got != 5 {
		t.Errorf("rate %d, want 5", got)
	}
	if got := r.perSecond(t0.Add(5 * time.Second)); got != 0 {
		t.Errorf("rate after a quiet spell %d, want 0", got)
	}
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs (go test -run %s -update rewrites it)\ngot:\n%s\nwant:\n%s", path, t.Name(), got, want)
	}
}

// A subagent on a worker shows queued until a worker takes it, then under its parent with the
// worker's name, its own events (published by the worker's node) joining the same row.
func TestAgentTreeShowsTheWorker(t *testing.T) {
	e := newEvs().
		at(0, "p1", messages.EventSessionStarted, &messages.SessionStartedData{Model: "m"}).
		at(1, "p1", messages.EventAgentSpawned, &messages.AgentSpawnedData{Handle: "root/far", Session: "p1-far", Role: "worker", State: messages.AgentQueued, Task: "build"}).
		at(1.5, "p1", messages.EventAgentSpawned, &messages.AgentSpawnedData{Handle: "root/near", Session: "p1-near", Role: "explorer", State: messages.AgentRunning, Task: "look"})
	tr := e.tree()
	if got := states(tr, ""); strings.Join(got, "|") != "root - started|  root/far worker queued|  root/near explorer started" {
		t.Fatalf("before a worker took it: %q", got)
	}
	e.at(2, "p1", messages.EventAgentSpawned, &messages.AgentSpawnedData{Handle: "root/far", Session: "p1-far", Role: "worker", State: messages.AgentRunning, Worker: "w1"}).
		at(3, "p1-far root/far p1", messages.EventTurnStarted, &messages.TurnStartedData{Turn: 1})
	tr = e.tree()
	lines := tableLines(tr.rows(""), t0.Add(4*time.Second))
	if !strings.Contains(strings.Join(lines, "\n"), "root/far@w1") || strings.Contains(strings.Join(lines, "\n"), "root/near@") {
		t.Fatalf("frame:\n%s", strings.Join(lines, "\n"))
	}
	far := tr.agents["p1-far"]
	if far.State() != phaseThinking || far.Worker != "w1" {
		t.Errorf("far: %s on %q", far.State(), far.Worker)
	}
	e.at(5, "p1", messages.EventAgentFinished, &messages.AgentResult{Handle: "root/far", Session: "p1-far", Status: messages.AgentDone, Worker: "w1"})
	tr = e.tree()
	if l := agentLine(tr, tr.agents["p1-far"], t0.Add(5*time.Second), time.UTC); !strings.Contains(l, " root/far@w1 worker done") {
		t.Errorf("line = %q", l)
	}
}
