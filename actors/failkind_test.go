package actors

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// Resuming a session the project does not have is the user's mistake (config).
func TestResumingAnUnknownSessionIsConfig(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"text": "never"}]}`)
	if err := tn.client.StartSession(&messages.StartSession{ID: "nosuch", Resume: true, Model: "scripted", Workspace: tn.Root}); err == nil {
		fin := tn.waitFinished(t, "nosuch")
		if fin.Kind != messages.FailConfig {
			t.Fatalf("finished %+v, want kind config", fin)
		}
	}
}

// /mode is the session's own command: listed in /help, answered without a model call, applied by
// the executor and audited with who switched.
func TestModeIsASessionCommand(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"text": "hi"}]}`)
	if err := tn.client.StartSession(&messages.StartSession{ID: "m1", Model: "scripted", Mode: "ask", Workspace: tn.Root, Interactive: true}); err != nil {
		t.Fatal(err)
	}
	help, err := tn.client.Input("m1", "/help")
	if err != nil || !strings.Contains(help.Output, "/mode") || !strings.Contains(help.Output, "/worktree") {
		t.Fatalf("/help: %+v %v", help, err)
	}
	ack, err := tn.client.Input("m1", "/mode yolo")
	if err != nil || ack.Routed != messages.RoutedCommand || ack.Output != "mode yolo" {
		t.Fatalf("/mode yolo: %+v %v", ack, err)
	}
	if bad, _ := tn.client.Input("m1", "/mode bogus"); !strings.Contains(bad.Output, "use plan, ask, auto-edit or yolo") {
		t.Errorf("/mode bogus: %+v", bad)
	}
	st, err := tn.client.Status("m1")
	if err != nil || st.Mode != messages.ModeYolo {
		t.Fatalf("status after /mode yolo: %+v %v", st, err)
	}
	if n := len(tn.provider.all()); n != 0 {
		t.Errorf("a local command reached the model (%d requests)", n)
	}
	checkFor(t, 10*time.Second, func() error {
		for _, e := range tn.sessionEvents("m1") {
			if e.Type == messages.EventSessionMode {
				if v, _ := e.DecodeData(); v.(*messages.ModeData).By == "/mode" {
					return nil
				}
			}
		}
		return errors.New("no session.mode event saying the switch came from /mode")
	})
	tn.client.Cancel("m1", "done")
}
