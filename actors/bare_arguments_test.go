package actors

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// A reply that is only a JSON object of arguments (nanocoder#488, ClawRouter#213) never runs a
// tool: the session sends one note naming the tool the arguments fit, and the model goes on.
func TestBareArgumentsAreSteeredNotRun(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"text": "{\"command\": \"touch ran.txt\"}"},
		{"expect": "only the arguments for bash (command), without a tool name", "text": "I would run: touch ran.txt"}]}`)
	fin := tn.run(t, "bare", "go")
	if fin.Status != messages.StatusDone || fin.Final != "I would run: touch ran.txt" {
		t.Fatalf("finished: %+v", fin)
	}
	if n := len(tn.eventsOf("bare", messages.EventToolFinished)); n != 0 {
		t.Fatalf("%d tools ran for a reply with no tool name", n)
	}
	if _, err := os.Stat(filepath.Join(tn.Root, "ran.txt")); !os.IsNotExist(err) {
		t.Fatalf("the command ran: %v", err)
	}
	first := tn.eventsOf("bare", messages.EventTurnFinished)[0].(*messages.TurnFinishedData)
	if first.Class != messages.ReplyMalformed {
		t.Fatalf("first turn: %+v", first)
	}
	reqs := tn.provider.all()
	var sentBack bool
	for _, m := range reqs[len(reqs)-1].Messages {
		sentBack = sentBack || m.Role == llm.RoleAssistant && strings.Contains(m.Content, `"touch ran.txt"`)
	}
	if !sentBack {
		t.Fatalf("the JSON reply is not in the transcript sent back: %+v", reqs[len(reqs)-1].Messages)
	}
}

// Nudged twice and still only arguments: the JSON stands as the final answer, nothing runs.
func TestBareArgumentsTwiceNudgedStandAsTheAnswer(t *testing.T) {
	bare := `{"text": "{\"command\": \"touch ran.txt\"}"},`
	tn := startTestNode(t, `{"turns": [`+strings.Repeat(bare, 3)+`{"text": "never asked"}]}`)
	fin := tn.run(t, "bare3", "go")
	if fin.Status != messages.StatusDone || fin.Final != `{"command": "touch ran.txt"}` {
		t.Fatalf("finished: %+v", fin)
	}
	if n := len(tn.provider.all()); n != 3 {
		t.Fatalf("%d model calls, want 3 (the reply and two notes)", n)
	}
	if _, err := os.Stat(filepath.Join(tn.Root, "ran.txt")); !os.IsNotExist(err) {
		t.Fatalf("the command ran: %v", err)
	}
}
