package actors

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// doneChecks returns the done.check payloads of a session.
func (tn *testNode) doneChecks(id string) []*messages.DoneCheckData {
	var out []*messages.DoneCheckData
	for _, e := range tn.sessionEvents(id) {
		if e.Type == messages.EventDoneCheck {
			v, _ := e.DecodeData()
			out = append(out, v.(*messages.DoneCheckData))
		}
	}
	return out
}

func TestFinalAnswerWithAnOpenGoalIsRefusedUntilCompletedWithEvidence(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"text": "all done, trust me"},
		{"expect": "You may not stop yet", "tool_calls": [{"name": "update_goal", "args": {"status": "complete", "evidence": "done"}}]},
		{"expect": "evidence is required", "tool_calls": [{"name": "update_goal", "args": {"status": "complete", "evidence": "cat a.txt shows alpha; nothing else needed"}}]},
		{"expect": "goal complete", "text": "finished"}]}`, AgentLimits{}, nil)
	id := tn.startWith(t, messages.StartSession{ID: "g1", Task: "make a.txt say alpha", Mode: "yolo", Goal: "a.txt says alpha"})
	fin := tn.waitFinished(t, id)
	if fin.Status != messages.StatusDone || fin.Final != "finished" || fin.Goal != messages.GoalComplete {
		t.Fatalf("finished: %+v", fin)
	}
	checks := tn.doneChecks(id)
	if len(checks) != 1 || checks[0].Kind != "goal" || checks[0].Passed {
		t.Errorf("done checks: %+v", checks)
	}
	var statuses []string
	for _, e := range tn.sessionEvents(id) {
		if e.Type == messages.EventGoalUpdated {
			v, _ := e.DecodeData()
			g := v.(*messages.GoalUpdatedData)
			statuses = append(statuses, string(g.Status)+"/"+g.By)
		}
	}
	if strings.Join(statuses, ",") != "active/user,complete/model" {
		t.Errorf("goal events: %v", statuses)
	}
	// The goal is shown to the model as a state block, not as old transcript text.
	first := tn.requestsOf("root")[0]
	if last := lastContent(first); !strings.Contains(last, "[troupe state]") || !strings.Contains(last, "a.txt says alpha") {
		t.Errorf("no goal state block: %q", last)
	}
}

func TestCheckCommandRefusesUntilItPasses(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"text": "done"},
		{"expect": "test -f done.txt", "tool_calls": [{"name": "write_file", "args": {"path": "done.txt", "content": "ok\n"}}]},
		{"text": "done now"}]}`, AgentLimits{}, nil)
	id := tn.startWith(t, messages.StartSession{ID: "g2", Task: "go", Mode: "yolo", Check: "test -f done.txt"})
	fin := tn.waitFinished(t, id)
	if fin.Status != messages.StatusDone || fin.Final != "done now" {
		t.Fatalf("finished: %+v", fin)
	}
	checks := tn.doneChecks(id)
	if len(checks) != 2 || checks[0].Passed || !checks[1].Passed || checks[0].Kind != "command" {
		t.Errorf("done checks: %+v", checks)
	}
}

func TestCheckThatNeverPassesFailsAfterMaxRefusals(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [{"text": "done"}, {"text": "done"}, {"text": "done"}]}`, AgentLimits{}, nil)
	id := tn.startWith(t, messages.StartSession{ID: "g3", Task: "go", Mode: "yolo", Check: "echo nope; exit 3", MaxRefusals: 2})
	fin := tn.waitFinished(t, id)
	if fin.Status != messages.StatusFailed || fin.Kind != messages.FailDone || !strings.Contains(fin.Error, "echo nope; exit 3") {
		t.Fatalf("finished: %+v", fin)
	}
	if n := len(tn.doneChecks(id)); n != 3 {
		t.Errorf("%d checks, want 3", n)
	}
}

func TestGoalCommandsAndStatusNeedNoModelAndSurviveResume(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [
		{"tool_calls": [{"name": "update_goal", "args": {"status": "complete", "evidence": "I looked at everything carefully"}}]},
		{"expect": "paused", "text": "ok"}]}`, AgentLimits{}, nil)
	id := tn.startWith(t, messages.StartSession{ID: "g4", Mode: "yolo", Interactive: true})
	checkFor(t, 10*time.Second, func() error {
		_, err := tn.client.Status(id)
		return err
	})
	for _, in := range []string{"/goal ship the parser", "/goal pause"} {
		if ack, err := tn.client.Input(id, in); err != nil || ack.Routed != messages.RoutedCommand {
			t.Fatalf("%s: %+v %v", in, ack, err)
		}
	}
	ack, err := tn.client.Input(id, "/status")
	if err != nil || !strings.Contains(ack.Output, "ship the parser (paused)") || !strings.Contains(ack.Output, "compactions 0") {
		t.Fatalf("/status: %+v %v", ack, err)
	}
	if len(tn.provider.all()) != 0 {
		t.Errorf("local commands called the model")
	}
	if _, err := tn.client.Input(id, "finish it"); err != nil {
		t.Fatal(err)
	}
	checkFor(t, 10*time.Second, func() error {
		st, err := tn.client.Status(id)
		if err != nil || st.Phase != phaseIdle || st.Turns < 2 {
			return os.ErrNotExist
		}
		return nil
	})
	res := toolResults(tn.requestsOf("root")[1])
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].Content, "paused") {
		t.Errorf("completing a paused goal: %+v", res)
	}
	if err := tn.client.Cancel(id, "bye"); err != nil {
		t.Fatal(err)
	}
	tn.waitFinished(t, id)
	var g messages.Goal
	if err := tn.Store().Goal(id, &g); err != nil || g.Status != messages.GoalPaused || g.Objective != "ship the parser" {
		t.Errorf("stored goal: %+v %v", g, err)
	}
	if _, err := os.Stat(filepath.Join(tn.Root, "a.txt")); err != nil {
		t.Fatal(err)
	}
}
