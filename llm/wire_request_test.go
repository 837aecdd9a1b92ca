package llm

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/troupe-dev/troupe/llm/llmtest"
)

// mapMemory is a WireMemory in a map, as the store keeps it.
type mapMemory struct {
	mu      sync.Mutex
	rejects map[string][]string
	quirks  map[string]map[string]int
}

func (m *mapMemory) WireRejects(endpoint, model string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.rejects[endpoint+" "+model]), nil
}

func (m *mapMemory) AddWireReject(endpoint, model, field string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rejects == nil {
		m.rejects = map[string][]string{}
	}
	m.rejects[endpoint+" "+model] = append(m.rejects[endpoint+" "+model], field)
	return nil
}

func (m *mapMemory) AddWireQuirks(model string, quirks []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.quirks == nil {
		m.quirks = map[string]map[string]int{}
	}
	if m.quirks[model] == nil {
		m.quirks[model] = map[string]int{}
	}
	for _, q := range quirks {
		m.quirks[model][q]++
	}
	return nil
}

// sentBody decodes the n-th request the server received.
func sentBody(t *testing.T, reqs []llmtest.Recorded, n int) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(reqs[n].Body, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func loadFixture(t *testing.T, name string) llmtest.Fixture {
	t.Helper()
	f, err := llmtest.LoadFixture(filepath.Join("testdata", "wire", name))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestARejectedFieldIsDroppedOnceAndRemembered: a server that refuses stream_options (or
// parallel_tool_calls) gets the call again without it at once, the quirk is reported and
// counted, and the next provider on the same endpoint and model does not send it at all.
func TestARejectedFieldIsDroppedOnceAndRemembered(t *testing.T) {
	for _, tc := range []struct{ fixture, field, quirk string }{
		{"err_stream_options.json", "stream_options", "no_stream_options"},
		{"err_parallel_tool_calls.json", "parallel_tool_calls", "no_parallel_tool_calls"},
	} {
		t.Run(tc.field, func(t *testing.T) {
			srv := llmtest.NewReplay(loadFixture(t, tc.fixture), loadFixture(t, "usage_never.sse"))
			t.Cleanup(srv.Close)
			mem := &mapMemory{}
			req := simpleRequest()
			req.Model = "some-local-model" // an unknown family: asked for one call at a time
			req.Tools = []ToolSpec{{Name: "bash", Schema: json.RawMessage(`{"type":"object"}`)}}
			p := NewOpenAI(OpenAIConfig{Name: "local", BaseURL: srv.URL(), Memory: mem})
			r, evs, err := collect(t, p, req)
			if err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want the refused one and one without %s", len(reqs), tc.field)
			}
			if _, ok := sentBody(t, reqs, 0)[tc.field]; !ok {
				t.Fatalf("the first request lacks %s", tc.field)
			}
			if _, ok := sentBody(t, reqs, 1)[tc.field]; ok {
				t.Errorf("the retry still sends %s", tc.field)
			}
			var quirkEvents []string
			for _, e := range evs {
				if e.Kind == EventQuirk {
					quirkEvents = append(quirkEvents, e.Text)
				}
			}
			if r.Text != "Hi." || !slices.Contains(r.Quirks, tc.quirk) || !slices.Equal(quirkEvents, r.Quirks) {
				t.Errorf("reply %q quirks %v events %v; want %s reported as events", r.Text, r.Quirks, quirkEvents, tc.quirk)
			}
			if got := mem.quirks["local/some-local-model"][tc.quirk]; got != 1 {
				t.Errorf("counted %s %d times, want 1", tc.quirk, got)
			}
			again := NewOpenAI(OpenAIConfig{Name: "local", BaseURL: srv.URL(), Memory: mem})
			if _, _, err := collect(t, again, req); err != nil {
				t.Fatal(err)
			}
			reqs = srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests, want one more", len(reqs))
			}
			if _, ok := sentBody(t, reqs, 2)[tc.field]; ok {
				t.Errorf("a new provider on the same endpoint sends %s again", tc.field)
			}
		})
	}
}

// TestReasoningIsEchoedOnlyInTheToolLoop: reasoning goes back (as reasoning_content) for the
// same model's messages after the last user message, never for earlier turns.
func TestReasoningIsEchoedOnlyInTheToolLoop(t *testing.T) {
	p, srv := replaying(t, "usage_never.sse")
	req := &Request{Model: "deepseek-reasoner", Messages: []Message{
		{Role: RoleUser, Content: "one"},
		{Role: RoleAssistant, Content: "done", Reasoning: "old turn", Model: "deepseek-reasoner"},
		{Role: RoleUser, Content: "two"},
		{Role: RoleAssistant, Reasoning: "step 1", Model: "deepseek-reasoner", ToolCalls: []ToolCall{{ID: "c1", Name: "ls", Args: "{}"}}},
		{Role: RoleTool, ToolCallID: "c1", Content: "a.go"},
		{Role: RoleAssistant, Reasoning: "other model", Model: "glm-4.6", ToolCalls: []ToolCall{{ID: "c2", Name: "ls", Args: "{}"}}},
		{Role: RoleTool, ToolCallID: "c2", Content: "b.go"},
	}}
	if _, _, err := collect(t, p, req); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			ReasoningContent string `json:"reasoning_content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range body.Messages {
		got = append(got, m.ReasoningContent)
	}
	if want := []string{"", "", "", "step 1", "", "", ""}; !slices.Equal(got, want) {
		t.Errorf("reasoning echoed %q, want %q", got, want)
	}
}

// TestMistralGetsNineCharacterCallIDs: ids Mistral would refuse are mapped to nine letters
// and digits, the same for a call and its result; ids already fit stay.
func TestMistralGetsNineCharacterCallIDs(t *testing.T) {
	p, srv := replaying(t, "usage_never.sse")
	req := &Request{Model: "devstral-small-2505", Messages: []Message{
		{Role: RoleUser, Content: "go"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "call_0", Name: "ls", Args: "{}"}, {ID: "AbC123xyZ", Name: "ls", Args: "{}"}}},
		{Role: RoleTool, ToolCallID: "call_0", Content: "x"},
		{Role: RoleTool, ToolCallID: "AbC123xyZ", Content: "y"},
	}}
	r, _, err := collect(t, p, req)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			ToolCalls []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	mapped, kept := body.Messages[1].ToolCalls[0].ID, body.Messages[1].ToolCalls[1].ID
	if !isMistralID(mapped) || mapped != body.Messages[2].ToolCallID || kept != "AbC123xyZ" || body.Messages[3].ToolCallID != kept {
		t.Errorf("ids sent: calls %q %q, results %q %q", mapped, kept, body.Messages[2].ToolCallID, body.Messages[3].ToolCallID)
	}
	if !slices.Contains(r.Quirks, "mistral_call_ids") {
		t.Errorf("quirks %v lack mistral_call_ids", r.Quirks)
	}
}

// TestReasoningDetailsGoBackWhole: OpenRouter streams reasoning_details in pieces (text, then
// a signature, then an encrypted block); they are merged into whole blocks and sent back with
// the assistant message inside the tool loop, in place of reasoning_content, and not for an
// earlier turn.
func TestReasoningDetailsGoBackWhole(t *testing.T) {
	p, srv := replaying(t, "reasoning_details_tool.sse", "usage_never.sse")
	const model = "anthropic/claude-sonnet-4"
	first := &Request{Model: model, Messages: []Message{{Role: RoleUser, Content: "read a.go"}}}
	r, _, err := collect(t, p, first)
	if err != nil {
		t.Fatal(err)
	}
	if r.Reasoning != "Read the file first." || len(r.ToolCalls) != 1 || r.Stop != StopToolCalls {
		t.Fatalf("reply reasoning %q calls %v stop %s", r.Reasoning, r.ToolCalls, r.Stop)
	}
	want := `[{"format":"anthropic-claude-v1","index":0,"signature":"EqQBCkYIBxgCKkD0sig","text":"Read the file first.","type":"reasoning.text"},` +
		`{"data":"gAAAAABredacted","format":"anthropic-claude-v1","index":1,"type":"reasoning.encrypted"}]`
	if string(r.ReasoningBlocks) != want {
		t.Fatalf("merged blocks\n%s\nwant\n%s", r.ReasoningBlocks, want)
	}
	second := &Request{Model: model, Messages: []Message{
		{Role: RoleUser, Content: "before"},
		{Role: RoleAssistant, Content: "earlier", Reasoning: "old", ReasoningBlocks: json.RawMessage(`[{"type":"reasoning.text","text":"old"}]`), Model: model},
		{Role: RoleUser, Content: "read a.go"},
		{Role: RoleAssistant, Reasoning: r.Reasoning, ReasoningBlocks: r.ReasoningBlocks, ToolCalls: r.ToolCalls, Model: model},
		{Role: RoleTool, ToolCallID: r.ToolCalls[0].ID, Content: "package a"},
	}}
	if _, _, err := collect(t, p, second); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			ReasoningContent string          `json:"reasoning_content"`
			ReasoningDetails json.RawMessage `json:"reasoning_details"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.Requests()[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	for i, m := range body.Messages {
		wantDetails := ""
		if i == 3 {
			wantDetails = want
		}
		if string(m.ReasoningDetails) != wantDetails || m.ReasoningContent != "" {
			t.Errorf("message %d sent reasoning_details %s reasoning_content %q; want details %q and no content",
				i, m.ReasoningDetails, m.ReasoningContent, wantDetails)
		}
	}
}
