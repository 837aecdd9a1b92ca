package projection

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm"
)

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"empty", "", 0},
		{"one byte", "a", 1},
		{"four bytes", "abcd", 1},
		{"five bytes", "abcde", 2},
		{"english", "hello, world", 3},
		{"han", "你好世界", 4},
		{"hiragana", "こんにちは", 5},
		{"katakana", "カタカナ", 4},
		{"hangul", "안녕하세요", 5},
		{"cjk punctuation", "你好，世界。", 6},
		{"mixed", "run go test 通过了", 3 + 3}, // 12 ASCII bytes → 3, 通过了 → 3
		{"cyrillic by bytes", "Привет", 3},  // 12 bytes
		{"emoji by bytes", "🙂", 1},          // 4 bytes
		{"invalid utf-8 by bytes", "\xff\xfe\xfd\xfc\xfb", 2},
	}
	for _, tt := range tests {
		if got := EstimateTokens(tt.in); got != tt.want {
			t.Errorf("%s: EstimateTokens(%q) = %d, want %d", tt.name, tt.in, got, tt.want)
		}
	}
}

// TestEstimateTokensCJKNotUndercounted is the reason CJK is weighted: by bytes, 1000 Han
// characters would look like 750 tokens.
func TestEstimateTokensCJKNotUndercounted(t *testing.T) {
	zh := strings.Repeat("上下文投影", 200) // 1000 characters, 3000 bytes
	if got := EstimateTokens(zh); got != 1000 {
		t.Errorf("EstimateTokens(1000 Han characters) = %d, want 1000", got)
	}
	if got, bytesRule := EstimateTokens(zh), len(zh)/4; got <= bytesRule {
		t.Errorf("CJK estimate %d is not above the byte rule's %d", got, bytesRule)
	}
}

func TestEstimateMessage(t *testing.T) {
	tests := []struct {
		name string
		m    llm.Message
		want int
	}{
		{"empty", llm.Message{Role: llm.RoleUser}, messageOverhead},
		{"text", llm.Message{Role: llm.RoleUser, Content: "abcdefgh"}, messageOverhead + 2},
		{"reasoning counts", llm.Message{Role: llm.RoleAssistant, Content: "abcd", Reasoning: "abcd"}, messageOverhead + 2},
		{"calls", llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
			{ID: "c1", Name: "bash", Args: `{"command":"ls"}`}, // 4 + 1 + 4
			{ID: "c2", Name: "read_file", Args: `{}`},          // 4 + 3 + 1
		}}, messageOverhead + 9 + 8},
		{"tool result", llm.Message{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "bash", Content: "ok"}, messageOverhead + 1 + 1 + 1},
	}
	for _, tt := range tests {
		if got := EstimateMessage(tt.m); got != tt.want {
			t.Errorf("%s: EstimateMessage = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestAccountant(t *testing.T) {
	msg := func(s string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: s} }
	five := []llm.Message{msg("aaaa"), msg("bbbb"), msg("cccc"), msg("dddd"), msg("eeee")}
	per := EstimateMessage(five[0]) // every message of five costs the same
	const prefix = 1000

	tests := []struct {
		name  string
		setup func(a *Accountant)
		msgs  []llm.Message
		want  int
	}{
		{"nothing observed: estimate all and the prefix", func(a *Accountant) {}, five, prefix + 5*per},
		{"observed: reported plus the tail", func(a *Accountant) { a.Observe(5000, 3) }, five, 5000 + 2*per},
		{"nothing appended: reported only", func(a *Accountant) { a.Observe(5000, 5) }, five, 5000},
		{"shorter after a compaction: estimate all", func(a *Accountant) { a.Observe(5000, 9) }, five, prefix + 5*per},
		{"no usage reported: estimate all", func(a *Accountant) { a.Observe(5000, 3); a.Observe(0, 4) }, five, prefix + 5*per},
		{"reset: estimate all", func(a *Accountant) { a.Observe(5000, 3); a.Reset() }, five, prefix + 5*per},
		{"latest observation wins", func(a *Accountant) { a.Observe(5000, 1); a.Observe(7000, 4) }, five, 7000 + per},
	}
	for _, tt := range tests {
		var a Accountant
		tt.setup(&a)
		if got := a.Estimate(tt.msgs, prefix); got != tt.want {
			t.Errorf("%s: Estimate = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestAccountantCJKTail checks the tail since the last call is weighted like any estimate: a
// Chinese reply adds a token per character.
func TestAccountantCJKTail(t *testing.T) {
	var a Accountant
	a.Observe(2000, 1)
	msgs := []llm.Message{{Role: llm.RoleUser, Content: "hi"}, {Role: llm.RoleAssistant, Content: strings.Repeat("好", 300)}}
	if got, want := a.Estimate(msgs, 0), 2000+messageOverhead+300; got != want {
		t.Errorf("Estimate = %d, want %d", got, want)
	}
}
