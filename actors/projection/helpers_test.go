package projection

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// t0 is the start of every test history: fixed, so golden files never change with the clock.
var t0 = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

// hist builds a history the way the session appends it: seqs 1, 2, 3, … and a clock that
// advances a second per item unless wait moves it further.
type hist struct {
	items []Item
	seq   uint64
	now   time.Time
}

func newHist() *hist { return &hist{now: t0} }

func (h *hist) add(it Item) *hist {
	h.seq++
	h.now = h.now.Add(time.Second)
	it.Seq, it.Time = h.seq, h.now
	h.items = append(h.items, it)
	return h
}

func (h *hist) user(text string) *hist {
	return h.add(Item{Msg: llm.Message{Role: llm.RoleUser, Content: text}})
}

func (h *hist) note(text string) *hist {
	return h.add(Item{Msg: llm.Message{Role: llm.RoleUser, Content: NotePrefix + text}})
}

func (h *hist) assistant(text string, calls ...llm.ToolCall) *hist {
	return h.add(Item{Msg: llm.Message{Role: llm.RoleAssistant, Content: text, ToolCalls: calls}})
}

func (h *hist) result(id, name, out string) *hist {
	return h.add(Item{Msg: llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: name, Content: out}})
}

func (h *hist) failed(id, name, out string) *hist {
	return h.add(Item{Msg: llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: name, Content: out, IsError: true}})
}

func (h *hist) boundary(b Boundary) *hist { return h.add(Item{Boundary: &b}) }

func (h *hist) wait(d time.Duration) *hist { h.now = h.now.Add(d); return h }

func call(id, name, args string) llm.ToolCall { return llm.ToolCall{ID: id, Name: name, Args: args} }

func bash(id, cmd string) llm.ToolCall {
	return call(id, "bash", fmt.Sprintf(`{"command":%q}`, cmd))
}

// messages returns the messages of items, boundaries left out: the list Violations judges.
func messages(items []Item) []llm.Message {
	var out []llm.Message
	for _, it := range items {
		if it.Boundary == nil {
			out = append(out, it.Msg)
		}
	}
	return out
}

// renderMessages is the readable form of a message list the golden files hold.
func renderMessages(msgs []llm.Message) string {
	var sb strings.Builder
	for i, m := range msgs {
		fmt.Fprintf(&sb, "--- %d %s", i, m.Role)
		if m.Role == llm.RoleTool {
			fmt.Fprintf(&sb, " %s %s", m.ToolCallID, m.ToolName)
			if m.IsError {
				sb.WriteString(" (error)")
			}
		}
		sb.WriteString("\n")
		if m.Content != "" {
			sb.WriteString(m.Content + "\n")
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&sb, "> call %s %s %s\n", c.ID, c.Name, c.Args)
		}
	}
	return sb.String()
}

// checkGolden compares got with testdata/<name>, or rewrites it under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("update golden %s: %v", path, err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden %s (run go test ./actors/projection -update to create it): %v", path, err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run go test ./actors/projection -update to accept)\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}
