package actors

import (
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

func child(task string, state messages.AgentState, background bool) *childAgent {
	return &childAgent{rec: agentRecord{Task: task, Handle: "root/" + task, State: state, Background: background}}
}

func TestChildrenKeepSpawnOrderAndFreeNames(t *testing.T) {
	k := newChildren()
	if k.handleList() != "none yet" {
		t.Errorf("empty list = %q", k.handleList())
	}
	k.add(child("b", messages.AgentRunning, false))
	k.add(child("a", messages.AgentQueued, false))
	k.add(child("c", messages.AgentDone, true))
	if got := k.handleList(); got != "root/b, root/a, root/c" {
		t.Errorf("handles = %q", got)
	}
	if got := k.freeTaskName("a"); got != "a_2" {
		t.Errorf("free name = %q", got)
	}
	k.add(child("a_2", messages.AgentQueued, false))
	if got := k.freeTaskName("a"); got != "a_3" {
		t.Errorf("free name = %q", got)
	}
	if k.running() != 1 || len(k.unended()) != 3 {
		t.Errorf("running %d, unended %d", k.running(), len(k.unended()))
	}
	for _, h := range []string{"root/a", "/root/a", "a", " a "} {
		if c := k.byHandle("root", h); c == nil || c.rec.Task != "a" {
			t.Errorf("byHandle(%q) = %+v", h, c)
		}
	}
	if k.byHandle("root", "root/zz") != nil {
		t.Error("an unknown handle was found")
	}
}

func TestChildrenBlockOnForegroundOnlyUntilTheFinalIsHeld(t *testing.T) {
	k := newChildren()
	k.add(child("fg", messages.AgentDone, false))
	k.add(child("bg", messages.AgentRunning, true))
	if n := k.blocking(false); n != 0 {
		t.Errorf("a background child blocks the next call: %d", n)
	}
	if n := k.blocking(true); n != 1 {
		t.Errorf("a headless final does not wait for the background child: %d", n)
	}
	k.get("fg").rec.Result = &messages.AgentResult{Handle: "root/fg"}
	if u := k.undelivered(); len(u) != 1 || u[0].rec.Task != "fg" {
		t.Errorf("undelivered = %+v", u)
	}
}

func TestChildrenWaitsAreReadyWhenTheirChildrenEnd(t *testing.T) {
	k := newChildren()
	k.add(child("x", messages.AgentRunning, false))
	k.add(child("y", messages.AgentRunning, false))
	pid := actor.NewPID("local", "w")
	wx := k.wait(pid, []string{"x"})
	wy := k.wait(pid, []string{"y"})
	if ready, _ := k.readyWaits("root", false); len(ready) != 0 {
		t.Fatalf("ready with every child running: %+v", ready)
	}
	k.set(k.get("y"), messages.AgentDone)
	ready, newest := k.readyWaits("root", false)
	if len(ready) != 1 || ready[0] != wy || !newest {
		t.Fatalf("ready = %+v newest %v", ready, newest)
	}
	if k.expire(wy.id) != nil {
		t.Error("an answered wait expired again")
	}
	if k.expire(wx.id) != wx || len(k.waiters) != 0 {
		t.Error("the expired wait was not removed")
	}
	k.wait(pid, []string{"x"})
	if ready, _ := k.readyWaits("root", true); len(ready) != 1 {
		t.Errorf("force did not answer every wait: %+v", ready)
	}
	pidOf := actor.NewPID("local", "child-x")
	k.get("x").pid = pidOf
	if k.byPID(actor.NewPID("local", "child-x")) != k.get("x") || k.byPID(actor.NewPID("local", "other")) != nil {
		t.Error("byPID")
	}
}
