package projection

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm"
)

func TestSummaryPromptGolden(t *testing.T) {
	h := newHist().boundary(Boundary{FromSeq: 1, ToSeq: 1, Summary: "Earlier work."}).
		user("Make the retry timeout configurable.").
		assistant("Looking.", call("c1", "read_file", `{"path":"llm/retry.go"}`)).
		result("c1", "read_file", "package llm\n\nconst timeout = 30").
		note("the user approved").
		assistant("", bash("c2", "go test ./llm")).
		failed("c2", "bash", "FAIL\n[exit code 1]").
		assistant("The test fails.")
	system, msgs := SummaryPrompt(h.items, "keep the API design", 0)
	if len(msgs) != 1 || msgs[0].Role != llm.RoleUser {
		t.Fatalf("SummaryPrompt gave %d messages (%v), want one user message", len(msgs), msgs)
	}
	checkGolden(t, "summary_prompt.golden", "SYSTEM:\n"+system+"\n\n"+renderMessages(msgs))
}

// TestSummaryPromptBounded checks a span larger than maxInputBytes keeps its head and tail
// within the bound, and that one long output cannot crowd the rest out.
func TestSummaryPromptBounded(t *testing.T) {
	h := newHist().user("FIRST REQUEST")
	for range 200 {
		h.assistant("", bash("c", "make")).result("c", "bash", strings.Repeat("x", 10_000))
	}
	h.assistant("LAST WORDS")
	const limit = 20_000
	_, msgs := SummaryPrompt(h.items, "", limit)
	body := msgs[0].Content
	if len(body) > limit+300 {
		t.Errorf("prompt is %d bytes, want about %d", len(body), limit)
	}
	for _, want := range []string{"FIRST REQUEST", "LAST WORDS", "bytes omitted", "entries 1–402"} {
		if !strings.Contains(body, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if n := strings.Count(Transcript(h.items[:3]), "x"); n > transcriptOutput {
		t.Errorf("one output kept %d bytes in the transcript, want ≤ %d", n, transcriptOutput)
	}
}

func TestParseSummary(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Boundary
	}{
		{"plain", "Summary:\nDid X.\nThen Y.\n\nFiles touched:\n- a.go\n- b.go\n\nKey results:\n- tests pass\n\nOpen issues:\nnone\n",
			Boundary{Summary: "Did X.\nThen Y.", FilesTouched: []string{"a.go", "b.go"}, KeyResults: []string{"tests pass"}}},
		{"markdown headings and numbering", "## Summary\nDid X.\n\n## Files Touched\n1. `a.go` — edited\n2) b.go\n\n### Key results\n* ok\n\n## Open issues\n- (none)",
			Boundary{Summary: "Did X.", FilesTouched: []string{"`a.go` — edited", "b.go"}, KeyResults: []string{"ok"}}},
		{"bold with text on the heading line", "Here is the summary.\n\n**Summary:** Did X.\n**Files touched:** a.go\n**Key results:**\n• built\n**Open issues:** flaky test",
			Boundary{Summary: "Did X.", FilesTouched: []string{"a.go"}, KeyResults: []string{"built"}, OpenIssues: []string{"flaky test"}}},
		{"a think block is dropped", "<think>\nlet me see\nSummary: wrong\n</think>\nSummary:\nRight.",
			Boundary{Summary: "Right."}},
		{"no headings: all of it is the summary", "We refactored the config loader and the tests pass.",
			Boundary{Summary: "We refactored the config loader and the tests pass."}},
		{"a sentence starting with a section word is text", "Summary:\nSummary of work: none yet.\nKey results are below.",
			Boundary{Summary: "Summary of work: none yet.\nKey results are below."}},
		{"a bullet is never a heading", "Summary:\nS.\nKey results:\n- Summary: tests pass",
			Boundary{Summary: "S.", KeyResults: []string{"Summary: tests pass"}}},
		{"CJK", "Summary:\n重构了配置加载。\nOpen issues:\n- 重试超时仍是硬编码",
			Boundary{Summary: "重构了配置加载。", OpenIssues: []string{"重试超时仍是硬编码"}}},
	}
	for _, tt := range tests {
		got, err := ParseSummary(tt.in, 1000)
		if err != nil {
			t.Errorf("%s: ParseSummary: %v", tt.name, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: ParseSummary:\ngot  %#v\nwant %#v", tt.name, got, tt.want)
		}
	}
}

func TestParseSummaryErrors(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		maxTokens int
		want      error
	}{
		{"empty", "", 100, ErrEmptySummary},
		{"blank", " \n\t\n", 100, ErrEmptySummary},
		{"only a think block", "<think>I will summarize", 100, ErrEmptySummary},
		{"headings only", "Summary:\n\nFiles touched:\nnone\nKey results:\nOpen issues:\n", 100, ErrEmptySummary},
		{"over the budget", "Summary:\n" + strings.Repeat("word ", 500), 100, ErrSummaryTooLong},
		{"CJK over the budget", "Summary:\n" + strings.Repeat("汉", 150), 100, ErrSummaryTooLong},
	}
	for _, tt := range tests {
		_, err := ParseSummary(tt.in, tt.maxTokens)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: ParseSummary error = %v, want %v", tt.name, err, tt.want)
		}
	}
	if _, err := ParseSummary("Summary:\n"+strings.Repeat("word ", 500), 0); err != nil {
		t.Errorf("maxTokens 0 should not bound the summary: %v", err)
	}
}
