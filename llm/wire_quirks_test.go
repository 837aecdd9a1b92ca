package llm

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm/llmtest"
)

// replaying starts a server that answers with the named fixtures of testdata/wire, in order,
// and a provider pointing at it.
func replaying(t *testing.T, names ...string) (Provider, *llmtest.ReplayServer) {
	t.Helper()
	var fs []llmtest.Fixture
	for _, n := range names {
		f, err := llmtest.LoadFixture(filepath.Join("testdata", "wire", n))
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
	}
	return replayingFixtures(t, fs...)
}

func replayingFixtures(t *testing.T, fs ...llmtest.Fixture) (Provider, *llmtest.ReplayServer) {
	t.Helper()
	srv := llmtest.NewReplay(fs...)
	t.Cleanup(srv.Close)
	return NewOpenAI(OpenAIConfig{Name: "local", BaseURL: srv.URL(), APIKey: "k"}), srv
}

// callsOf renders calls as "id name args" lines for comparison.
func callsOf(calls []ToolCall) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.ID+" "+c.Name+" "+c.Args)
	}
	return out
}

// TestRecordedQuirksAreReadAndReported replays one recorded stream per quirk: the reply is
// what the model meant, and every leniency that fired is named on it.
func TestRecordedQuirksAreReadAndReported(t *testing.T) {
	for _, tc := range []struct {
		fixture         string
		text, reasoning string
		calls           []string
		stop            StopReason
		usage           Usage
		quirks          []string // each must be reported
	}{
		{fixture: "args_object.sse", calls: []string{`call_k1 read_file {"path":"main.go","limit":20}`}, stop: StopToolCalls,
			usage: Usage{InputTokens: 20, OutputTokens: 5}, quirks: []string{"arguments_object"}},
		{fixture: "calls_without_index.sse", calls: []string{`a1 read_file {"path":"a.go"}`, `a2 read_file {"path":"b.go"}`},
			stop: StopToolCalls, usage: Usage{InputTokens: 20, OutputTokens: 5}, quirks: []string{"call_without_index"}},
		{fixture: "calls_without_id.sse", calls: []string{`call_0 glob {"pattern":"*.go"}`, `call_1 bash {"command":"ls"}`},
			stop: StopToolCalls, usage: Usage{InputTokens: 20, OutputTokens: 5}, quirks: []string{"call_without_index", "call_without_id"}},
		{fixture: "reused_index.sse", calls: []string{`call_a read_file {"path":"a.go"}`, `call_b read_file {"path":"b.go"}`},
			stop: StopToolCalls, usage: Usage{InputTokens: 20, OutputTokens: 5}, quirks: []string{"reused_index", "finish_stop_with_calls"}},
		{fixture: "split_odd.sse", calls: []string{`call_x read_file {"path":"caf\u00e9.go"}`}, stop: StopToolCalls,
			usage: Usage{InputTokens: 20, OutputTokens: 5}},
		{fixture: "finish_stop_with_calls.sse", calls: []string{`call_1 bash {"command":"go test ./..."}`}, stop: StopToolCalls,
			usage: Usage{InputTokens: 20, OutputTokens: 5}, quirks: []string{"finish_stop_with_calls"}},
		{fixture: "finish_missing.sse", calls: []string{`call_1 bash {"command":"ls"}`}, stop: StopToolCalls,
			quirks: []string{"finish_missing", "no_usage"}},
		{fixture: "usage_last_chunk.sse", text: "Hello there.", stop: StopEnd,
			usage: Usage{InputTokens: 31, OutputTokens: 3, CacheReadTokens: 16}},
		{fixture: "usage_never.sse", text: "Hi.", stop: StopEnd, quirks: []string{"no_usage"}},
		{fixture: "keepalive.sse", text: "Ok", stop: StopEnd, usage: Usage{InputTokens: 20, OutputTokens: 5},
			quirks: []string{"keepalive_chunk"}},
		{fixture: "reasoning_content.sse", text: "Hi!", reasoning: "The user wants a greeting.", stop: StopEnd,
			usage: Usage{InputTokens: 40, OutputTokens: 9, CacheReadTokens: 32}},
		{fixture: "reasoning_field.sse", text: "Done.", reasoning: "Think briefly.", stop: StopEnd,
			usage: Usage{InputTokens: 20, OutputTokens: 5}},
		{fixture: "reasoning_details.sse", text: "Reading.", reasoning: "Check the file first.", stop: StopEnd,
			usage: Usage{InputTokens: 20, OutputTokens: 5}, quirks: []string{"reasoning_details"}},
		{fixture: "crlf_nospace.sse", text: "ab", stop: StopEnd, usage: Usage{InputTokens: 20, OutputTokens: 5}},
		{fixture: "missing_done.sse", text: "Bye.", stop: StopEnd, usage: Usage{InputTokens: 20, OutputTokens: 5},
			quirks: []string{"missing_done"}},
		{fixture: "content_parts.sse", text: "Planned.", reasoning: "Plan it.", stop: StopEnd,
			usage: Usage{InputTokens: 20, OutputTokens: 5}, quirks: []string{"content_parts"}},
		{fixture: "unstreamed.json", calls: []string{`c1 glob {"pattern":"*.md"}`}, stop: StopToolCalls,
			usage: Usage{InputTokens: 20, OutputTokens: 5}, quirks: []string{"unstreamed_reply"}},
		{fixture: "odd_field_type.sse", text: "x", calls: []string{"c7 ls {}"}, stop: StopToolCalls,
			usage: Usage{InputTokens: 20, OutputTokens: 5}, quirks: []string{"odd_field_type"}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			p, _ := replaying(t, tc.fixture)
			r, evs, err := collect(t, p, simpleRequest())
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if r.Text != tc.text || r.Reasoning != tc.reasoning || r.Stop != tc.stop || r.Usage != tc.usage {
				t.Errorf("reply text %q reasoning %q stop %s usage %+v; want %q %q %s %+v",
					r.Text, r.Reasoning, r.Stop, r.Usage, tc.text, tc.reasoning, tc.stop, tc.usage)
			}
			if got := callsOf(r.ToolCalls); !slices.Equal(got, tc.calls) {
				t.Errorf("calls %q, want %q", got, tc.calls)
			}
			for _, q := range tc.quirks {
				if !slices.Contains(r.Quirks, q) {
					t.Errorf("quirks %v lack %s", r.Quirks, q)
				}
			}
			if len(tc.quirks) == 0 && len(r.Quirks) > 0 {
				t.Errorf("a clean stream reported quirks %v", r.Quirks)
			}
			var streamed strings.Builder
			emitted := 0
			for _, e := range evs {
				switch e.Kind {
				case EventText:
					streamed.WriteString(e.Text)
				case EventToolCall:
					emitted++
				}
			}
			if streamed.String() != tc.text || emitted != len(tc.calls) {
				t.Errorf("streamed text %q and %d call events; want %q and %d", streamed.String(), emitted, tc.text, len(tc.calls))
			}
		})
	}
}

// TestRecordedErrorsKeepTheServersWords replays error answers of every shape: one line with
// the server's own words, and the class that decides retrying.
func TestRecordedErrorsKeepTheServersWords(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		class   ErrorClass
		want    string // the whole message after "local replied …: " or "local: "
	}{
		{"err_error_string.json", Fatal, "local replied 400 Bad Request: registry.ollama.ai/library/gemma3:4b does not support tools — " +
			"troupe works through tool calls: choose a model that supports them (for Ollama, e.g. qwen2.5-coder or llama3.1)"},
		{"err_error_object.json", Fatal, "local replied 401 Unauthorized: Incorrect API key provided: sk-test. (invalid_api_key)"},
		{"err_detail_string.json", Fatal, "local replied 404 Not Found: Not Found"},
		{"err_detail_list.json", Fatal, "local replied 422 Unprocessable Entity: Field required"},
		{"err_plain.txt", Retryable, "local replied 503 Service Unavailable: Loading model"},
		{"err_html.html", Retryable, "local replied 502 Bad Gateway: 502 Bad Gateway"},
		{"err_html_cloudflare.html", Retryable, "local replied 524: api.example.com | 524: A timeout occurred"},
		{"error_midstream_retryable.sse", Retryable, "local: the stream sent an error (code 502): Provider returned error"},
		{"error_midstream_fatal.sse", Fatal, "local: the stream sent an error (code 400): 'messages' must contain the tool result for call_9"},
		{"error_event_named.sse", Retryable, "local: the stream sent an error (overloaded): The model is overloaded, try again later"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			p, _ := replaying(t, tc.fixture)
			_, _, err := collect(t, p, simpleRequest())
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if e.Class != tc.class || e.Error() != tc.want {
				t.Errorf("err %q (%s), want %q (%s)", e.Error(), e.Class, tc.want, tc.class)
			}
		})
	}
}

// TestToolsNotSupportedIsNotRetried is the first error many local users meet: one request,
// one line, no five retries.
func TestToolsNotSupportedIsNotRetried(t *testing.T) {
	p, srv := replaying(t, "err_error_string.json")
	pol := RetryPolicy{MaxAttempts: 6, Sleep: func(context.Context, time.Duration) error { return nil }}
	_, err := StreamWithRetry(context.Background(), p, simpleRequest(), func(Event) {}, pol)
	if ClassOf(err) != Fatal || len(srv.Requests()) != 1 || !strings.Contains(err.Error(), "does not support tools") {
		t.Fatalf("err %v after %d requests; want one fatal request naming the cause", err, len(srv.Requests()))
	}
}
