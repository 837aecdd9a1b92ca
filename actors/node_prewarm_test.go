package actors

import (
	"slices"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// A Node given a prewarm takes its compiled schemas instead of keeping a cache of its own, and
// its sessions' registries are built from them.
func TestNodeTakesThePrewarmsSchemas(t *testing.T) {
	p := StartPrewarm()
	node, err := StartNode(NodeOptions{Root: t.TempDir(), Prewarm: p})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	if node.schemas != &p.schemas {
		t.Fatal("the Node compiles into a cache of its own, not the prewarm's")
	}
	reg, _, err := node.sessionTools(&messages.StartSession{ID: "s1"}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if names := reg.Names(); !slices.Contains(names, "read_file") || !slices.Contains(names, "spawn_agent") {
		t.Errorf("a session's tools built from the prewarm's schemas: %v", names)
	}
}
