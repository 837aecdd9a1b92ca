package actors

import (
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// remoteKids is a session's children with one local slot and, if dispatcher, the Node's
// dispatcher; busy fills the slot with a running local child.
func remoteKids(dispatcher, busy bool, cs ...*childAgent) *children {
	if busy {
		cs = append(cs, child("busy", messages.AgentRunning, false))
	}
	k := kidsOf(1, cs...)
	if dispatcher {
		k.delegation.Dispatcher = actor.NewPID("local", "dispatcher")
	}
	return k
}

func remoteChild(task string, state messages.AgentState) *childAgent {
	c := child(task, state, false)
	c.remote, c.rec.Remote = true, true
	c.place = placeInput{configured: config.PlacementWorkers}
	return c
}

func TestChildrenPlace(t *testing.T) {
	cases := []struct {
		name       string
		place      placeInput
		dispatcher bool
		remote     bool
		warnings   int // over two children placed alike
	}{
		{name: "workers with a dispatcher go out", place: placeInput{configured: config.PlacementWorkers}, dispatcher: true, remote: true},
		{name: "workers without a dispatcher run here, said once", place: placeInput{configured: config.PlacementWorkers}, warnings: 1},
		{name: "auto without a dispatcher runs here quietly", place: placeInput{configured: config.PlacementAuto, writes: true}},
		{name: "auto keeps a read-only child local", place: placeInput{configured: config.PlacementAuto}, dispatcher: true},
		{name: "a role pinned local stays", place: placeInput{configured: config.PlacementWorkers, pinned: config.PlacementLocal}, dispatcher: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := remoteKids(tc.dispatcher, false)
			warnings := 0
			for _, task := range []string{"a", "b"} {
				c := child(task, messages.AgentQueued, false)
				c.place = tc.place
				warnings += len(k.place(c))
				if c.remote != tc.remote || c.rec.Remote != tc.remote {
					t.Fatalf("%s: remote %v (record %v), want %v", task, c.remote, c.rec.Remote, tc.remote)
				}
			}
			if warnings != tc.warnings {
				t.Fatalf("%d warnings, want %d", warnings, tc.warnings)
			}
		})
	}
}

func TestChildrenDispatcherAnswers(t *testing.T) {
	now := time.Unix(100, 0)
	cases := []struct {
		name     string
		answer   any
		busy     bool
		finished bool
		state    messages.AgentState // of the remote child "a" after the step
		remote   bool
		start    bool
		ended    bool
		saved    int
		event    messages.EventType
	}{
		{name: "queued on the task queue: nothing to do", answer: &dispatchOutcome{task: "s-a"}, state: messages.AgentRunning, remote: true},
		{name: "refused with a free slot: it starts here, with a warning", answer: &dispatchOutcome{task: "s-a", refused: "no worker is attached"},
			state: messages.AgentQueued, start: true, event: messages.ErrorEvent.Type}, // running once started
		{name: "refused with no free slot: it waits for one here", answer: &dispatchOutcome{task: "s-a", refused: "no worker is attached"}, busy: true,
			state: messages.AgentQueued, saved: 1, event: messages.ErrorEvent.Type},
		{name: "refused after the session finished: it fails", answer: &dispatchOutcome{task: "s-a", refused: "no worker is attached"}, finished: true,
			state: messages.AgentFailed, remote: true, ended: true, saved: 1, event: messages.AgentFinishedEvent.Type},
		{name: "refused for another session's task: nothing", answer: &dispatchOutcome{task: "s-zz", refused: "no worker"}, state: messages.AgentRunning, remote: true},
		{name: "placed on a worker: spawned again with its name", answer: &childPlaced{task: "s-a", worker: "w1"},
			state: messages.AgentRunning, remote: true, saved: 1, event: messages.AgentSpawnedEvent.Type},
		{name: "placed for another session's task: nothing", answer: &childPlaced{task: "s-zz", worker: "w1"}, state: messages.AgentRunning, remote: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := remoteChild("a", messages.AgentRunning)
			k := remoteKids(true, tc.busy, a)
			var st kidsStep
			switch m := tc.answer.(type) {
			case *dispatchOutcome:
				st = k.refused(m, "root", tc.finished, now)
			case *childPlaced:
				st = k.placed(m)
			}
			if a.rec.State != tc.state || a.remote != tc.remote || a.rec.Remote != tc.remote {
				t.Fatalf("state %s, remote %v (record %v); want %s, %v", a.rec.State, a.remote, a.rec.Remote, tc.state, tc.remote)
			}
			// A remote child that ended tells the dispatcher its outcome is recorded.
			if (st.start == a) != tc.start || st.ended != tc.ended || len(st.save) != tc.saved || (len(st.dispatch) == 1) != tc.ended {
				t.Fatalf("step %+v", st)
			}
			if tc.ended && *st.dispatch[0].(*dispatchRecorded) != (dispatchRecorded{task: "s-a"}) {
				t.Fatalf("dispatch %+v, want the outcome of s-a recorded", st.dispatch)
			}
			if tc.event == "" && len(st.emit) != 0 || tc.event != "" && (len(st.emit) != 1 || st.emit[0].EventType() != tc.event) {
				t.Fatalf("events %v, want %q", st.emit, tc.event)
			}
			if _, ok := tc.answer.(*childPlaced); ok && tc.saved == 1 && a.rec.Worker != "w1" {
				t.Fatalf("worker %q, want w1", a.rec.Worker)
			}
		})
	}
}

func TestChildrenDispatch(t *testing.T) {
	now := time.Unix(100, 0)
	parent := actor.NewPID("local", "parent")
	cases := []struct {
		name      string
		inherited int // bytes of inherited context
		busy      bool
		sent      bool
		state     messages.AgentState
	}{
		{name: "a child with its context goes to the dispatcher", inherited: 100, sent: true, state: messages.AgentRunning},
		// Over the bus limit too: the queue ships it through the object store (taskstate.ShipContext).
		{name: "a large context goes too", inherited: messages.MaxInline + 1, sent: true, state: messages.AgentRunning},
		{name: "a large context goes with no free slot here", inherited: messages.MaxInline + 1, busy: true, sent: true, state: messages.AgentRunning},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := remoteChild("a", messages.AgentQueued)
			a.start = &messages.StartSession{Model: "m", Env: &messages.ClientEnv{}}
			a.task = &messages.SpawnTask{ID: "s-a", Start: *a.start}
			a.inherited = []llm.Message{{Role: llm.RoleUser, Content: strings.Repeat("x", tc.inherited)}}
			k := remoteKids(true, tc.busy, a)
			st := k.dispatch(a, "ns", parent, now)
			if a.rec.State != tc.state || a.remote != tc.sent {
				t.Fatalf("state %s, remote %v; want %s, %v", a.rec.State, a.remote, tc.state, tc.sent)
			}
			if !tc.sent {
				if len(st.dispatch) != 0 || (st.start == a) == tc.busy {
					t.Fatalf("step %+v", st)
				}
				return
			}
			if len(st.dispatch) != 1 || len(st.save) != 1 || st.start != nil {
				t.Fatalf("step %+v", st)
			}
			dt := st.dispatch[0].(*dispatchTask)
			if dt.parent != parent || dt.task.Project != "ns" || dt.task.Start.Env != nil || dt.task.Inherited == nil || a.start.Env == nil {
				t.Fatalf("task %+v", dt.task)
			}
		})
	}
}

func TestChildrenRouteToRemote(t *testing.T) {
	a, b := remoteChild("a", messages.AgentRunning), child("b", messages.AgentRunning, false)
	done := remoteChild("c", messages.AgentDone)
	for _, c := range []*childAgent{a, b, done} {
		c.start, c.roleMode = &messages.StartSession{}, string(messages.ModePlan)
	}
	k := remoteKids(true, false, a, b, done)

	st := k.modeChanged(messages.ModeYolo, "root")
	if len(st.dispatch) != 1 {
		t.Fatalf("mode change: %d messages, want 1 (the running remote child)", len(st.dispatch))
	}
	if r := st.dispatch[0].(*dispatchRoute); r.task != "s-a" || r.msg.(*messages.SetMode).Mode != messages.ModePlan {
		t.Fatalf("mode change sent %+v, want plan (the role's mode bounds it) to s-a", r.msg)
	}

	k.allowlist = []string{"go test"}
	if st := k.allowlistGrew([]string{"go test"}); len(st.dispatch) != 0 {
		t.Fatalf("an allowlist that did not grow was sent: %+v", st.dispatch)
	}
	if st := k.allowlistGrew([]string{"go test", "make"}); len(st.dispatch) != 1 || st.dispatch[0].(*dispatchRoute).task != "s-a" {
		t.Fatalf("a grown allowlist: %+v", st.dispatch)
	}

	k.adopting = []*childAgent{a}
	parent := actor.NewPID("local", "parent")
	if st := k.adopt(parent, "root-id"); len(st.dispatch) != 1 || st.dispatch[0].(*dispatchAdopt).parent != parent || k.adopting != nil {
		t.Fatalf("adopt: %+v, adopting %v", st.dispatch, k.adopting)
	}
}
