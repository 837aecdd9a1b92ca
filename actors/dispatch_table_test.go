package actors

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/messages"
)

func spawnTask(id string) *messages.SpawnTask {
	return &messages.SpawnTask{ID: id, Parent: "p1", Start: messages.StartSession{ID: id, Agent: "root/" + id, Role: "explorer"}}
}

// Each result reaches the parent once, only for a task this Node dispatched; a lease places the
// task on its worker and hands over what was held for it; a stale lease is recognised.
func TestDispatchTableResultsExactlyOnce(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tb := newDispatchTable(time.Minute)
	tb.add(spawnTask("a"), now)
	if _, _, ok := tb.result("w1", &messages.AgentResult{Session: "stranger"}); ok {
		t.Fatal("a result for a task this node did not dispatch was taken")
	}
	if w, held := tb.route("a", &messages.SendAgent{Message: "hi"}); w != "" || !held {
		t.Fatalf("route before a lease = %q, %v; want held", w, held)
	}
	st := tb.lease(&messages.TaskLease{Task: "a", Worker: "w1", Until: now.Add(30 * time.Second), Attempt: 1}, now)
	if st.placed == nil || st.placed.worker != "w1" || len(st.held) != 1 {
		t.Fatalf("first lease = %+v; want placed on w1 with the held note", st)
	}
	if st := tb.lease(&messages.TaskLease{Task: "a", Worker: "w1", Until: now.Add(40 * time.Second), Attempt: 1}, now); st.placed != nil {
		t.Fatal("a renewal placed the task again")
	}
	if st := tb.lease(&messages.TaskLease{Task: "a", Worker: "w2", Until: now.Add(90 * time.Second), Attempt: 2}, now); st.placed == nil || st.placed.worker != "w2" {
		t.Fatal("a redelivery to another worker did not place the task there")
	}
	if w, _ := tb.route("a", &messages.Cancel{}); w != "w2" {
		t.Fatalf("route = %q, want w2", w)
	}
	r := &messages.AgentResult{Session: "a", Status: messages.AgentDone}
	parent, _, ok := tb.result("w2", r)
	if !ok || parent != "p1" || r.Worker != "w2" {
		t.Fatalf("result = %q, %v, worker %q", parent, ok, r.Worker)
	}
	if _, _, ok := tb.result("w1", &messages.AgentResult{Session: "a"}); ok {
		t.Fatal("a second result for one task was forwarded")
	}
	if st := tb.lease(&messages.TaskLease{Task: "a", Worker: "w1", Until: now.Add(time.Hour)}, now); !st.stale {
		t.Fatal("a lease for a finished task is not stale")
	}
	if !tb.attached(now.Add(30*time.Second), time.Minute) || tb.attached(now.Add(2*time.Minute), time.Minute) {
		t.Fatal("attached does not follow the last lease")
	}
	tb.forget(now.Add(time.Hour), 10*time.Minute)
	if len(tb.tasks) != 0 {
		t.Fatalf("finished tasks kept: %d", len(tb.tasks))
	}
}

// A child whose lease lapsed past the grace, whose task went dead, or that passed its deadline
// fails once; a cancelled queued task ends cancelled at once.
func TestDispatchTableFailures(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tb := newDispatchTable(time.Minute)
	for _, id := range []string{"lapse", "dead", "late", "queued", "fine"} {
		tb.add(spawnTask(id), now)
	}
	tb.tasks["late"].deadline = now.Add(100 * time.Second)
	tb.lease(&messages.TaskLease{Task: "lapse", Worker: "w1", Until: now.Add(30 * time.Second), Attempt: 1}, now)
	tb.lease(&messages.TaskLease{Task: "fine", Worker: "w1", Until: now.Add(5 * time.Minute), Attempt: 1}, now)
	if out := tb.lapsed(now.Add(80 * time.Second)); len(out) != 0 {
		t.Fatalf("failed within the grace: %+v", out)
	}
	out := tb.lapsed(now.Add(2 * time.Minute))
	if len(out) != 2 || out[0].result.Session != "lapse" || out[1].result.Session != "late" {
		t.Fatalf("lapsed = %+v; want lapse and late", out)
	}
	if !strings.Contains(out[0].result.Error, "w1 stopped renewing its lease") || out[0].result.Status != messages.AgentFailed || out[0].result.Worker != "w1" {
		t.Errorf("lapse result = %+v", out[0].result)
	}
	if out := tb.lapsed(now.Add(3 * time.Minute)); len(out) != 0 {
		t.Fatalf("failed twice: %+v", out)
	}
	parent, r := tb.dead(&messages.DeadTask{Task: "dead", Deliveries: 5})
	if parent != "p1" || r == nil || !strings.Contains(r.Error, "5 deliveries") {
		t.Fatalf("dead = %q, %+v", parent, r)
	}
	if _, r := tb.dead(&messages.DeadTask{Task: "dead"}); r != nil {
		t.Fatal("a second dead letter failed the child again")
	}
	if _, r := tb.cancelQueued("fine", "stop"); r != nil {
		t.Fatal("a leased task was cancelled as queued (its worker must stop it)")
	}
	_, r = tb.cancelQueued("queued", "cancelled by its parent")
	if r == nil || r.Status != messages.AgentCancelled || !strings.Contains(r.Error, "before a worker took it") {
		t.Fatalf("cancelQueued = %+v", r)
	}
	if w, held := tb.route("queued", &messages.SendAgent{}); w != "" || held {
		t.Fatal("a message was routed to an ended child")
	}
	st := tb.lease(&messages.TaskLease{Task: "queued", Worker: "w3", Until: now.Add(time.Hour)}, now)
	if !st.stale {
		t.Fatal("a worker that took a cancelled task is not told to stop it")
	}
	if _, _, ok := tb.result("w1", &messages.AgentResult{Session: "fine"}); !ok {
		t.Fatal("the result of a leased task was dropped")
	}
	adoptAt := now.Add(10 * time.Minute)
	tb.adopt("old", "p0", "root/old", "worker", "w1", adoptAt)
	if out := tb.lapsed(adoptAt.Add(30 * time.Second)); len(out) != 0 {
		t.Fatal("an adopted task failed before its grace")
	}
	if st := tb.lease(&messages.TaskLease{Task: "old", Worker: "w1", Until: adoptAt.Add(time.Hour), Attempt: 1}, adoptAt); st.placed == nil {
		t.Fatal("an adopted task's first lease does not place it")
	}
	if workerOfSubject(messages.WorkerResultsSubject("ns1", "w9")) != "w9" || workerOfSubject("troupe.ns1.evt.x.y") != "" {
		t.Fatal("workerOfSubject")
	}
}

// A resumed parent keeps a remote child that was running for the dispatcher to follow again
// (when this Node dispatches); a local one, or any without a dispatcher, is interrupted.
func TestRestoreAdoptsRemoteChildren(t *testing.T) {
	recs := []agentRecord{
		{Task: "near", Handle: "root/near", Session: "p-near", State: messages.AgentRunning},
		{Task: "far", Handle: "root/far", Session: "p-far", State: messages.AgentRunning, Remote: true, Worker: "w1"},
		{Task: "done", Handle: "root/done", Session: "p-done", State: messages.AgentDone, Remote: true,
			Result: &messages.AgentResult{Status: messages.AgentDone}},
	}
	for _, tt := range []struct {
		name       string
		dispatcher bool
		changed    []string
		adopt      []string
	}{
		{"with a dispatcher", true, []string{"near"}, []string{"far"}},
		{"without one", false, []string{"near", "far"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			k := newChildren()
			k.delegation = &Delegation{}
			if tt.dispatcher {
				k.delegation.Dispatcher = actor.NewPID("nonhost", "dispatcher")
			}
			changed, adopt := k.restore(recs)
			names := func(cs []*childAgent) []string {
				var out []string
				for _, c := range cs {
					out = append(out, c.rec.Task)
				}
				return out
			}
			if got := names(changed); !slices.Equal(got, tt.changed) {
				t.Errorf("interrupted = %v, want %v", got, tt.changed)
			}
			if got := names(adopt); !slices.Equal(got, tt.adopt) {
				t.Errorf("adopted = %v, want %v", got, tt.adopt)
			}
			if far := k.get("far"); tt.dispatcher && (far.rec.State != messages.AgentRunning || !far.remote || k.running() != 0) {
				t.Errorf("far = %+v (a remote child takes no local slot)", far.rec)
			}
		})
	}
}

// A resumed parent's adopted child is reconciled with what the bus holds of it: a kept result
// goes to the parent once (also when heard live first), a dead letter fails it, a queued task
// waits for a worker with no lease clock, a delivered one keeps the clock (its lease resumes or
// it fails after one grace), and one the bus holds nothing of is interrupted.
func TestDispatchTableReconciled(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	later := now.Add(10 * time.Minute)
	for _, tt := range []struct {
		name   string
		on     taskOnBus
		live   bool // its result was heard live before the reconciliation answered
		status messages.AgentState
		error  string // in the result's error
		lapsed bool   // failed by the lease clock at later
	}{
		{name: "kept result", on: taskOnBus{result: &messages.AgentResult{Session: "t", Status: messages.AgentDone, Worker: "w2", Summary: "ok"}},
			status: messages.AgentDone},
		{name: "kept result heard live first", live: true,
			on: taskOnBus{result: &messages.AgentResult{Session: "t", Status: messages.AgentDone}}},
		{name: "kept result of another task is not taken", on: taskOnBus{result: &messages.AgentResult{Session: "u"}},
			status: messages.AgentInterrupted, error: "no trace"},
		{name: "dead letter", on: taskOnBus{dead: &messages.DeadTask{Task: "t", Deliveries: 5}},
			status: messages.AgentFailed, error: "5 deliveries"},
		{name: "still queued", on: taskOnBus{queue: taskqueue.Queued}},
		{name: "taken by a worker", on: taskOnBus{queue: taskqueue.Delivered}, lapsed: true},
		{name: "nowhere", status: messages.AgentInterrupted, error: "no trace of it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tb := newDispatchTable(time.Minute)
			tb.adopt("t", "p1", "root/t", "worker", "w1", now)
			if tt.live {
				if _, _, ok := tb.result("w1", &messages.AgentResult{Session: "t"}); !ok {
					t.Fatal("the live result was dropped")
				}
			}
			parent, r := tb.reconciled("t", tt.on, now)
			if tt.status == "" {
				if r != nil {
					t.Fatalf("reconciled = %+v, want nothing yet", r)
				}
			} else if parent != "p1" || r == nil || r.Status != tt.status || !strings.Contains(r.Error, tt.error) || r.Session != "t" {
				t.Fatalf("reconciled = %q, %+v; want %s with %q", parent, r, tt.status, tt.error)
			}
			if _, again := tb.reconciled("t", tt.on, now); again != nil {
				t.Fatal("a second reconciliation delivered again")
			}
			if out := tb.lapsed(later); (len(out) == 1) != tt.lapsed {
				t.Fatalf("lapsed at later = %+v, want lapsed %v", out, tt.lapsed)
			}
			if tt.on.result != nil && tt.status == messages.AgentDone && tb.tasks["t"].worker != "w2" {
				t.Errorf("the result's worker was not recorded: %q", tb.tasks["t"].worker)
			}
		})
	}
}
