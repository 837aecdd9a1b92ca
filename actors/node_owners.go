package actors

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/troupe-dev/troupe/internal/idlemem"
	"github.com/troupe-dev/troupe/messages"
)

// A Node in its own process (docs/ARCHITECTURE.md "The node process") serves clients that
// come and go: a client's top-level session ends when the client does, and the Node stops once
// nothing runs and no client is connected for a while.

// sessionOwners remembers which client follows each top-level session it started: the client's
// connection id on the bus, and whether it is interactive (a chat). The bus callback that
// answers starts writes it; the Node's watch loop and its list query read it.
type sessionOwners struct {
	mu sync.Mutex
	m  map[string]sessionOwner
}

type sessionOwner struct {
	cid         uint64
	interactive bool
}

func (o *sessionOwners) set(start *messages.StartSession) {
	if start.Owner == 0 || start.Parent != "" {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m == nil {
		o.m = map[string]sessionOwner{}
	}
	o.m[start.ID] = sessionOwner{cid: start.Owner, interactive: start.Interactive}
}

func (o *sessionOwners) snapshot() map[string]sessionOwner {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make(map[string]sessionOwner, len(o.m))
	for id, w := range o.m {
		out[id] = w
	}
	return out
}

// orphaned lists the sessions among active whose owner is not among the connected clients
// (each once: it is dropped), and drops the owners of sessions no longer active.
func (o *sessionOwners) orphaned(active []string, connected map[uint64]bool) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []string
	for id, w := range o.m {
		switch {
		case !slices.Contains(active, id):
			delete(o.m, id)
		case connected != nil && !connected[w.cid]:
			out = append(out, id)
			delete(o.m, id)
		}
	}
	return out
}

// remoteClients are the connections to the embedded bus from other processes (an in-process
// connection has no port), by client id; nil when the Node joined an external bus.
func (n *Node) remoteClients() map[uint64]bool {
	if n.bus == nil || n.bus.server == nil {
		return nil
	}
	cz, err := n.bus.server.Connz(&server.ConnzOptions{Limit: 4096})
	if err != nil {
		return nil
	}
	out := make(map[uint64]bool, len(cz.Conns))
	for _, c := range cz.Conns {
		if c.Port != 0 {
			out[c.Cid] = true
		}
	}
	return out
}

// attached reports the sessions an interactive client that is still connected follows.
func (n *Node) attached() map[string]bool {
	owners := n.owners.snapshot()
	if len(owners) == 0 {
		return nil
	}
	conns := n.remoteClients()
	out := map[string]bool{}
	for id, w := range owners {
		if w.interactive && conns[w.cid] {
			out[id] = true
		}
	}
	return out
}

// stopSession asks the supervisor to stop a top-level session: its client went away.
type stopSession struct{ id string }

// watchEvery is how often ServeUntilIdle looks at the clients and sessions: a client killed
// with its session running has it cancelled within about this long.
const watchEvery = 200 * time.Millisecond

// ServeUntilIdle serves until ctx ends or, with idle > 0, until no session has run and no
// client has been connected for idle. Meanwhile a top-level session whose client went away is
// stopped (it records itself as interrupted and stays resumable). It reports whether it
// stopped for being idle.
func (n *Node) ServeUntilIdle(ctx context.Context, idle time.Duration) bool {
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	var idleSince time.Time
	var release idlemem.Releaser // hands back what a quiet Node no longer uses
	for {
		select {
		case <-ctx.Done():
			return false
		case now := <-tick.C:
			release.ReleaseIfQuiet(now)
			active := n.Active()
			conns := n.remoteClients()
			for _, id := range n.owners.orphaned(active, conns) {
				n.opts.Log.Info("the client of a session went away: stopping it", "session", id)
				n.system.Root.Send(n.supervisor, &stopSession{id: id})
			}
			if len(active) > 0 || len(conns) > 0 || idle <= 0 {
				idleSince = time.Time{}
				continue
			}
			if idleSince.IsZero() {
				idleSince = now
			}
			if now.Sub(idleSince) >= idle {
				return true
			}
		}
	}
}
