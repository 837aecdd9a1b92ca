package actors

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// What a parent does with a child's setup that came back from off its actor.
func TestChildBuiltDecides(t *testing.T) {
	broken, late := errors.New("no such role file"), errors.New("future: timeout")
	cases := []struct {
		name                       string
		parentFinished, childEnded bool
		err, timeout               error
		want                       setupAction
		why                        string // a part of the failed result's error
	}{
		{name: "built: spawn it", want: setupSpawn},
		{name: "the factory failed: the child fails to start with its words", err: broken, want: setupFail, why: "could not start: no such role file"},
		{name: "the setup took too long: the child fails to start", timeout: late, want: setupFail, why: "took longer than"},
		{name: "the parent finished meanwhile: nothing is spawned", parentFinished: true, want: setupDrop},
		{name: "the parent finished and the setup failed: nothing either", parentFinished: true, err: broken, want: setupDrop},
		{name: "the child was cancelled while built: its result is written, nothing is spawned", childEnded: true, want: setupDrop},
		{name: "cancelled, and the setup timed out: still nothing", childEnded: true, timeout: late, want: setupDrop},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, why := childBuilt(tc.parentFinished, tc.childEnded, tc.err, tc.timeout)
			if got != tc.want || !strings.Contains(why, tc.why) || (tc.why == "") != (why == "") {
				t.Fatalf("childBuilt = %v %q, want %v with %q", got, why, tc.want, tc.why)
			}
		})
	}
}

// A child cancelled while its setup is built ends at once as cancelled before it started: a
// wait on it is answered now, and no Cancel is sent to a session that does not exist yet.
func TestChildrenCancelAChildWhoseSetupIsBuilt(t *testing.T) {
	a := child("a", messages.AgentRunning, false)
	a.building = true
	k := kidsOf(1, a, child("b", messages.AgentQueued, false))
	k.wait(actor.NewPID("local", "waiter"), []string{"a"})
	st := k.cancel("root", &messages.CancelAgent{Handle: "a"}, time.Now())
	if len(st.stop) != 0 {
		t.Fatalf("a Cancel would go to a session not spawned yet: %+v", st.stop)
	}
	if a.rec.State != messages.AgentCancelled || !strings.Contains(a.rec.Result.Error, "before it started") || !st.ended || len(st.answers) != 1 {
		t.Fatalf("state %s, result %+v, ended %v, %d answers", a.rec.State, a.rec.Result, st.ended, len(st.answers))
	}
	if act, _ := childBuilt(false, messages.AgentFinal(a.rec.State), nil, nil); act != setupDrop {
		t.Fatalf("its setup, back, leads to %v", act)
	}
}

// What the supervisor does with a top-level session's setup that came back, given what
// happened to the run meanwhile.
func TestSessionBookDecidesOnABuiltSetup(t *testing.T) {
	starter, queued := actor.NewPID("l", "starter"), actor.NewPID("l", "queued")
	cases := []struct {
		name     string
		meantime func(b *sessionBook, r *sessionRun)
		failure  string
		want     setupAction
		why      string
		next     int
	}{
		{name: "built, nothing happened: spawn it", want: setupSpawn},
		{name: "a second start meanwhile was refused: spawn the first", want: setupSpawn,
			meantime: func(b *sessionBook, _ *sessionRun) {
				if got := b.admit(bookStart("s1", queued)); got != refuseRunning {
					t.Fatalf("a start while building: %v", got)
				}
			}},
		{name: "the factory failed: its starter gets its words", failure: "unknown model x", want: setupFail, why: "unknown model x"},
		{name: "asked to stop meanwhile (its client went away): not spawned, and a start that waited goes on",
			meantime: func(b *sessionBook, _ *sessionRun) {
				if pid := b.stopping("s1"); pid != nil {
					t.Fatalf("stopping a run being built names an actor: %v", pid)
				}
				if got := b.admit(bookStart("s1", queued)); got != admitAfterStop {
					t.Fatalf("a start after the stop: %v", got)
				}
			}, want: setupFail, why: "stopped before it started", next: 1},
		{name: "the node is stopping (its starters were answered): nothing", want: setupDrop,
			meantime: func(b *sessionBook, _ *sessionRun) {
				if got := b.waiting(); len(got) != 1 || got[0] != starter {
					t.Fatalf("waiting: %v", got)
				}
			}},
		{name: "a run that is no longer the book's: nothing", want: setupDrop,
			meantime: func(b *sessionBook, r *sessionRun) { delete(b.runs, "s1") }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := newSessionBook()
			q := bookStart("s1", starter)
			if got := b.admit(q); got != admitNow {
				t.Fatalf("admit: %v", got)
			}
			r := b.building(q)
			if tc.meantime != nil {
				tc.meantime(b, r)
			}
			st := b.built("s1", r, tc.failure)
			if st.act != tc.want || !strings.Contains(st.why, tc.why) || len(st.next) != tc.next {
				t.Fatalf("built = %+v, want %v with %q and %d queued", st, tc.want, tc.why, tc.next)
			}
			switch st.act {
			case setupSpawn:
				run := actor.NewPID("l", "supervisor/s1")
				b.launched("s1", run, starter)
				if to := b.up("s1"); to != starter {
					t.Fatalf("up answers %v, want the starter", to)
				}
				if id, _, _ := b.stopped(run.Id); id != "s1" {
					t.Fatalf("the launched run is not the book's: %q", id)
				}
			case setupFail:
				if st.starter != starter || len(b.active()) != 0 {
					t.Fatalf("starter %v, active %v", st.starter, b.active())
				}
			}
		})
	}
}

// The supervisor keeps answering while a session's setup is being built (it reads the disk
// and may wait for MCP servers), and a session asked to stop meanwhile is never spawned: its
// starter is told so.
func TestSupervisorAnswersWhileASetupIsBuilt(t *testing.T) {
	sys := actor.NewActorSystem()
	defer sys.Shutdown()
	release, called := make(chan struct{}), make(chan struct{})
	factory := func(*messages.StartSession) (SessionDeps, error) {
		close(called)
		<-release
		return SessionDeps{}, nil // spawning a session with these would fail its start: it must not be spawned
	}
	sup, err := sys.Root.SpawnNamed(actor.PropsFromProducer(newSupervisor(factory)), "supervisor")
	if err != nil {
		t.Fatal(err)
	}
	started := sys.Root.RequestFuture(sup, &messages.StartSession{ID: "s1"}, testwait.Scale(30*time.Second))
	select {
	case <-called:
	case <-time.After(testwait.Scale(30 * time.Second)):
		t.Fatal("the factory was not called")
	}
	active, err := sys.Root.RequestFuture(sup, &activeSessions{}, testwait.Scale(30*time.Second)).Result()
	if err != nil {
		close(release)
		t.Fatalf("the supervisor did not answer while the setup was built: %v", err)
	}
	if ids, _ := active.([]string); len(ids) != 1 || ids[0] != "s1" {
		t.Fatalf("active while building: %v", active)
	}
	sys.Root.Send(sup, &stopSession{id: "s1"})
	// The stop is taken before the setup comes back: a second request is answered after it.
	if _, err := sys.Root.RequestFuture(sup, &activeSessions{}, testwait.Scale(30*time.Second)).Result(); err != nil {
		t.Fatal(err)
	}
	close(release)
	res, err := started.Result()
	if err != nil {
		t.Fatalf("the start was not answered: %v", err)
	}
	if e, ok := res.(*messages.ErrorReply); !ok || !strings.Contains(e.Error, "stopped before it started") {
		t.Fatalf("answer %#v", res)
	}
	active, err = sys.Root.RequestFuture(sup, &activeSessions{}, testwait.Scale(30*time.Second)).Result()
	if ids, _ := active.([]string); err != nil || len(ids) != 0 {
		t.Fatalf("active after the dropped start: %v %v", active, err)
	}
}
