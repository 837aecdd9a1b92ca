package actors

import (
	"crypto/ed25519"

	"github.com/troupe-dev/troupe/tools"
)

// Prewarm is the part of a node's start that needs no project: the Ed25519 tables its bus keys
// are made and checked with (built once per process, on first use), and the built-in tools'
// compiled argument schemas. A node process started before it knows its project (one a client
// started early, cmd/troupe/internal/prespawn) runs it while it waits for its orders; the Node
// it then starts (NodeOptions.Prewarm) uses those schemas, waiting for the prewarm instead of
// compiling them a second time.
type Prewarm struct {
	schemas tools.SchemaCache
	done    chan struct{}
}

// StartPrewarm starts the prewarm on a goroutine that ends once it is done.
func StartPrewarm() *Prewarm {
	p := &Prewarm{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)) // the bus keys need it first
		var defaults Node                                      // the tools of a Node with no options
		_, _ = tools.NewRegistryWith(&p.schemas, defaults.nodeTools(true, true, nil)...)
	}()
	return p
}
