package actors

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// A Node given a prewarm takes its compiled schemas instead of keeping a cache of its own, and
// its sessions' registries are built from them.
func TestNodeTakesThePrewarmsSchemas(t *testing.T) {
	p := StartPrewarm("", nil)
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

// existingStore makes root a project whose store exists (a node ran in it before).
func existingStore(t *testing.T) (root, dbDir string) {
	t.Helper()
	root = t.TempDir()
	dbDir = filepath.Join(StateDir(root), "db")
	st, err := store.Open(dbDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return root, dbDir
}

// A prewarm in a project whose store exists starts it, holding its lock (a second opener is
// refused, as a racing client's node is), and the Node of that project takes it.
func TestNodeTakesThePrewarmsStore(t *testing.T) {
	root, dbDir := existingStore(t)
	p := StartPrewarm(root, nil)
	<-p.done
	if _, err := store.Open(dbDir, nil); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("a store opened while the prewarm holds it: %v, want ErrLocked", err)
	}
	node, err := StartNode(NodeOptions{Root: root, Prewarm: p})
	if err != nil {
		t.Fatal(err)
	}
	if node.Store() == nil || node.Store().Dir() != dbDir {
		t.Fatalf("the Node's store is not the project's")
	}
	if err := node.Store().Ready(); err != nil {
		t.Fatal(err)
	}
	if err := node.Close(); err != nil {
		t.Fatal(err)
	}
	p.Drop() // nothing left to drop: the Node took it
	st, err := store.Open(dbDir, nil)
	if err != nil {
		t.Fatalf("the store after the Node closed: %v", err)
	}
	st.Close()
}

// A prewarm whose orders name another project closes the store it started there, and a dropped
// one releases its store; neither creates a store in a project that had none.
func TestPrewarmStoreDroppedOrElsewhere(t *testing.T) {
	root, dbDir := existingStore(t)
	p := StartPrewarm(root, nil)
	other := t.TempDir()
	node, err := StartNode(NodeOptions{Root: other, Prewarm: p})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	if node.Store().Dir() == dbDir {
		t.Fatal("a Node of another project took the prewarm's store")
	}
	st, err := store.Open(dbDir, nil)
	if err != nil {
		t.Fatalf("the prewarm's store, not taken, is still held: %v", err)
	}
	st.Close()

	p = StartPrewarm(root, nil)
	p.Drop()
	if st, err = store.Open(dbDir, nil); err != nil {
		t.Fatalf("a dropped prewarm's store is still held: %v", err)
	}
	st.Close()

	fresh := t.TempDir()
	StartPrewarm(fresh, nil).Drop()
	if _, err := os.Stat(StateDir(fresh)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a prewarm in a project with no store left %s behind: %v", StateDir(fresh), err)
	}
}
