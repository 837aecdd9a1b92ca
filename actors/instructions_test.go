package actors

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// instructionTree writes a root AGENTS.md and nested ones under pkg/ and pkg/x/, with files to read.
func instructionTree(root string) {
	for name, text := range map[string]string{
		"AGENTS.md":         "ROOT-RULES apply everywhere.",
		"pkg/AGENTS.md":     "PKG-RULES for the pkg tree.",
		"pkg/x/AGENTS.md":   "X-RULES: run go test ./pkg/x after edits.",
		"pkg/x/file.go":     "package x\n",
		"pkg/x/other.go":    "package x\n\nfunc Other() {}\n",
		"docs/AGENTS.md":    "DOCS-RULES never seen: nothing under docs is touched.",
		"docs/readme.md":    "docs\n",
		"pkg/x/y/AGENTS.md": "Y-RULES only for pkg/x/y.",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
}

// occurrences counts text in the messages of req (the system prompt left out).
func occurrences(req *llm.Request, text string) int {
	n := 0
	for _, m := range req.Messages {
		n += strings.Count(m.Content, text)
	}
	return n
}

// waitFinals waits until session id has given n final answers (an interactive session idles).
func (tn *testNode) waitFinals(t *testing.T, id string, n int) {
	t.Helper()
	checkFor(t, 30*time.Second, func() error {
		ends := 0
		for _, d := range ctxEvents[messages.TurnFinishedData](tn, id, messages.EventTurnFinished) {
			if d.Stop == messages.StopEnd {
				ends++
			}
		}
		if ends < n {
			return fmt.Errorf("%d final answers, want %d", ends, n)
		}
		return nil
	})
}

// Reading a file under pkg/x/ brings pkg/AGENTS.md and pkg/x/AGENTS.md into the next request,
// once: later requests carry the note where it was logged, never a second copy; /status lists
// the files in force with their sizes.
func TestNestedInstructionsReachTheNextRequestOnce(t *testing.T) {
	tn := startContextNode(t, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "pkg/x/file.go"}}]},
		{"expect": "X-RULES", "tool_calls": [{"name": "read_file", "args": {"path": "pkg/x/other.go"}}]},
		{"tool_calls": [{"name": "list_dir", "args": {"path": "pkg/x"}}]},
		{"text": "read both"}]}`, instructionTree)
	const id = "nested"
	if err := tn.client.StartSession(&messages.StartSession{ID: id, Task: "read pkg/x", Model: "scripted", Mode: "yolo",
		Workspace: tn.Root, Interactive: true}); err != nil {
		t.Fatal(err)
	}
	tn.waitFinals(t, id, 1)
	reqs := tn.requestsOf("root")
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	if !strings.Contains(reqs[0].System, "ROOT-RULES") || strings.Contains(reqs[0].System, "PKG-RULES") {
		t.Errorf("the prefix must hold the root's instructions only:\n%s", reqs[0].System)
	}
	for _, text := range []string{"X-RULES", "PKG-RULES", "DOCS-RULES", "Y-RULES"} {
		want := []int{0, 1, 1, 1}
		if text == "DOCS-RULES" || text == "Y-RULES" {
			want = []int{0, 0, 0, 0}
		}
		for i, req := range reqs {
			if got := occurrences(req, text); got != want[i] {
				t.Errorf("request %d carries %s %d times, want %d", i+1, text, got, want[i])
			}
		}
	}
	for i := 1; i < len(reqs); i++ {
		if reqs[i].System != reqs[0].System {
			t.Errorf("request %d: the stable prefix changed", i+1)
		}
	}
	st, err := tn.client.Status(id)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range st.Instructions {
		paths = append(paths, fmt.Sprintf("%s:%d:%v", f.Path, f.Bytes, f.Nested))
	}
	want := fmt.Sprintf("AGENTS.md:%d:false pkg/AGENTS.md:%d:true pkg/x/AGENTS.md:%d:true",
		len("ROOT-RULES apply everywhere."), len("PKG-RULES for the pkg tree."), len("X-RULES: run go test ./pkg/x after edits."))
	if strings.Join(paths, " ") != want || st.InstructionBytes == 0 || st.InstructionCap == 0 {
		t.Errorf("status instructions %v (%d of %d bytes), want %s", paths, st.InstructionBytes, st.InstructionCap, want)
	}
	ack, err := tn.client.Input(id, "/status")
	if err != nil || !strings.Contains(ack.Output, "pkg/x/AGENTS.md") || !strings.Contains(ack.Output, "in 3 files") {
		t.Errorf("/status: %+v %v", ack, err)
	}
}

// troupe run from pkg/ puts pkg/AGENTS.md in the stable prefix; a resume from elsewhere keeps
// the same prefix, and what was handed out before is not handed out again.
func TestInstructionsFollowTheWorkingDirectoryAcrossResume(t *testing.T) {
	tn := startContextNode(t, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "pkg/x/file.go"}}]},
		{"text": "first"},
		{"tool_calls": [{"name": "read_file", "args": {"path": "pkg/x/other.go"}}]},
		{"expect": "func Other", "text": "second"}]}`, instructionTree)
	const id = "cwd"
	if err := tn.client.StartSession(&messages.StartSession{ID: id, Task: "read", Model: "scripted", Mode: "yolo",
		Workspace: tn.Root, Cwd: "pkg"}); err != nil {
		t.Fatal(err)
	}
	checkFor(t, 30*time.Second, func() error {
		if tn.count(id, messages.EventSessionFinished) < 1 {
			return fmt.Errorf("first run not finished")
		}
		return nil
	})
	if err := tn.client.StartSession(&messages.StartSession{ID: id, Resume: true, Task: "read other.go", Model: "scripted",
		Mode: "yolo", Workspace: tn.Root}); err != nil {
		t.Fatal(err)
	}
	checkFor(t, 30*time.Second, func() error {
		if tn.count(id, messages.EventSessionFinished) < 2 {
			return fmt.Errorf("resumed run not finished")
		}
		return nil
	})
	reqs := tn.requestsOf("root")
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	sys := reqs[0].System
	if !strings.Contains(sys, "ROOT-RULES") || !strings.Contains(sys, "PKG-RULES") || strings.Contains(sys, "X-RULES") {
		t.Errorf("the prefix must hold the root's and pkg's instructions:\n%s", sys)
	}
	for i, req := range reqs {
		if req.System != sys {
			t.Errorf("request %d: the stable prefix differs after the resume", i+1)
		}
		if n := occurrences(req, "PKG-RULES"); n != 0 {
			t.Errorf("request %d repeats pkg's instructions (in the prefix already) %d times", i+1, n)
		}
		want := min(i, 1) // handed out after the first read, then carried by the log
		if n := occurrences(req, "X-RULES"); n != want {
			t.Errorf("request %d carries X-RULES %d times, want %d", i+1, n, want)
		}
	}
}

// A nested file whose note a compaction swallowed comes back once, after the boundary.
func TestCompactedInstructionsComeBackOnce(t *testing.T) {
	tn := startContextNode(t, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "pkg/x/file.go"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 1 1000"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 5 1005"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 9 1009"}}]},
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 13 1013"}}]},
		{"text": "ready"},
		{"expect": "X-RULES", "text": "went on"},
		{"expect": "more", "text": "more done"}],
		"agents": {"#compactor": {"turns": [{"text": "Summary: read a file and printed ranges."}]}}}`, instructionTree)
	const id = "cmp"
	if err := tn.client.StartSession(&messages.StartSession{ID: id, Task: "work", Model: "scripted", Mode: "yolo",
		Workspace: tn.Root, Interactive: true, ContextWindow: 12000}); err != nil {
		t.Fatal(err)
	}
	tn.waitFinals(t, id, 1)
	if ack, err := tn.client.Input(id, "/compact"); err != nil || !strings.Contains(ack.Output, "compaction 1") {
		t.Fatalf("/compact: %+v, %v", ack, err)
	}
	var compacted []messages.ContextCompactedData
	checkFor(t, 30*time.Second, func() error {
		if compacted = ctxEvents[messages.ContextCompactedData](tn, id, messages.EventContextCompacted); len(compacted) == 0 {
			return fmt.Errorf("no context.compacted")
		}
		return nil
	})
	checkFor(t, 10*time.Second, func() error {
		st, err := tn.client.Status(id)
		if err != nil || st.Phase != messages.PhaseIdle {
			return fmt.Errorf("not idle: %v", err)
		}
		return nil
	})
	for i, text := range []string{"go on", "more"} {
		if ack, err := tn.client.Input(id, text); err != nil || ack.Routed != messages.RoutedModel {
			t.Fatalf("%s: %+v, %v", text, ack, err)
		}
		tn.waitFinals(t, id, 2+i)
	}
	reqs := tn.requestsOf("root")
	last, prev := reqs[len(reqs)-1], reqs[len(reqs)-2]
	for name, req := range map[string]*llm.Request{"the first request after the compaction": prev, "the next": last} {
		if !strings.HasPrefix(req.Messages[0].Content, "[troupe compact boundary]") {
			t.Fatalf("%s does not open with the boundary", name)
		}
		if n := occurrences(req, "X-RULES"); n != 1 {
			t.Errorf("%s carries X-RULES %d times, want 1 (back once after the boundary)", name, n)
		}
	}
	// Handed out again after "go on": the first note was inside the compacted span.
	goOn, note := -1, -1
	for i, m := range prev.Messages {
		if m.Role == llm.RoleUser && m.Content == "go on" {
			goOn = i
		}
		if strings.Contains(m.Content, "X-RULES") {
			note = i
		}
	}
	if goOn < 0 || note < goOn {
		t.Errorf("X-RULES at message %d, \"go on\" at %d: want the file handed out again after the boundary", note, goOn)
	}
}

// A child works where its parent was started: its prefix holds the instructions from the root
// down to the parent's working directory, as the parent's does.
func TestAChildReadsTheInstructionsOfItsParentsWorkingDirectory(t *testing.T) {
	tn := startContextNode(t, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "helper", "agent_type": "explorer", "message": "look around"}}]},
		{"expect": "Subagent results", "text": "done"}],
	"agents": {"helper": {"turns": [{"text": "looked"}]}}}`, instructionTree)
	const id = "cwdchild"
	if err := tn.client.StartSession(&messages.StartSession{ID: id, Task: "delegate", Model: "scripted", Mode: "yolo",
		Workspace: tn.Root, Cwd: "pkg"}); err != nil {
		t.Fatal(err)
	}
	checkFor(t, 30*time.Second, func() error {
		if tn.count(id, messages.EventSessionFinished) < 1 {
			return fmt.Errorf("not finished")
		}
		return nil
	})
	child := tn.requestsOf("root/helper")
	if len(child) == 0 {
		t.Fatal("the child made no request")
	}
	if sys := child[0].System; !strings.Contains(sys, "ROOT-RULES") || !strings.Contains(sys, "PKG-RULES") {
		t.Errorf("the child's prefix must hold the root's and pkg's instructions:\n%s", sys)
	}
}
