package actors

import (
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/messages"
)

// Where a child runs ([agents] placement, docs/CONFIG.md): on this Node, as a protoactor child
// of its parent, or on a worker, as a SpawnTask on the project's task queue. The decision is
// taken twice: when the child is admitted (want), from what the parent knows; and by the
// dispatcher (dispatch.go), which knows whether any worker is attached and refuses a task it
// cannot place, so the child starts locally after all.

// placeInput is what the placement of one child depends on.
type placeInput struct {
	configured string // the session's placement ("": local)
	pinned     string // the role's placement ("": follow configured)
	writes     bool   // the child may change the workspace (its mode is not plan)
	long       bool   // the child is expected to run long: background, or in its own worktree
	localFree  bool   // a local slot is free (running local children < max_running)
}

// placeWant is where a child should run, as far as the parent can tell.
type placeWant int

const (
	placeLocal  placeWant = iota // start it here
	placeRemote                  // send it to the task queue; start it here if no worker is attached
)

// want decides where a child should run. workers sends every child out; auto sends writing and
// long children out and keeps read-only ones local while local slots are free.
func (in placeInput) want() placeWant {
	p := in.pinned
	if p == "" {
		p = in.configured
	}
	switch p {
	case config.PlacementWorkers:
		return placeRemote
	case config.PlacementAuto:
		if in.writes || in.long || !in.localFree {
			return placeRemote
		}
	}
	return placeLocal
}

// strict reports whether the placement insists on workers: a child that cannot be sent out is
// then worth one warning (auto falls back silently, since local is one of its choices).
func (in placeInput) strict() bool {
	p := in.pinned
	if p == "" {
		p = in.configured
	}
	return p == config.PlacementWorkers
}

// childWrites reports whether a child started with mode may change the workspace.
func childWrites(mode messages.Mode, planSafeBash bool) bool {
	return mode != messages.ModePlan && !planSafeBash
}
