package actors

import (
	"fmt"
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// children is what a session knows of the subagents it started and of the wait_agent calls
// waiting on them. It is a plain value owned by the session's actor: it answers questions and
// keeps the bookkeeping; the session performs the effects (spawning, stopping, replying).
type children struct {
	// delegation is what this session may start as subagents; nil means it cannot.
	delegation *Delegation
	// allowlist is the executor's session allowlist, as it last told it (SessionAllowlist):
	// children start with it.
	allowlist []string
	byTask    map[string]*childAgent
	order     []string // task names in spawn order
	waiters   []*agentWaiter
	waitSeq   int
	// adopting are the remote children a resumed session hands back to the dispatcher.
	adopting []*childAgent
	// warnedLocal is set once the session said that a child meant for the workers runs here.
	warnedLocal bool

	// Indexes and counts, so that a parent of n children pays O(1) per spawn, result and end
	// instead of a scan of every child (a burst of 10,000 spawns was O(n²) on the parent's
	// actor: bench/workers). The counts follow every state change, which goes through set.
	bySess     map[string]*childAgent
	index      map[string]int // a task's place in order
	nRunning   int            // started here and not ended (a remote child takes no local slot)
	nQueued    int
	nUnended   int
	nUnendedFg int // unended foreground children
	queuedFrom int // no child before order[queuedFrom] is queued
}

func newChildren() *children {
	return &children{byTask: map[string]*childAgent{}, bySess: map[string]*childAgent{}, index: map[string]int{}}
}

// add records a new child under its task name.
func (k *children) add(c *childAgent) {
	k.byTask[c.rec.Task] = c
	k.bySess[c.rec.Session] = c
	k.index[c.rec.Task] = len(k.order)
	k.order = append(k.order, c.rec.Task)
	k.count(c, 1)
}

// set changes a child's state, keeping the counts.
func (k *children) set(c *childAgent, state messages.AgentState) { k.move(c, state, c.remote) }

// move changes a child's state and whether it runs on the workers, keeping the counts.
func (k *children) move(c *childAgent, state messages.AgentState, remote bool) {
	known := k.byTask[c.rec.Task] == c
	if known {
		k.count(c, -1)
	}
	c.rec.State, c.remote, c.rec.Remote = state, remote, remote
	if !known {
		return
	}
	k.count(c, 1)
	if i := k.index[c.rec.Task]; state == messages.AgentQueued && i < k.queuedFrom {
		k.queuedFrom = i
	}
}

// count adds d to the counts c's state and placement fall in.
func (k *children) count(c *childAgent, d int) {
	switch c.rec.State {
	case messages.AgentRunning:
		if !c.remote {
			k.nRunning += d
		}
	case messages.AgentQueued:
		k.nQueued += d
	}
	if !messages.AgentFinal(c.rec.State) {
		k.nUnended += d
		if !c.rec.Background {
			k.nUnendedFg += d
		}
	}
}

// get is the child with a task name, or nil.
func (k *children) get(task string) *childAgent { return k.byTask[task] }

// inOrder is every child, in spawn order.
func (k *children) inOrder() []*childAgent {
	out := make([]*childAgent, len(k.order))
	for i, t := range k.order {
		out[i] = k.byTask[t]
	}
	return out
}

// unended is every child that has not ended, in spawn order.
func (k *children) unended() []*childAgent {
	var out []*childAgent
	for _, c := range k.inOrder() {
		if !messages.AgentFinal(c.rec.State) {
			out = append(out, c)
		}
	}
	return out
}

// bySession is the child whose session id is id, or nil.
func (k *children) bySession(id string) *childAgent { return k.bySess[id] }

// byPID is the child whose actor is pid, or nil. A child's actor is named agent-<task> under
// its parent (startChild), so its task is read off the PID rather than every child scanned.
func (k *children) byPID(pid *actor.PID) *childAgent {
	if i := strings.LastIndex(pid.Id, "/"+childActorPrefix); i >= 0 {
		if c := k.byTask[pid.Id[i+1+len(childActorPrefix):]]; c != nil && c.pid != nil && c.pid.Id == pid.Id {
			return c
		}
		return nil
	}
	for _, c := range k.byTask { // an actor named otherwise
		if c.pid != nil && c.pid.Id == pid.Id {
			return c
		}
	}
	return nil
}

// childActorPrefix begins the name of a child's actor: agent-<task>.
const childActorPrefix = "agent-"

// running counts the children that have started here and not ended (a remote child takes no
// local slot).
func (k *children) running() int { return k.nRunning }

// freeTaskName returns name, or name_2, name_3… when a child already has it.
func (k *children) freeTaskName(name string) string {
	if _, taken := k.byTask[name]; !taken {
		return name
	}
	for i := 2; ; i++ {
		n := fmt.Sprintf("%s_%d", name, i)
		if _, taken := k.byTask[n]; !taken {
			return n
		}
	}
}

// byHandle finds a child by its handle (own is the parent's handle), task name or a handle
// with a leading slash.
func (k *children) byHandle(own, h string) *childAgent {
	h = strings.TrimPrefix(strings.TrimSpace(h), "/")
	// Children are kept by task name, and a handle is the parent's handle plus the task: look
	// it up rather than scan (wait_agent on n handles checks each one on every result).
	if c := k.byTask[h]; c != nil {
		return c
	}
	if task, ok := strings.CutPrefix(h, own+"/"); ok {
		if c := k.byTask[task]; c != nil && c.rec.Handle == h {
			return c
		}
	}
	for _, c := range k.byTask {
		if c.rec.Handle == h || c.rec.Task == h {
			return c
		}
	}
	return nil
}

// handleList names every child's handle, for error messages.
func (k *children) handleList() string {
	if len(k.order) == 0 {
		return "none yet"
	}
	hs := make([]string, 0, len(k.order))
	for _, c := range k.inOrder() {
		hs = append(hs, c.rec.Handle)
	}
	return strings.Join(hs, ", ")
}

// allEnded reports whether every named child that exists has ended.
func (k *children) allEnded(own string, handles []string) bool {
	for _, h := range handles {
		if c := k.byHandle(own, h); c != nil && !messages.AgentFinal(c.rec.State) {
			return false
		}
	}
	return true
}

// undelivered returns the children whose results the model has not seen yet, in spawn order.
func (k *children) undelivered() []*childAgent {
	var out []*childAgent
	for _, c := range k.inOrder() {
		if c.rec.Result != nil && !c.rec.Result.Delivered {
			out = append(out, c)
		}
	}
	return out
}

// blocking counts the children the next model call must wait for: foreground children, or
// every child once a headless session holds its final answer.
func (k *children) blocking(holdingFinal bool) int {
	if holdingFinal {
		return k.nUnended
	}
	return k.nUnendedFg
}

// wait registers a wait_agent call.
func (k *children) wait(replyTo *actor.PID, handles []string) *agentWaiter {
	k.waitSeq++
	w := &agentWaiter{id: k.waitSeq, replyTo: replyTo, handles: handles}
	k.waiters = append(k.waiters, w)
	return w
}

// expire removes the wait with id and returns it, or nil if it was answered already.
func (k *children) expire(id int) *agentWaiter {
	i := slices.IndexFunc(k.waiters, func(w *agentWaiter) bool { return w.id == id })
	if i < 0 {
		return nil
	}
	w := k.waiters[i]
	k.waiters = slices.Delete(k.waiters, i, i+1)
	return w
}

// readyWaits removes and returns the waits whose children have all ended (every wait when
// force is set), and whether the newest wait is among them.
func (k *children) readyWaits(own string, force bool) (ready []*agentWaiter, newest bool) {
	kept := k.waiters[:0]
	for i, w := range k.waiters {
		if force || k.allEnded(own, w.handles) {
			ready = append(ready, w)
			newest = i == len(k.waiters)-1
			continue
		}
		kept = append(kept, w)
	}
	clear(k.waiters[len(kept):])
	k.waiters = kept
	return ready, newest
}
