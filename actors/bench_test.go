package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/llm/llmtest"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// noopTool returns at once: turns that call it measure the harness, not a tool.
type noopTool struct{}

func (noopTool) Spec() tools.Spec {
	return tools.Spec{Name: "noop", Description: "does nothing", Schema: json.RawMessage(`{"type":"object"}`), Risk: tools.RiskRead}
}
func (noopTool) Run(context.Context, *tools.Env, json.RawMessage) tools.Result {
	return tools.Result{Output: "ok"}
}

// BenchmarkFirstRequest measures the bytes of the first model request (system prompt plus tool
// schemas plus a one-word task) as the OpenAI SDK sends it over HTTP.
func BenchmarkFirstRequest(b *testing.B) {
	srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply { return llmtest.Reply{Text: "ok"} })
	defer srv.Close()
	root := b.TempDir()
	node, err := StartNode(NodeOptions{Root: root, Provider: func(model, baseURL string, getenv func(string) string) (llm.Provider, string, error) {
		return llm.Open("openai/fake", llm.Options{BaseURL: srv.URL(), Getenv: func(string) string { return "sk-x" }})
	}, Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		b.Fatal(err)
	}
	defer node.Close()
	client, _ := node.Client()
	defer client.Close()
	done := make(chan struct{})
	client.Subscribe(messages.SessionEventsSubject(node.NS, "first"), func(e *messages.Envelope) {
		if e.Type == messages.EventSessionFinished {
			close(done)
		}
	})
	b.ResetTimer()
	if err := client.StartSession(&messages.StartSession{ID: "first", Task: "hi", Model: "openai/fake", Mode: "ask", Workspace: root}); err != nil {
		b.Fatal(err)
	}
	<-done
	reqs := srv.Requests()
	if len(reqs) == 0 {
		b.Fatal("no request")
	}
	specs, _ := json.Marshal(mustRegistry(b).Specs())
	b.ReportMetric(float64(len(reqs[0].Body)), "bytes/first-request")
	b.ReportMetric(float64(len(SystemPrompt(PromptParts{Root: root, Mode: "ask"}))), "bytes/system-prompt")
	b.ReportMetric(float64(len(specs)), "bytes/tool-schemas")
}

func mustRegistry(b *testing.B) *tools.Registry {
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		b.Fatal(err)
	}
	return reg
}

// BenchmarkTurnOverhead runs a 200-turn scripted session whose every turn calls a no-op tool:
// the time between turns is the harness's own (projection, bus hops, store commits, events).
// µs/turn-cpu is the process's CPU time (user and system, every goroutine: the Node, its bus
// and store, and this benchmark's recorder) over the run per turn, which the machine's load
// moves less than the wall-clock figures.
func BenchmarkTurnOverhead(b *testing.B) {
	const turns = 200
	var script strings.Builder
	script.WriteString(`{"turns": [`)
	for i := 0; i < turns; i++ {
		fmt.Fprintf(&script, `{"tool_calls": [{"name": "noop", "args": {"i": %d}}]},`, i)
	}
	script.WriteString(`{"text": "done"}]}`)
	for i := 0; i < b.N; i++ {
		tn := startBenchNode(b, script.String(), true)
		var before, after syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
		start := time.Now()
		tn.runBench(b, "turns")
		wall := time.Since(start)
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
		var starts []time.Time
		for _, e := range tn.sessionEvents("turns") {
			if e.Type == messages.EventTurnStarted {
				starts = append(starts, e.TS)
			}
		}
		var gaps []float64
		for j := 1; j < len(starts); j++ {
			gaps = append(gaps, float64(starts[j].Sub(starts[j-1]).Microseconds()))
		}
		sort.Float64s(gaps)
		b.ReportMetric(gaps[len(gaps)/2], "µs/turn-median")
		b.ReportMetric(float64(wall.Microseconds())/float64(len(starts)), "µs/turn-mean")
		cpu := after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano()
		b.ReportMetric(float64(cpu)/1e3/float64(len(starts)), "µs/turn-cpu")
		tn.close()
	}
}

// BenchmarkEventThroughput publishes events on the Node's bus and counts what one subscriber
// connected over TCP (as troupe watch is) receives. It is the only subscriber: the bench node's
// own recorder, which decodes every event, is left off (with it on, two watchers share the
// two cores).
func BenchmarkEventThroughput(b *testing.B) {
	const n = 200_000
	tn := startBenchNode(b, `{"turns": [{"text": "x"}]}`, false)
	defer tn.close()
	nc, err := Dial(tn.Info(), KindWatcher, BusCredentials{}, "bench-watch")
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	var got atomic.Int64
	last := make(chan time.Time, 1)
	sub, err := nc.Subscribe(messages.ProjectEventsSubject(tn.NS), func(m *nats.Msg) {
		if got.Add(1) == n {
			last <- time.Now()
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	sub.SetPendingLimits(-1, -1)
	nc.Flush()
	em := messages.NewEmitter(tn.NS, "bench", "root", "", 1, tn.bridge.Publish)
	text := strings.Repeat("x", 200)
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < n; i++ {
		em.Emit(messages.TextDeltaEvent.Of(&messages.DeltaData{Turn: 1, Text: text}))
	}
	select {
	case end := <-last:
		b.ReportMetric(float64(n)/end.Sub(start).Seconds(), "events/s")
	case <-time.After(testwait.Scale(60 * time.Second)):
		b.Fatalf("subscriber got %d of %d events", got.Load(), n)
	}
}

type benchNode struct{ *testNode }

// startBenchNode starts a Node on a scripted model; record subscribes a client that keeps
// every event of the project (sessionEvents reads them).
func startBenchNode(b *testing.B, script string, record bool) *benchNode {
	root := b.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644)
	s, err := llm.ParseScript("bench", []byte(script))
	if err != nil {
		b.Fatal(err)
	}
	tn := &testNode{provider: &recordingProvider{Provider: llm.NewScriptedFrom(s)}}
	node, err := StartNode(NodeOptions{Root: root,
		Provider: func(string, string, func(string) string) (llm.Provider, string, error) {
			return tn.provider, "scripted", nil
		},
		Tools: func() (*tools.Registry, error) {
			return tools.NewRegistry(append(tools.Builtins(), noopTool{})...)
		},
		Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		b.Fatal(err)
	}
	tn.Node = node
	if tn.client, err = node.Client(); err != nil {
		b.Fatal(err)
	}
	if record {
		tn.client.Subscribe(messages.ProjectEventsSubject(node.NS), func(e *messages.Envelope) {
			tn.mu.Lock()
			tn.events = append(tn.events, e)
			tn.mu.Unlock()
		})
	}
	return &benchNode{tn}
}

func (bn *benchNode) runBench(b *testing.B, id string) {
	if err := bn.client.StartSession(&messages.StartSession{ID: id, Task: "go", Model: "scripted", Mode: "yolo", Workspace: bn.Root, MaxTurns: 1000}); err != nil {
		b.Fatal(err)
	}
	deadline := time.Now().Add(testwait.Scale(2 * time.Minute))
	for time.Now().Before(deadline) {
		for _, e := range bn.sessionEvents(id) {
			if e.Type == messages.EventSessionFinished {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	b.Fatal("session did not finish")
}

func (bn *benchNode) close() {
	bn.client.Close()
	bn.Node.Close()
}
