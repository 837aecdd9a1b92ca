package actors

import (
	"slices"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// A top-level session whose client's connection is gone is reported once; a detached one (no
// owner), a subagent, and one whose client is still connected are not; ended ones are forgotten.
func TestSessionOwnersFindTheOrphans(t *testing.T) {
	var o sessionOwners
	o.set(&messages.StartSession{ID: "kept", Owner: 1, Interactive: true})
	o.set(&messages.StartSession{ID: "orphan", Owner: 2})
	o.set(&messages.StartSession{ID: "ended", Owner: 2})
	o.set(&messages.StartSession{ID: "detached"})
	o.set(&messages.StartSession{ID: "child", Owner: 2, Parent: "orphan"})
	active := []string{"kept", "orphan", "detached", "child"}
	connected := map[uint64]bool{1: true}
	if got := o.orphaned(active, connected); !slices.Equal(got, []string{"orphan"}) {
		t.Errorf("orphaned = %v, want [orphan]", got)
	}
	if got := o.orphaned(active, connected); len(got) != 0 {
		t.Errorf("reported twice: %v", got)
	}
	if _, ok := o.snapshot()["ended"]; ok {
		t.Errorf("the owner of an ended session is kept")
	}
	if got := o.orphaned(active, nil); len(got) != 0 { // an external bus: clients unknown
		t.Errorf("orphaned with clients unknown = %v", got)
	}
}
