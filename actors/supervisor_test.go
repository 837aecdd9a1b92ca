package actors

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

func bookStart(id string, replyTo *actor.PID) queuedStart {
	return queuedStart{start: &messages.StartSession{ID: id}, replyTo: replyTo}
}

// The book's decisions over a session's life: refused while running, queued while finishing,
// released when stopped; the start's answer goes to its requester exactly once.
func TestSessionBookStartsResumesOnlyAfterThePreviousRunStopped(t *testing.T) {
	b := newSessionBook()
	first, second, third := actor.NewPID("l", "first"), actor.NewPID("l", "second"), actor.NewPID("l", "third")
	run1 := actor.NewPID("l", "supervisor/s1")
	if got := b.admit(bookStart("s1", first)); got != admitNow {
		t.Fatalf("first start: %v, want admitNow", got)
	}
	b.launched("s1", run1, first)
	if got := b.admit(bookStart("s1", second)); got != refuseRunning {
		t.Fatalf("start while running: %v, want refuseRunning", got)
	}
	if to := b.up("s1"); to != first {
		t.Fatalf("up answers %v, want the first requester", to)
	}
	if to := b.up("s1"); to != nil {
		t.Fatalf("a second up (a restarted incarnation) answers %v again", to)
	}
	if to := b.finishing("s1"); to != nil {
		t.Fatalf("finishing after up answers %v; the start was answered already", to)
	}
	if got := b.admit(bookStart("s1", third)); got != admitAfterStop {
		t.Fatalf("resume while finishing: %v, want admitAfterStop", got)
	}
	if ids := b.active(); len(ids) != 1 {
		t.Fatalf("active while finishing: %v", ids)
	}
	id, starter, next := b.stopped(run1.Id)
	if id != "s1" || starter != nil || len(next) != 1 || next[0].replyTo != third {
		t.Fatalf("stopped: id %q, starter %v, next %+v", id, starter, next)
	}
	if got := b.admit(bookStart("s1", third)); got != admitNow {
		t.Fatalf("after the stop: %v, want admitNow", got)
	}
}

// When the node stops, everyone still waiting for a start is named once, so each gets an
// answer rather than a timeout.
func TestSessionBookNamesEveryWaiterWhenTheNodeStops(t *testing.T) {
	b := newSessionBook()
	first, queued := actor.NewPID("l", "first"), actor.NewPID("l", "queued")
	b.launched("s1", actor.NewPID("l", "supervisor/s1"), first)
	b.launched("s2", actor.NewPID("l", "supervisor/s2"), nil)
	b.finishing("s2")
	b.admit(bookStart("s2", queued))
	got := b.waiting()
	if len(got) != 2 || !slices.Contains(got, first) || !slices.Contains(got, queued) {
		t.Fatalf("waiting: %v", got)
	}
	if again := b.waiting(); len(again) != 0 {
		t.Fatalf("named twice: %v", again)
	}
}

// A session that fails before it is up: its requester gets the failure, not a timeout.
func TestSessionBookAnswersAFailedStartWithTheFailure(t *testing.T) {
	b := newSessionBook()
	req, run := actor.NewPID("l", "req"), actor.NewPID("l", "supervisor/s2")
	b.launched("s2", run, req)
	if to := b.finishing("s2"); to != req {
		t.Fatalf("finishing before up answers %v, want the requester", to)
	}
	if to := b.up("s2"); to != nil {
		t.Fatalf("up after finishing answers %v", to)
	}
	if id, starter, _ := b.stopped(run.Id); id != "s2" || starter != nil {
		t.Fatalf("stopped: %q %v", id, starter)
	}
	// A run that stopped without a word (it crashed for good while starting) still has its
	// requester answered on the stop.
	b.launched("s3", run, req)
	if _, starter, _ := b.stopped(run.Id); starter != req {
		t.Fatalf("silent stop: starter %v, want the requester", starter)
	}
}

// A resume sent the moment the previous run's session.finished arrives is not refused as
// "already running": the node waits for that run to stop. (Users do this: troupe run, then
// troupe resume at once; TestFileRecordsAreRestoredOnResume hit it under load.)
func TestResumeRightAfterFinishedWaitsForThePreviousRun(t *testing.T) {
	const runs = 8
	var turns []string
	for i := 0; i < runs; i++ {
		turns = append(turns, fmt.Sprintf(`{"text": "run %d"}`, i))
	}
	tn := startTestNode(t, `{"turns": [`+strings.Join(turns, ",")+`]}`)
	finished := make(chan *messages.Envelope, runs)
	if _, err := tn.client.Subscribe(messages.SessionEventsSubject(tn.NS, "again"), func(e *messages.Envelope) {
		if e.Type == messages.EventSessionFinished {
			finished <- e
		}
	}); err != nil {
		t.Fatal(err)
	}
	start := &messages.StartSession{ID: "again", Task: "go", Model: "scripted", Mode: "yolo", Workspace: tn.Root}
	for i := 0; i < runs; i++ {
		if err := tn.client.StartSession(start); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		select {
		case e := <-finished:
			v, _ := e.DecodeData()
			if fin := v.(*messages.SessionFinishedData); fin.Final != fmt.Sprintf("run %d", i) {
				t.Fatalf("run %d finished: %+v", i, fin)
			}
		case <-time.After(testwait.Scale(30 * time.Second)):
			t.Fatalf("run %d did not finish", i)
		}
		start = &messages.StartSession{ID: "again", Resume: true, Task: "go on", Model: "scripted", Mode: "yolo", Workspace: tn.Root}
	}
}

// seq is per session (docs/ARCHITECTURE.md, "Events and seq"): a resumed run's events go on after the last run's, so a
// monitor watching across runs sees one gap-free sequence.
func TestEventSeqGoesOnAcrossResumes(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "list_dir", "args": {"path": "."}}]}, {"text": "first"},
		{"text": "second"}, {"text": "third"}]}`)
	start := &messages.StartSession{ID: "seqs", Task: "go", Model: "scripted", Mode: "yolo", Workspace: tn.Root}
	for run := 1; run <= 3; run++ {
		if err := tn.client.StartSession(start); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		checkFor(t, 30*time.Second, func() error {
			if n := tn.count("seqs", messages.EventSessionFinished); n < run {
				return fmt.Errorf("%d runs finished, want %d", n, run)
			}
			return nil
		})
		start = &messages.StartSession{ID: "seqs", Resume: true, Task: "go on", Model: "scripted", Mode: "yolo", Workspace: tn.Root}
	}
	var seqs []uint64
	for _, e := range tn.sessionEvents("seqs") {
		seqs = append(seqs, e.Seq)
	}
	slices.Sort(seqs)
	for i, s := range seqs {
		if s != uint64(i+1) {
			t.Fatalf("seqs over three runs are not 1..%d without repeats: %v", len(seqs), seqs)
		}
	}
}
