package actors

import (
	"fmt"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// The children's counts and indexes (children.go) must say what a scan of every child says,
// after every kind of change a session makes.
func checkCounts(t *testing.T, k *children, step string) {
	t.Helper()
	running, queued, unended, fg := 0, 0, 0, 0
	var first *childAgent
	for _, task := range k.order {
		c := k.byTask[task]
		if c.rec.State == messages.AgentRunning && !c.remote {
			running++
		}
		if c.rec.State == messages.AgentQueued {
			queued++
			if first == nil {
				first = c
			}
		}
		if !messages.AgentFinal(c.rec.State) {
			unended++
			if !c.rec.Background {
				fg++
			}
		}
		if k.bySession(c.rec.Session) != c {
			t.Errorf("%s: bySession(%s) is not %s", step, c.rec.Session, task)
		}
		if c.pid != nil && k.byPID(c.pid) != c {
			t.Errorf("%s: byPID(%s) is not %s", step, c.pid.Id, task)
		}
	}
	if k.running() != running || k.nQueued != queued || k.blocking(true) != unended || k.blocking(false) != fg {
		t.Errorf("%s: running %d queued %d blocking %d/%d; a scan says %d %d %d/%d", step,
			k.running(), k.nQueued, k.blocking(true), k.blocking(false), running, queued, unended, fg)
	}
	want := first
	if running >= k.delegation.Limits.MaxRunning {
		want = nil
	}
	if got := k.nextQueued(); got != want {
		t.Errorf("%s: nextQueued is %v, a scan says %v", step, got, want)
	}
}

func TestChildrenCountsFollowEveryChange(t *testing.T) {
	k := kidsOf(2)
	now := time.Now()
	kids := map[string]*childAgent{}
	add := func(task string, bg bool) {
		c := child(task, messages.AgentQueued, bg)
		c.rec.Session = "s-" + task
		kids[task] = c
		k.add(c)
	}
	for _, step := range []struct {
		name string
		do   func()
	}{
		{"three queued, one in the background", func() { add("a", false); add("b", true); add("c", false) }},
		{"a starts here", func() {
			k.set(kids["a"], messages.AgentRunning)
			kids["a"].pid = actor.NewPID("local", "root/"+childActorPrefix+"a")
		}},
		{"b goes to the workers", func() { kids["b"].remote = true; k.set(kids["b"], messages.AgentRunning) }},
		{"b comes back to run here, queued", func() { k.move(kids["b"], messages.AgentQueued, false) }},
		{"c starts", func() { k.set(kids["c"], messages.AgentRunning) }},
		{"a's result", func() { k.result("root", resultOf("a", messages.AgentDone), now) }},
		{"a late duplicate of a's result", func() { k.result("root", resultOf("a", messages.AgentFailed), now) }},
		{"d is added and queued behind b", func() { add("d", false) }},
		{"b starts, c is cancelled", func() {
			k.set(kids["b"], messages.AgentRunning)
			k.result("root", resultOf("c", messages.AgentCancelled), now)
		}},
		{"everything is cancelled", func() { k.cancelAll("root", "the turn was cancelled", now) }},
		{"b and d end", func() {
			k.result("root", resultOf("b", messages.AgentDone), now)
			k.result("root", resultOf("d", messages.AgentDone), now)
		}},
	} {
		step.do()
		checkCounts(t, k, step.name)
	}
	if k.byPID(actor.NewPID("local", "root/"+childActorPrefix+"zz")) != nil || k.byPID(actor.NewPID("local", "other")) != nil {
		t.Error("byPID found a child for an actor that is none")
	}
}

func TestChildrenRestoreCounts(t *testing.T) {
	k := kidsOf(1)
	k.restore([]agentRecord{
		{Task: "done", Session: "s-done", State: messages.AgentDone},
		{Task: "cut", Session: "s-cut", State: messages.AgentRunning},
		{Task: "far", Session: "s-far", State: messages.AgentRunning, Remote: true},
	})
	checkCounts(t, k, "restored without a dispatcher")
	if k.blocking(true) != 0 {
		t.Errorf("restored children block: %d", k.blocking(true))
	}
}

func BenchmarkChildrenBurst(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				k := kidsOf(n)
				now := time.Now()
				for i := range n { // a burst of spawns, each admitted, then every result
					c := child(fmt.Sprintf("t%05d", i), messages.AgentQueued, false)
					c.rec.Session, c.start = "s-"+c.rec.Task, &messages.StartSession{}
					k.admit(c, &messages.SpawnAgent{}, nil, false)
					k.set(c, messages.AgentRunning)
				}
				for i := range n {
					k.result("root", resultOf(fmt.Sprintf("t%05d", i), messages.AgentDone), now)
					k.nextQueued()
				}
			}
		})
	}
}
