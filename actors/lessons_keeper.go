package actors

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/lessons"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// lessonKeeper writes the project's lessons for the Node's sessions (docs/ARCHITECTURE.md, "The
// learning layer"): a goroutine it owns runs the writes in order, so no session's Receive waits
// on the disk, and Node.close drains it before the store closes. The decisions (merging a lesson
// learnt again, scoring, fading) are actors/lessons'.
type lessonKeeper struct {
	store *store.Store
	log   *slog.Logger

	mu     sync.Mutex
	closed bool
	jobs   chan func()
	done   chan struct{}

	snapMu sync.Mutex
	snap   lessonSnapshot
	loaded chan struct{} // closed once snap holds the first read (the store may still be opening)
}

// lessonQueue bounds the writes waiting; past it a lesson is dropped with a warning rather than
// make a session wait.
const lessonQueue = 256

func newLessonKeeper(st *store.Store, log *slog.Logger) *lessonKeeper {
	k := &lessonKeeper{store: st, log: log, jobs: make(chan func(), lessonQueue), done: make(chan struct{}), loaded: make(chan struct{})}
	go func() {
		defer close(k.done)
		k.refresh() // once the store is open (store.Start): the node starts meanwhile
		close(k.loaded)
		for job := range k.jobs {
			job()
			if len(k.jobs) == 0 {
				k.refresh() // once the writes queued together are done
			}
		}
	}()
	return k
}

// close stops taking writes and waits for the queued ones.
func (k *lessonKeeper) close() {
	if k == nil {
		return
	}
	k.mu.Lock()
	if !k.closed {
		k.closed = true
		close(k.jobs)
	}
	k.mu.Unlock()
	<-k.done
}

func (k *lessonKeeper) enqueue(what string, job func()) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		k.log.Warn("lesson write after the node closed: dropped", "what", what)
		return false
	}
	select {
	case k.jobs <- job:
		return true
	default:
		k.log.Warn("lesson writes backed up: dropped", "what", what)
		return false
	}
}

// barrier is closed once every write queued before it has run (at once if none can be queued).
func (k *lessonKeeper) barrier() <-chan struct{} {
	ch := make(chan struct{})
	if !k.enqueue("barrier", func() { close(ch) }) {
		close(ch)
	}
	return ch
}

// lessonSnapshot is the project's lessons as last read by the keeper: what sessions start
// with, so that no actor reads them from disk.
type lessonSnapshot struct {
	known   []messages.Lesson // best first; never modified once published
	skipped []string
	epoch   int
	err     error
}

// refresh reads the lessons from the store into the snapshot, deleting those that faded out.
// It runs on the keeper's goroutine.
func (k *lessonKeeper) refresh() {
	snap := lessonSnapshot{}
	if snap.epoch, snap.err = k.store.LessonEpoch(); snap.err == nil {
		var all []messages.Lesson
		all, snap.skipped, snap.err = readLessons(k.store)
		for _, l := range all {
			if !lessons.Dropped(&l, snap.epoch) {
				snap.known = append(snap.known, l)
				continue
			}
			if _, err := k.store.DeleteLesson(l.ID); err != nil {
				k.log.Warn("drop a faded lesson", "id", l.ID, "err", err)
			}
		}
	}
	k.snapMu.Lock()
	k.snap = snap
	k.snapMu.Unlock()
}

// snapshot is the lessons as last read, once they have been read (off the actors: a session's
// setup).
func (k *lessonKeeper) snapshot() lessonSnapshot {
	<-k.loaded
	k.snapMu.Lock()
	defer k.snapMu.Unlock()
	return k.snap
}

// learn stores l (merged into the stored lesson of the same trap, if any) and tells the session
// self, by message, once it is stored.
func (k *lessonKeeper) learn(root *actor.RootContext, self *actor.PID, turn int, l messages.Lesson) bool {
	return k.enqueue("store lesson "+l.ID, func() {
		relearnt := false
		err := k.store.UpdateLesson(l.ID, func(old []byte) ([]byte, error) {
			epoch, err := k.store.LessonEpoch()
			if err != nil {
				return nil, err
			}
			next := l
			next.LastEpoch = epoch
			if old != nil {
				if prev, err := lessons.Decode(l.ID, old); err == nil {
					next, relearnt = lessons.Merge(prev, l, epoch), true
				}
			}
			return lessons.Encode(&next)
		})
		if err != nil {
			k.log.Warn("store a lesson", "id", l.ID, "err", err)
			return
		}
		root.Send(self, &lessonStored{data: messages.LessonStoredData{Turn: turn, ID: l.ID, Trigger: l.Trigger,
			Failed: l.Failed, Fixed: l.Fixed, Files: l.Files, Relearnt: relearnt}})
	})
}

// score records a finished session's outcomes and counts it in the epoch.
func (k *lessonKeeper) score(outcomes []lessons.Outcome) {
	k.enqueue("score lessons", func() {
		epoch, err := k.store.NextLessonEpoch()
		if err != nil {
			k.log.Warn("advance the lesson epoch", "err", err)
			return
		}
		now := time.Now()
		for _, o := range outcomes {
			err := k.store.UpdateLesson(o.ID, func(old []byte) ([]byte, error) {
				l, err := lessons.Decode(o.ID, old)
				if old == nil || err != nil {
					return old, nil // forgotten meanwhile, or unreadable: left as it is
				}
				l = lessons.Apply(l, o, epoch, now)
				return lessons.Encode(&l)
			})
			if err != nil {
				k.log.Warn("score a lesson", "id", o.ID, "err", err)
			}
		}
	})
}

// forget deletes the lesson whose id is id or starts with it (one only).
func (k *lessonKeeper) forget(id string) (string, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return "", fmt.Errorf("forget a lesson: give its id (troupe lessons list shows them)")
	}
	var match []string
	if err := k.store.EachLesson(func(stored string, _ []byte) {
		if strings.HasPrefix(stored, id) {
			match = append(match, stored)
		}
	}); err != nil {
		return "", err
	}
	switch len(match) {
	case 0:
		return "", fmt.Errorf("no lesson %q in this project (troupe lessons list shows them)", id)
	case 1:
	default:
		return "", fmt.Errorf("%q names %d lessons (%s); give more of the id", id, len(match), strings.Join(match, ", "))
	}
	if _, err := k.store.DeleteLesson(match[0]); err != nil {
		return "", err
	}
	k.enqueue("refresh after forget", func() {}) // the next sessions start without it
	return match[0], nil
}

// lessonStored tells a session its lesson is in the store.
type lessonStored struct{ data messages.LessonStoredData }

// lessonBook is the project's lessons for a top-level session, from the keeper's snapshot (a
// subagent neither learns nor is given lessons: its parent is). A store that could not be read
// leaves the session without lessons, not without a start.
func (n *Node) lessonBook(start *messages.StartSession) *LessonBook {
	if n.lessons == nil || start.Parent != "" || n.opts.Lessons.Off {
		return nil
	}
	snap := n.lessons.snapshot()
	if snap.err != nil {
		n.opts.Log.Warn("read the project's lessons", "err", snap.err)
		return nil
	}
	for _, line := range snap.skipped {
		n.opts.Log.Warn(line)
	}
	return &LessonBook{Known: slices.Clone(snap.known), Epoch: snap.epoch, MaxBytes: n.opts.Lessons.MaxBytes, keeper: n.lessons}
}

// LessonOptions configure the learning layer of a Node.
type LessonOptions struct {
	Off      bool // learn nothing, give nothing
	MaxBytes int  // the state block's bound; 0: lessons.DefaultMaxBytes
}

// listLessons answers troupe lessons from the store (not the snapshot: a lesson forgotten a
// moment ago is gone): every readable lesson, best first, and a line per record skipped.
func (n *Node) listLessons() any {
	known, skipped, err := readLessons(n.store)
	if err != nil {
		return &messages.ErrorReply{Error: err.Error()}
	}
	return &messages.LessonList{Lessons: known, Skipped: skipped}
}
