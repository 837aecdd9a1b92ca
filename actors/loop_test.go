package actors

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

func (tn *testNode) startLoop(t *testing.T, id string, max int) {
	t.Helper()
	req := &messages.StartLoop{ID: id, Objective: "write b.txt", Plan: "PLAN.md", MaxIterations: max,
		Iteration: messages.StartSession{Model: "scripted", Mode: "yolo", Workspace: tn.Root, Goal: "write b.txt"}}
	if err := tn.client.StartLoop(req); err != nil {
		t.Fatal(err)
	}
}

// The orchestrator runs iterations as headless sessions under the loop until one completes
// the goal, and reports the loop's own start and end under its id.
func TestLoopActorRunsIterationsUntilTheGoalIsComplete(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [{"text": "the root script is not used"}], "agents": {
		"iter_1": {"turns": [
			{"expect": "Loop iteration 1 of at most 3", "tool_calls": [{"name": "write_file", "args": {"path": "PLAN.md", "content": "- [ ] write b.txt\n"}}]},
			{"text": "Wrote the plan. Next: b.txt."}]},
		"iter_2": {"turns": [
			{"expect": "Loop iteration 2 of at most 3", "tool_calls": [{"name": "write_file", "args": {"path": "b.txt", "content": "b\n"}}]},
			{"tool_calls": [{"name": "update_goal", "args": {"status": "complete", "evidence": "b.txt written, cat b.txt shows b"}}]},
			{"text": "Wrote b.txt."}]}}}`, AgentLimits{}, nil)
	tn.startLoop(t, "L1", 3)
	fin := tn.waitFinished(t, "L1")
	if fin.Status != messages.StatusDone || fin.Turns != 2 || fin.Final != "objective complete after 2 iteration(s); evidence: b.txt written, cat b.txt shows b" {
		t.Fatalf("loop finished: %+v", fin)
	}
	started := tn.sessionEvents("L1")[0]
	if started.Type != messages.EventSessionStarted || started.Agent != messages.AgentLoop || started.Seq != 1 {
		t.Errorf("the loop's first event: %+v", started)
	}
	for n := 1; n <= 2; n++ {
		id := fmt.Sprintf("L1-iter_%d", n)
		evs := tn.sessionEvents(id)
		if len(evs) == 0 || evs[0].Parent != "L1" || evs[0].Agent != fmt.Sprintf("loop/iter_%d", n) {
			t.Errorf("iteration %s: first event %+v", id, evs)
		}
	}
	if evs := tn.sessionEvents("L1-iter_3"); len(evs) != 0 {
		t.Errorf("a third iteration ran after the goal was complete: %d events", len(evs))
	}
}

// A Cancel on the loop's control subject cancels the running iteration; the loop then ends
// interrupted and starts no other.
func TestLoopActorCancelStopsTheRunningIteration(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [{"text": "unused"}], "agents": {"*": {"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "sleep 60"}}]},
		{"text": "never"}]}}}`, AgentLimits{}, nil)
	tn.startLoop(t, "L2", 5)
	tn.waitEvent(t, "L2-iter_1", messages.EventToolStarted)
	if err := tn.client.Cancel("L2", "interrupted by the user (Ctrl-C)"); err != nil {
		t.Fatal(err)
	}
	fin := tn.waitFinished(t, "L2")
	if fin.Status != messages.StatusInterrupted || fin.Turns != 1 {
		t.Errorf("loop finished: %+v", fin)
	}
	if it := tn.waitFinished(t, "L2-iter_1"); it.Status != messages.StatusInterrupted {
		t.Errorf("iteration finished: %+v", it)
	}
	checkFor(t, 10*time.Second, func() error { // the loop's control subject is gone with it
		if err := tn.client.Cancel("L2", "again"); err == nil {
			return errors.New("the stopped loop still answers")
		}
		return nil
	})
	if evs := tn.sessionEvents("L2-iter_2"); len(evs) != 0 {
		t.Errorf("an iteration ran after the cancel: %d events", len(evs))
	}
}

// A StartLoop the Node cannot run is refused with a plain reason.
func TestStartLoopRejectsABadRequest(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [{"text": "unused"}]}`, AgentLimits{}, nil)
	err := tn.client.StartLoop(&messages.StartLoop{ID: "L3", Objective: "x", Plan: "PLAN.md"})
	if err == nil || !strings.Contains(err.Error(), "max iterations 0") {
		t.Errorf("StartLoop with no iterations: %v", err)
	}
}

// An iteration that cannot start (its model has no key) ends the loop as a setup failure.
func TestLoopActorEndsOnAnIterationThatCannotStart(t *testing.T) {
	tn := startAgentNode(t, `{"turns": [{"text": "unused"}]}`, AgentLimits{}, nil)
	req := &messages.StartLoop{ID: "L4", Objective: "x", Plan: "PLAN.md", MaxIterations: 3,
		Iteration: messages.StartSession{Model: "broken/model", Mode: "yolo", Workspace: tn.Root}}
	if err := tn.client.StartLoop(req); err != nil {
		t.Fatal(err)
	}
	fin := tn.waitFinished(t, "L4")
	if fin.Status != messages.StatusFailed || fin.Kind != messages.FailConfig || !strings.Contains(fin.Error, "BROKEN_API_KEY") {
		t.Errorf("loop finished: %+v", fin)
	}
}

// A Node that closes under a running loop ends it as interrupted, so troupe watch sees its end.
func TestLoopActorEndsInterruptedWhenItsNodeCloses(t *testing.T) {
	tn, node := newAgentNode(t, t.TempDir(), `{"turns": [{"text": "unused"}], "agents": {"*": {"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "sleep 60"}}]},
		{"text": "never"}]}}}`, AgentLimits{})
	client, err := node.Client()
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	tn.client, tn.Node = client, node
	if _, err := client.Subscribe(messages.ProjectEventsSubject(node.NS), func(e *messages.Envelope) {
		tn.mu.Lock()
		tn.events = append(tn.events, e)
		tn.mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	tn.startLoop(t, "L5", 3)
	tn.waitEvent(t, "L5-iter_1", messages.EventToolStarted)
	if err := node.Close(); err != nil {
		t.Fatal(err)
	}
	if fin := tn.waitFinished(t, "L5"); fin.Status != messages.StatusInterrupted {
		t.Errorf("loop finished: %+v", fin)
	}
}
