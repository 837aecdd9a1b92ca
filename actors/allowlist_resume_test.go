package actors

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// What the user allowed for the session survives a resume: it is stored with the session, the
// resumed gate starts with it (the same command is not asked again), and /permissions shows it.
func TestTheSessionAllowlistSurvivesAResume(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "echo x >> made.txt"}}]},
		{"text": "made"},
		{"tool_calls": [{"name": "bash", "args": {"command": "echo x >> made.txt"}}]},
		{"text": "made again"}]}`)
	const id = "allow-resume"
	tn.startWith(t, messages.StartSession{ID: id, Task: "make it", Mode: "ask", AskUser: true})
	ask := tn.waitEvent(t, id, messages.EventToolApproval).(*messages.ApprovalRequestedData)
	if err := tn.client.Approve(id, ask.CallID, messages.AnswerAllowSession, "test"); err != nil {
		t.Fatal(err)
	}
	if fin := tn.waitFinished(t, id); fin.Status != messages.StatusDone {
		t.Fatalf("first run: %+v", fin)
	}
	meta, err := tn.Store().Meta(id)
	if err != nil || strings.Join(meta.Allowlist, ";") != "bash(echo x >> made.txt)" {
		t.Fatalf("stored allowlist %q, %v", meta.Allowlist, err)
	}

	tn.startWith(t, messages.StartSession{ID: id, Task: "again", Mode: "ask", AskUser: true, Interactive: true, Resume: true})
	checkFor(t, 30*time.Second, func() error {
		data, _ := os.ReadFile(filepath.Join(tn.Root, "made.txt"))
		if st, err := tn.client.Status(id); string(data) != "x\nx\n" || err != nil || st.Phase != phaseIdle {
			return fmt.Errorf("the resumed run has not run the command and gone idle: %q, %+v, %v (approvals asked: %d)",
				data, st, err, tn.count(id, messages.EventToolApproval))
		}
		return nil
	})
	if n := tn.count(id, messages.EventToolApproval); n != 1 {
		t.Errorf("asked %d times in all; the resumed run should not have asked", n)
	}
	ack, err := tn.client.Input(id, "/permissions")
	if err != nil || !strings.Contains(ack.Output, "this session bash(echo x >> made.txt)") {
		t.Errorf("/permissions after the resume: %+v, %v", ack, err)
	}
}
