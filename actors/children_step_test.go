package actors

import (
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// kidsOf is a session's children, each with its session id, at most maxRunning at once.
func kidsOf(maxRunning int, cs ...*childAgent) *children {
	k := newChildren()
	k.delegation = &Delegation{Limits: AgentLimits{MaxRunning: maxRunning}}
	for _, c := range cs {
		c.rec.Session = "s-" + c.rec.Task
		k.add(c)
	}
	return k
}

func resultOf(task string, status messages.AgentState) *messages.AgentResult {
	return &messages.AgentResult{Handle: "root/" + task, Session: "s-" + task, Status: status, Summary: task + " is done"}
}

func TestChildrenResult(t *testing.T) {
	now := time.Unix(100, 0)
	cases := []struct {
		name    string
		result  *messages.AgentResult
		ended   bool
		waiters int // answers sent
	}{
		{name: "a result ends its child and answers the wait on it", result: resultOf("a", messages.AgentDone), ended: true, waiters: 1},
		{name: "a result from another session is not ours", result: &messages.AgentResult{Handle: "root/a", Session: "other", Status: messages.AgentDone}},
		{name: "an unknown child changes nothing", result: resultOf("zz", messages.AgentDone)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := child("a", messages.AgentRunning, false)
			a.began = now.Add(-3 * time.Second)
			k := kidsOf(1, a, child("b", messages.AgentQueued, false))
			k.wait(actor.NewPID("local", "waiter"), []string{"a"})
			st := k.result("root", tc.result, now)
			if st.ended != tc.ended || len(st.answers) != tc.waiters {
				t.Fatalf("ended %v, %d answers; want %v, %d", st.ended, len(st.answers), tc.ended, tc.waiters)
			}
			if !tc.ended {
				if len(st.save)+len(st.emit) != 0 || a.rec.State != messages.AgentRunning {
					t.Fatalf("an ignored result changed things: %+v, state %s", st, a.rec.State)
				}
				return
			}
			if len(st.emit) != 1 || st.emit[0].EventType() != messages.AgentFinishedEvent.Type || a.rec.State != messages.AgentDone {
				t.Fatalf("events %v, state %s", st.emit, a.rec.State)
			}
			if tc.result.Usage.DurationMS != 3000 {
				t.Fatalf("duration %d ms, want the 3000 since it began", tc.result.Usage.DurationMS)
			}
			if r := st.answers[0].reply; len(r.Results) != 1 || !r.Results[0].Delivered || len(r.Pending) != 0 {
				t.Fatalf("wait answer %+v", r)
			}
			if got := k.nextQueued(); got == nil || got.rec.Task != "b" {
				t.Fatalf("next queued %+v, want b (a's slot is free)", got)
			}
			if again := k.result("root", resultOf("a", messages.AgentFailed), now); again.ended {
				t.Fatal("a duplicate result was taken")
			}
		})
	}
}

func TestChildrenWaits(t *testing.T) {
	waiter := actor.NewPID("local", "waiter")
	t.Run("an unknown handle is refused", func(t *testing.T) {
		k := kidsOf(2, child("a", messages.AgentRunning, false))
		st := k.waitFor("root", waiter, &messages.WaitAgents{Handles: []string{"a", "nope"}})
		if e, ok := st.respond.(*messages.ErrorReply); !ok || !strings.Contains(e.Error, "nope") || !strings.Contains(e.Error, "root/a") {
			t.Fatalf("reply %+v", st.respond)
		}
	})
	t.Run("a wait on ended children is answered at once", func(t *testing.T) {
		k := kidsOf(2, child("a", messages.AgentRunning, false))
		k.result("root", resultOf("a", messages.AgentDone), time.Now())
		st := k.waitFor("root", waiter, &messages.WaitAgents{Handles: []string{"a"}})
		if len(st.answers) != 1 || st.arm != nil {
			t.Fatalf("answers %d, armed %v", len(st.answers), st.arm)
		}
	})
	t.Run("a wait on a running child is armed, and its timeout answers what is in", func(t *testing.T) {
		k := kidsOf(2, child("a", messages.AgentRunning, false))
		st := k.waitFor("root", waiter, &messages.WaitAgents{Handles: []string{"a"}, TimeoutS: 0})
		if st.arm == nil || st.timeout != time.Second || len(st.answers) != 0 {
			t.Fatalf("armed %v for %v with %d answers; want armed for the 1 s floor", st.arm, st.timeout, len(st.answers))
		}
		exp := k.expired("root", st.arm.id)
		if len(exp.answers) != 1 || len(exp.answers[0].reply.Pending) != 1 {
			t.Fatalf("expired: %+v", exp.answers)
		}
		if again := k.expired("root", st.arm.id); len(again.answers) != 0 {
			t.Fatal("a wait was answered twice")
		}
	})
	t.Run("the session's end answers every wait", func(t *testing.T) {
		k := kidsOf(2, child("a", messages.AgentRunning, false))
		k.waitFor("root", waiter, &messages.WaitAgents{Handles: []string{"a"}})
		if st := k.releaseWaits("root"); len(st.answers) != 1 {
			t.Fatalf("%d answers", len(st.answers))
		}
	})
}

func TestChildrenStoppedAndGone(t *testing.T) {
	pid := actor.NewPID("local", "agent-a")
	a := child("a", messages.AgentRunning, false)
	a.pid = pid
	k := kidsOf(2, a)
	if ours, _ := k.stopped(actor.NewPID("local", "toolexec")); ours {
		t.Fatal("the executor's stop was taken for a child's")
	}
	ours, lost := k.stopped(pid)
	if !ours || lost != "a" || a.pid != nil {
		t.Fatalf("stopped: ours %v lost %q pid %v", ours, lost, a.pid)
	}
	st := k.gone("root", lost, time.Now())
	if !st.ended || a.rec.State != messages.AgentInterrupted || !strings.Contains(a.rec.Result.Error, "without reporting") {
		t.Fatalf("gone: %+v, state %s", st, a.rec.State)
	}
	if again := k.gone("root", lost, time.Now()); again.ended {
		t.Fatal("a child was ended twice")
	}
}

func TestChildrenDeliverAndList(t *testing.T) {
	k := kidsOf(2, child("a", messages.AgentRunning, false), child("b", messages.AgentRunning, true))
	if note, _ := k.deliver(); note != "" {
		t.Fatalf("nothing ended, yet a note: %q", note)
	}
	k.result("root", resultOf("b", messages.AgentDone), time.Now())
	note, delivered := k.deliver()
	if !strings.HasPrefix(note, "Subagent results:") || !strings.Contains(note, "b is done") || len(delivered) != 1 || !delivered[0].rec.Result.Delivered {
		t.Fatalf("note %q, delivered %d", note, len(delivered))
	}
	if note, _ := k.deliver(); note != "" {
		t.Fatal("a result was delivered twice")
	}
	list := k.list(time.Now())
	if len(list.Agents) != 2 || list.Agents[0].Handle != "root/a" || list.Agents[1].State != messages.AgentDone {
		t.Fatalf("list %+v", list.Agents)
	}
}

func TestChildrenAdmitAndCancel(t *testing.T) {
	spawn := &messages.SpawnAgent{TaskName: "x", Message: "look"}
	prepared := func(task string) *childAgent {
		c := child(task, "", false)
		c.rec.Session, c.start = "s-"+task, &messages.StartSession{}
		return c
	}
	k := kidsOf(1)
	if st := k.admit(prepared("a"), spawn, nil, true); st.start != nil || len(k.order) != 0 {
		t.Fatalf("a closed session admitted a child: %+v", st)
	} else if _, ok := st.respond.(*messages.ErrorReply); !ok {
		t.Fatalf("refusal %+v", st.respond)
	}
	a := prepared("a")
	st := k.admit(a, spawn, []string{"a note"}, false)
	if st.start != a || len(st.emit) != 1 || st.respond.(*messages.SpawnAccepted).State != messages.AgentRunning {
		t.Fatalf("the first child does not start: %+v", st)
	}
	k.set(a, messages.AgentRunning) // as startChild does
	b := prepared("b")
	st = k.admit(b, spawn, nil, false)
	if st.start != nil || len(st.save) != 1 || st.respond.(*messages.SpawnAccepted).State != messages.AgentQueued {
		t.Fatalf("the second child is not queued behind the one slot: %+v", st)
	}
	k.set(b, messages.AgentQueued)

	if st := k.cancel("root", &messages.CancelAgent{Handle: "nope"}, time.Now()); st.respond == nil || len(st.stop) != 0 {
		t.Fatalf("an unknown handle: %+v", st)
	}
	st = k.cancelAll("root", "the turn was cancelled", time.Now())
	if len(st.stop) != 1 || st.stop[0] != a || st.reason != "the turn was cancelled" {
		t.Fatalf("the running child is not told to stop: %+v", st.stop)
	}
	if b.rec.State != messages.AgentCancelled || !strings.Contains(b.rec.Result.Error, "before it started") || !st.ended {
		t.Fatalf("the queued child: state %s, result %+v", b.rec.State, b.rec.Result)
	}
	if st := k.cancel("root", &messages.CancelAgent{Handle: "b"}, time.Now()); len(st.stop) != 0 || st.respond.(*messages.AgentAck).Note != "it had already ended" {
		t.Fatalf("cancelling an ended child: %+v", st)
	}
}
