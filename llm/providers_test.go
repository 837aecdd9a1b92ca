package llm

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm/llmtest"
)

// fakeServer is what the three llmtest servers share.
type fakeServer interface {
	URL() string
	Requests() []llmtest.Recorded
	Close()
}

// wire is one provider protocol: how to start its fake server and point its adapter at it.
type wire struct {
	name       string
	serve      func(llmtest.Responder) fakeServer
	open       func(url string) Provider
	lengthStop string // the protocol's "cut off by the output limit"
	retryAfter bool   // the SDK lets the adapter see response headers
}

var wires = []wire{
	{"anthropic", func(r llmtest.Responder) fakeServer { return llmtest.NewAnthropic(r) },
		func(url string) Provider { return NewAnthropic(AnthropicConfig{BaseURL: url, APIKey: "sk-ant-test"}) }, "max_tokens", true},
	{"gemini", func(r llmtest.Responder) fakeServer { return llmtest.NewGemini(r) },
		func(url string) Provider { return NewGemini(GeminiConfig{BaseURL: url, APIKey: "gm-test"}) }, "MAX_TOKENS", false},
}

func (w wire) against(t *testing.T, replies ...llmtest.Reply) (Provider, fakeServer) {
	t.Helper()
	srv := w.serve(func(n int, _ map[string]any) llmtest.Reply {
		if n < len(replies) {
			return replies[n]
		}
		return llmtest.Reply{Text: "extra"}
	})
	t.Cleanup(srv.Close)
	return w.open(srv.URL()), srv
}

func TestProvidersStreamTextReasoningCallsAndUsage(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			calls := []llmtest.Call{{Name: "read_file", Args: `{"path":"main.go","limit":20}`}, {Name: "glob", Args: `{"pattern":"**/*.go"}`}}
			p, _ := w.against(t, llmtest.Reply{Text: "Looking at the files now.", Reasoning: "need both files", Calls: calls,
				InputTokens: 120, OutputTokens: 30})
			r, evs, err := collect(t, p, simpleRequest())
			if err != nil {
				t.Fatal(err)
			}
			if r.Text != "Looking at the files now." || r.Reasoning != "need both files" || r.Stop != StopToolCalls {
				t.Fatalf("reply = %+v", r)
			}
			if len(r.ToolCalls) != 2 || r.ToolCalls[0].Name != "read_file" || r.ToolCalls[1].Name != "glob" ||
				!jsonEqual(r.ToolCalls[0].Args, calls[0].Args) || r.ToolCalls[0].ID == "" || r.ToolCalls[0].ID == r.ToolCalls[1].ID {
				t.Errorf("calls = %+v", r.ToolCalls)
			}
			if r.Usage.InputTokens != 120 || r.Usage.OutputTokens != 30 {
				t.Errorf("usage = %+v", r.Usage)
			}
			var text strings.Builder
			var deltas, callEvents int
			for _, e := range evs {
				switch e.Kind {
				case EventText:
					deltas++
					text.WriteString(e.Text)
				case EventToolCall:
					callEvents++
				}
			}
			if deltas < 2 || text.String() != r.Text || callEvents != 2 {
				t.Errorf("%d text deltas (%q), %d call events", deltas, text.String(), callEvents)
			}
		})
	}
}

func TestProvidersStopAtTheLengthLimit(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			p, _ := w.against(t, llmtest.Reply{Text: "cut", Stop: w.lengthStop})
			r, _, err := collect(t, p, simpleRequest())
			if err != nil || r.Stop != StopLength {
				t.Fatalf("reply %+v, err %v", r, err)
			}
		})
	}
}

func TestProvidersClassifyFailures(t *testing.T) {
	for _, w := range wires {
		for _, tc := range []struct {
			name  string
			reply llmtest.Reply
			class ErrorClass
		}{
			{"401", llmtest.Reply{Status: 401}, Fatal},
			{"429", llmtest.Reply{Status: 429, RetryAfter: "2"}, Retryable},
			{"500", llmtest.Reply{Status: 500}, Retryable},
			{"529", llmtest.Reply{Status: 529}, Retryable},
			{"overflow", llmtest.Reply{Status: 400, Text: "prompt is too long: 250000 tokens > 200000 maximum"}, Overflow},
			{"dropped", llmtest.Reply{Text: "a reply that is cut off early", DropAfter: 2}, Retryable},
		} {
			t.Run(w.name+"/"+tc.name, func(t *testing.T) {
				p, _ := w.against(t, tc.reply)
				_, _, err := collect(t, p, simpleRequest())
				var e *Error
				if !errors.As(err, &e) || e.Class != tc.class {
					t.Fatalf("err = %v, want class %s", err, tc.class)
				}
				if tc.name == "429" && w.retryAfter && e.RetryAfter != 2*time.Second {
					t.Errorf("RetryAfter = %v", e.RetryAfter)
				}
			})
		}
	}
}

func TestGoldenAnthropicAndGeminiRequests(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			p, srv := w.against(t, llmtest.Reply{Text: "ok"})
			if _, _, err := collect(t, p, goldenConversation()); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			checkGolden(t, w.name+"_request.golden.json", reqs[0].Body)
		})
	}
}

// Gemini wants a function call's thought signature back with it in the same session.
func TestGeminiEchoesThoughtSignatures(t *testing.T) {
	w := wires[1]
	p, srv := w.against(t, llmtest.Reply{Calls: []llmtest.Call{{Name: "glob", Args: `{"pattern":"*"}`}}}, llmtest.Reply{Text: "done"})
	r, _, err := collect(t, p, simpleRequest())
	if err != nil {
		t.Fatal(err)
	}
	req := simpleRequest()
	req.Messages = append(req.Messages,
		Message{Role: RoleAssistant, ToolCalls: r.ToolCalls, Model: req.Model},
		Message{Role: RoleTool, ToolCallID: r.ToolCalls[0].ID, ToolName: "glob", Content: "a.go"})
	if _, _, err := collect(t, p, req); err != nil {
		t.Fatal(err)
	}
	body := string(srv.Requests()[1].Body)
	if !strings.Contains(body, `"thoughtSignature":"c2lnLXRlc3Q="`) || !strings.Contains(body, `"functionResponse"`) {
		t.Errorf("second request lacks the signature or the response:\n%s", body)
	}
}

func jsonEqual(a, b string) bool {
	var va, vb any
	return json.Unmarshal([]byte(a), &va) == nil && json.Unmarshal([]byte(b), &vb) == nil && reflect.DeepEqual(va, vb)
}
