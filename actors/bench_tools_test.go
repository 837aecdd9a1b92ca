package actors

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// BenchmarkPromptSavings runs a scripted session that reads the same 5 files 10 times and runs a
// 200,000-line command, and reports the prompt bytes sent over the session against what they
// would have been with every read returning the whole text and the command's whole output.
func BenchmarkPromptSavings(b *testing.B) {
	var turns []string
	for round := 0; round < 10; round++ {
		var calls []string
		for f := 0; f < 5; f++ {
			calls = append(calls, fmt.Sprintf(`{"name": "read_file", "args": {"path": "f%d.go"}}`, f))
		}
		turns = append(turns, `{"tool_calls": [`+strings.Join(calls, ",")+`]}`)
	}
	turns = append(turns, `{"tool_calls": [{"name": "bash", "args": {"command": "seq 1 200000"}}]}`, `{"text": "done"}`)
	script := `{"turns": [` + strings.Join(turns, ",") + `]}`
	for i := 0; i < b.N; i++ {
		bn := startBenchNode(b, script, true)
		full := map[string]int{} // what a whole read of each file returns
		for f := 0; f < 5; f++ {
			var body strings.Builder
			for l := 0; l < 300; l++ {
				fmt.Fprintf(&body, "// line %d of file %d: some Go code here\n", l, f)
			}
			os.WriteFile(filepath.Join(bn.Root, fmt.Sprintf("f%d.go", f)), []byte(body.String()), 0o644)
		}
		bn.runBench(b, fmt.Sprintf("save%d", i))
		reqs := bn.provider.all()
		var actual, without int
		artifactRef := regexp.MustCompile(`sha256:[0-9a-f]{64}`)
		for _, req := range reqs {
			for _, m := range req.Messages {
				n := len(m.Content)
				actual += n
				switch {
				case m.ToolName == "read_file" && strings.Contains(m.Content, "unchanged since turn"):
					path := strings.Fields(m.Content)[0]
					without += full[path]
				case m.ToolName == "read_file":
					path := ""
					for p := range 5 {
						if strings.Contains(m.Content, fmt.Sprintf("of file %d:", p)) {
							path = fmt.Sprintf("f%d.go", p)
						}
					}
					full[path] = n
					without += n
				case m.ToolName == "bash" && artifactRef.MatchString(m.Content):
					data, err := bn.store.Artifact(artifactRef.FindString(m.Content))
					if err != nil {
						b.Fatal(err)
					}
					without += len(data)
				default:
					without += n
				}
			}
		}
		b.ReportMetric(float64(actual), "prompt-bytes")
		b.ReportMetric(float64(without), "prompt-bytes-without")
		b.ReportMetric(100*float64(without-actual)/float64(without), "%saved")
		bn.close()
	}
}

// BenchmarkApprovalLatency measures the time from a tool.approval_requested event reaching a
// bus client to the call's execution, after the client's answer went back over the bus.
func BenchmarkApprovalLatency(b *testing.B) {
	const n = 50
	var turns []string
	for i := 0; i < n; i++ {
		turns = append(turns, fmt.Sprintf(`{"tool_calls": [{"name": "write_file", "args": {"path": "f%d.txt", "content": "x"}}]}`, i))
	}
	script := `{"turns": [` + strings.Join(turns, ",") + `, {"text": "done"}]}`
	for it := 0; it < b.N; it++ {
		bn := startBenchNode(b, script, true)
		id := fmt.Sprintf("appr%d", it)
		asks := make(chan *messages.ApprovalRequestedData, n)
		done := make(chan time.Time, n)
		sub, err := bn.client.Subscribe(messages.SessionEventsSubject(bn.NS, id), func(e *messages.Envelope) {
			switch e.Type {
			case messages.EventToolApproval:
				v, _ := e.DecodeData()
				asks <- v.(*messages.ApprovalRequestedData)
			case messages.EventToolFinished:
				done <- time.Now()
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		if err := bn.client.StartSession(&messages.StartSession{ID: id, Task: "go", Model: "scripted", Mode: "ask",
			Workspace: bn.Root, Interactive: true, MaxTurns: 1000}); err != nil {
			b.Fatal(err)
		}
		var lat []time.Duration
		for i := 0; i < n; i++ {
			var ask *messages.ApprovalRequestedData
			select {
			case ask = <-asks:
			case <-time.After(testwait.Scale(30 * time.Second)):
				b.Fatalf("approval %d never requested", i)
			}
			start := time.Now()
			if err := bn.client.Approve(id, ask.CallID, messages.AnswerAllow, "bench"); err != nil {
				b.Fatal(err)
			}
			end := <-done
			lat = append(lat, end.Sub(start))
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		b.ReportMetric(float64(lat[n/2].Microseconds())/1000, "ms/approval-median")
		if _, err := os.Stat(filepath.Join(bn.Root, fmt.Sprintf("f%d.txt", n-1))); err != nil {
			b.Fatal("the last approved write did not happen")
		}
		sub.Unsubscribe()
		bn.close()
	}
}
