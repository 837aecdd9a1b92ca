package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm/llmtest"
)

func sseFixture(body string) llmtest.Fixture {
	return llmtest.Fixture{Status: 200, ContentType: "text/event-stream", Body: []byte(body)}
}

// chunkLine is one SSE event holding a chunk whose delta is delta (raw JSON).
func chunkLine(delta, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":` + delta +
		`,"finish_reason":` + f + "}]}\n\n"
}

// TestBadInputGivesABoundedClassifiedError: each broken answer ends the call with one line
// and a class, without a hang (the test's own deadline would fail it).
func TestBadInputGivesABoundedClassifiedError(t *testing.T) {
	hugeLine := llmtest.Fixture{Status: 200, ContentType: "text/event-stream", Write: func(w io.Writer, flush func()) {
		io.WriteString(w, "data: ")
		piece := strings.Repeat("x", 1<<20)
		for range 100 { // 100 MB on one line, unless the client hangs up first
			if _, err := io.WriteString(w, piece); err != nil {
				return
			}
			flush()
		}
	}}
	endlessReasoning := llmtest.Fixture{Status: 200, ContentType: "text/event-stream", Write: func(w io.Writer, flush func()) {
		piece := chunkLine(`{"reasoning_content":"`+strings.Repeat("hmm ", 16<<10)+`"}`, "")
		for {
			if _, err := io.WriteString(w, piece); err != nil {
				return
			}
			flush()
		}
	}}
	for _, tc := range []struct {
		name  string
		f     llmtest.Fixture
		class ErrorClass
		want  string
	}{
		{"a 100 MB line", hugeLine, Fatal, "a stream event passed the size limit"},
		{"reasoning without end", endlessReasoning, Fatal, "the reply passed the size limit without finishing"},
		{"an empty 200", sseFixture(""), Retryable, "the server answered 200 with an empty body"},
		{"an empty JSON 200", llmtest.Fixture{Status: 200, ContentType: "application/json"}, Retryable, "empty body"},
		{"a stream that stops unfinished", sseFixture(chunkLine(`{"content":"Let me"}`, "")), Retryable,
			"the stream ended before the reply was complete"},
		{"a stream cut inside a line", sseFixture(chunkLine(`{"content":"Let me"}`, "") + `data: {"choi`), Retryable,
			"the stream ended before the reply was complete"},
		{"a web page with 200", llmtest.Fixture{Status: 200, ContentType: "text/html; charset=utf-8",
			Body: []byte("<html><head><title>Open WebUI</title></head><body>app</body></html>")}, Fatal,
			`the server answered 200 with a web page, not a stream ("Open WebUI"): is the base URL the API's address (often ending in /v1)?`},
		{"an event that is not JSON", sseFixture("data: <html>oops</html>\n\n"), Retryable, "not a JSON chunk"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := replayingFixtures(t, tc.f)
			_, _, err := collect(t, p, simpleRequest())
			var e *Error
			if !errors.As(err, &e) || e.Class != tc.class || !strings.Contains(e.Error(), tc.want) {
				t.Fatalf("err = %v (class %v), want class %s mentioning %q", err, ClassOf(err), tc.class, tc.want)
			}
			if strings.Contains(e.Error(), "\n") || len(e.Error()) > 600 {
				t.Errorf("the error is not one short line: %q", e.Error())
			}
		})
	}
}

// TestOddBytesAreReadDeterministically: invalid UTF-8 is replaced and said; a duplicate key
// keeps its last value, as encoding/json does.
func TestOddBytesAreReadDeterministically(t *testing.T) {
	body := chunkLine("{\"content\":\"caf\xe9 \"}", "") +
		chunkLine(`{"content":"first","content":"second"}`, "") + chunkLine(`{}`, "stop") + "data: [DONE]\n\n"
	p, _ := replayingFixtures(t, sseFixture(body))
	r, _, err := collect(t, p, simpleRequest())
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "caf\uFFFD second" {
		t.Errorf("text %q, want the bad byte replaced and the last duplicate kept", r.Text)
	}
	if !strings.Contains(strings.Join(r.Quirks, ","), "invalid_utf8") {
		t.Errorf("quirks %v lack invalid_utf8", r.Quirks)
	}
}

// TestACutStreamNeverHandsOutItsCalls: a stream that drops after a whole call but before its
// finish hands out no call; the retry's reply hands out its call once.
func TestACutStreamNeverHandsOutItsCalls(t *testing.T) {
	call := `{"tool_calls":[{"index":0,"id":"call_w","type":"function","function":{"name":"write_file","arguments":"{\"path\":\"a\",\"content\":\"b\"}"}}]}`
	cut := sseFixture(chunkLine(call, ""))
	whole := sseFixture(chunkLine(call, "") + chunkLine(`{}`, "tool_calls") + "data: [DONE]\n\n")
	p, srv := replayingFixtures(t, cut, whole)
	var calls []string
	pol := RetryPolicy{MaxAttempts: 3, Sleep: func(context.Context, time.Duration) error { return nil }}
	r, err := StreamWithRetry(context.Background(), p, simpleRequest(), func(e Event) {
		if e.Kind == EventToolCall {
			calls = append(calls, fmt.Sprintf("%s %s", e.Call.ID, e.Call.Args))
		}
	}, pol)
	if err != nil {
		t.Fatal(err)
	}
	if len(srv.Requests()) != 2 || len(calls) != 1 || len(r.ToolCalls) != 1 {
		t.Fatalf("%d requests, call events %q, reply calls %d; want 2 requests and the call once", len(srv.Requests()), calls, len(r.ToolCalls))
	}
}
