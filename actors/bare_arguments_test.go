package actors

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// A reply that is only a JSON object of arguments fitting one tool (nanocoder#488,
// ClawRouter#213) is a call to that tool, inferred. In yolo mode it runs like any call: the
// repair is visible (tool.repaired inferred_tool) and the transcript sent back holds the call
// as a structured call paired with its result.
func TestBareArgumentsRunAsAnInferredCallInYolo(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"text": "{\"command\": \"touch ran.txt\"}"},
		{"text": "done"}]}`)
	fin := tn.run(t, "bare", "go")
	if fin.Status != messages.StatusDone || fin.Final != "done" {
		t.Fatalf("finished: %+v", fin)
	}
	if _, err := os.Stat(filepath.Join(tn.Root, "ran.txt")); err != nil {
		t.Fatalf("the inferred bash call did not run: %v", err)
	}
	reps := tn.eventsOf("bare", messages.EventToolRepaired)
	if len(reps) != 1 || reps[0].(*messages.ToolRepairedData).Kind != string(tools.RepairInferredTool) || reps[0].(*messages.ToolRepairedData).Tool != "bash" {
		t.Fatalf("tool.repaired: %+v", reps)
	}
	first := tn.eventsOf("bare", messages.EventTurnFinished)[0].(*messages.TurnFinishedData)
	if first.Class != messages.ReplyTextCalls {
		t.Fatalf("first turn: %+v", first)
	}
	reqs := tn.provider.all()
	msgs := reqs[len(reqs)-1].Messages
	var callID string
	for _, m := range msgs {
		if m.Role == llm.RoleAssistant && len(m.ToolCalls) == 1 && m.ToolCalls[0].Name == "bash" {
			callID = m.ToolCalls[0].ID
		}
	}
	paired := false
	for _, m := range msgs {
		paired = paired || m.Role == llm.RoleTool && m.ToolCallID == callID && callID != ""
	}
	if !paired {
		t.Fatalf("the inferred call is not a structured call paired with its result: %+v", msgs)
	}
}

// Outside yolo an inferred call that writes is never run on the guess: a headless run (nobody to
// ask) answers it with a result that says to call the tool by name, and nothing is written;
// the model's proper call then runs under the mode's usual rule. A read runs at once.
func TestInferredCallsAskBeforeWritingOutsideYolo(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"text": "{\"file_path\": \"a.txt\", \"limit\": 1}"},
		{"expect": "alpha", "text": "{\"path\": \"new.txt\", \"content\": \"hello\"}"},
		{"expect": "write_file was not run: your reply named no tool", "tool_calls": [{"name": "write_file", "args": {"path": "new.txt", "content": "hello"}}]},
		{"text": "done"}]}`)
	id := tn.startWith(t, messages.StartSession{ID: "auto", Task: "go", Mode: "auto-edit"})
	fin := tn.waitFinished(t, id)
	if fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	if n := len(tn.provider.all()); n != 4 {
		t.Fatalf("%d model calls, want 4", n)
	}
	got, err := os.ReadFile(filepath.Join(tn.Root, "new.txt"))
	if err != nil || string(got) != "hello" {
		t.Fatalf("new.txt = %q, %v: the named call should have written it", got, err)
	}
	var denied int
	for _, d := range tn.eventsOf(id, messages.EventToolRejected) {
		if dd := d.(*messages.DecisionData); dd.Decision == messages.DecisionDenied && dd.Tool == "write_file" && strings.Contains(dd.Reason, "named no tool") {
			denied++
		}
	}
	if denied != 1 {
		t.Fatalf("tool.rejected %+v, want the inferred write denied once", tn.eventsOf(id, messages.EventToolRejected))
	}
}

// In a chat the user is asked about an inferred write, even in auto-edit mode, and the reason
// says the tool was inferred.
func TestInferredWriteAsksTheUserInAutoEdit(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"text": "{\"path\": \"new.txt\", \"content\": \"hello\"}"},
		{"text": "done"}]}`)
	id := tn.startWith(t, messages.StartSession{ID: "chat", Task: "go", Mode: "auto-edit", Interactive: true})
	ask := tn.waitEvent(t, id, messages.EventToolApproval).(*messages.ApprovalRequestedData)
	if ask.Summary.Tool != "write_file" || !strings.Contains(ask.Reason, "inferred") {
		t.Fatalf("approval request: %+v", ask)
	}
	if _, err := os.Stat(filepath.Join(tn.Root, "new.txt")); !os.IsNotExist(err) {
		t.Fatal("the file was written before the approval")
	}
	if err := tn.client.Approve(id, ask.CallID, messages.AnswerAllow, "test"); err != nil {
		t.Fatal(err)
	}
	tn.waitEvent(t, id, messages.EventToolFinished)
	if got, err := os.ReadFile(filepath.Join(tn.Root, "new.txt")); err != nil || string(got) != "hello" {
		t.Fatalf("new.txt = %q, %v after the approval", got, err)
	}
}

// Arguments that fit a tool without the margin are steered: one note naming the tool, nothing
// runs; nudged twice and still only arguments, the JSON stands as the final answer.
func TestBareArgumentsWithoutTheMarginAreSteeredThenStand(t *testing.T) {
	bare := `{"text": "{\"command\": \"touch ran.txt\", \"os\": \"linux\", \"arch\": \"amd64\"}"},`
	tn := startTestNode(t, `{"turns": [`+strings.Repeat(bare, 3)+`{"text": "never asked"}]}`)
	fin := tn.run(t, "bare3", "go")
	if fin.Status != messages.StatusDone || !strings.HasPrefix(fin.Final, `{"command": "touch ran.txt"`) {
		t.Fatalf("finished: %+v", fin)
	}
	reqs := tn.provider.all()
	if len(reqs) != 3 {
		t.Fatalf("%d model calls, want 3 (the reply and two notes)", len(reqs))
	}
	if !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "only the arguments for bash (command), without a tool name") {
		t.Fatalf("note: %+v", reqs[1].Messages[len(reqs[1].Messages)-1])
	}
	if _, err := os.Stat(filepath.Join(tn.Root, "ran.txt")); !os.IsNotExist(err) {
		t.Fatalf("the command ran: %v", err)
	}
}
