package actors

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/messages"
)

// eventObjectTimeout bounds keeping or reading one oversized event's data.
const eventObjectTimeout = 30 * time.Second

// workerEvents is a worker's EventObjects: the whole data of its sessions' oversized events goes
// to the project's object store as evt/<session>/<seq> (the parent's machine and watchers
// cannot open the worker's store), and is deleted with its task once the task is acked. It is
// a service shared by the worker's sessions, as its store is: its one mutable value, the names
// kept per session, is behind its lock.
type workerEvents struct {
	objs  *gitship.Objects
	mu    sync.Mutex
	names map[string][]string // session → the objects of its events
}

func newWorkerEvents(objs *gitship.Objects) *workerEvents {
	return &workerEvents{objs: objs, names: map[string][]string{}}
}

// PutEvent keeps one event's whole data. It runs on the emitting session's goroutine: an
// event this large is rare (a tool's output is cut long before), and its place in the
// session's sequence must not move.
func (e *workerEvents) PutEvent(session string, seq uint64, data []byte) (*messages.ObjectRef, error) {
	ctx, cancel := context.WithTimeout(context.Background(), eventObjectTimeout)
	defer cancel()
	name := gitship.EventName(session, seq)
	ref, err := e.objs.PutBytes(ctx, name, data)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.names[session] = append(e.names[session], name)
	e.mu.Unlock()
	return ref, nil
}

// EventData reads an event's whole data back.
func (e *workerEvents) EventData(ref *messages.ObjectRef) ([]byte, error) {
	if err := e.objs.Check(ref); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), eventObjectTimeout)
	defer cancel()
	return e.objs.GetBytes(ctx, ref.Name)
}

// forget deletes the event objects of task's session and of the sessions under it (its
// children's ids extend its own: <task>-<name>).
func (e *workerEvents) forget(ctx context.Context, task string) error {
	e.mu.Lock()
	var names []string
	for s, n := range e.names {
		if s == task || strings.HasPrefix(s, task+"-") {
			names = append(names, n...)
			delete(e.names, s)
		}
	}
	e.mu.Unlock()
	if len(names) == 0 {
		return nil
	}
	return e.objs.Delete(ctx, names...)
}
