package actors

import (
	"os"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/tools/sandbox"
)

// diskMemo holds what the Node reads from disk for every session it starts (the role files, the
// credential list of a workspace), so that a session's or a child's start reads it from memory
// instead of the disk on an actor (docs/ARCHITECTURE.md, "What blocks an actor"). The first read
// of a key is made by its first caller (the Node warms its root's keys at start, off any actor);
// after that a caller always gets the value in memory, and one older than fresh is read again in
// the background, so an edited file is seen a moment later without an actor waiting on it.
//
// The memo is the Node's, not an actor's: its values are immutable once read (callers must not
// change them) and the map is guarded, so the sessions that ask it share no mutable value.
type diskMemo[V any] struct {
	read  func(key string) V
	fresh time.Duration
	now   func() time.Time
	// waits, if set, is told when a caller starts waiting for a warm's read (tests).
	waits func(key string)

	mu      sync.Mutex
	entries map[string]*memoEntry[V]
	// first holds, for each key whose first read a warm started and has not finished, a
	// channel closed when it has: a caller waits for that read instead of making a second.
	first   map[string]chan struct{}
	closed  bool
	pending sync.WaitGroup // background reads; close waits for them
}

type memoEntry[V any] struct {
	val     V
	at      time.Time
	reading bool // a background re-read is under way
}

func newDiskMemo[V any](fresh time.Duration, read func(key string) V) *diskMemo[V] {
	return &diskMemo[V]{read: read, fresh: fresh, now: time.Now, entries: map[string]*memoEntry[V]{}, first: map[string]chan struct{}{}}
}

// get returns key's value: read now on its first use, from memory after that.
func (m *diskMemo[V]) get(key string) V {
	m.mu.Lock()
	if e, ok := m.entries[key]; ok {
		if !e.reading && !m.closed && m.now().Sub(e.at) > m.fresh {
			e.reading = true
			m.pending.Add(1)
			go m.reread(key)
		}
		v := e.val
		m.mu.Unlock()
		return v
	}
	if done, ok := m.first[key]; ok { // a warm is reading it: one read, not two at once
		m.mu.Unlock()
		if m.waits != nil {
			m.waits(key)
		}
		<-done
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.entries[key].val
	}
	m.mu.Unlock()
	return m.store(key, m.read(key))
}

// warm reads key in the background (the Node's start, while the bus comes up); a caller who
// asks before it is read waits for that read (a huge directory above the workspace makes the
// credential list's read take a while: a session starting meanwhile must not read it again).
func (m *diskMemo[V]) warm(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.entries[key]; ok || m.closed {
		return
	}
	if _, ok := m.first[key]; ok {
		return
	}
	done := make(chan struct{})
	m.first[key] = done
	m.pending.Add(1)
	go func() { // ends once key is read
		defer m.pending.Done()
		v := m.read(key)
		m.mu.Lock()
		defer m.mu.Unlock()
		m.entries[key] = &memoEntry[V]{val: v, at: m.now()}
		delete(m.first, key)
		close(done)
	}()
}

func (m *diskMemo[V]) reread(key string) {
	defer m.pending.Done()
	m.store(key, m.read(key))
}

func (m *diskMemo[V]) store(key string, v V) V {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries[key] = &memoEntry[V]{val: v, at: m.now()}
	return v
}

// close waits for the background re-reads and starts no more.
func (m *diskMemo[V]) close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.pending.Wait()
}

// How long a value read from disk serves before it is read again in the background.
const memoFresh = 2 * time.Second

// loadedRoles is the project's roles as read (config.LoadRoles): those that load, and the
// error of those that do not.
type loadedRoles struct {
	roles []config.Role
	err   error
}

// newMemos makes the Node's memos; warmMemos starts reading its root's.
func (n *Node) newMemos() {
	home, _ := os.UserHomeDir()
	n.hidden = newDiskMemo(memoFresh, func(workspace string) []string {
		return sandbox.HiddenPaths(home, workspace, n.opts.UserConfigDir, n.opts.DenyRead, n.opts.AllowRead)
	})
	n.roles = newDiskMemo(memoFresh, func(root string) loadedRoles {
		roles, err := config.LoadRoles(root)
		return loadedRoles{roles, err}
	})
}

// warmMemos reads the root's credential list and roles in the background. StartNode calls it
// once the node answers, not before: the reads (a directory listing of each of the root's
// parents) are not needed before a session starts, after the store's open, and run meanwhile
// instead of beside the bus's start and the open, on a machine of two cores.
func (n *Node) warmMemos() {
	n.hidden.warm(n.Root)
	n.roles.warm(n.Root)
}
