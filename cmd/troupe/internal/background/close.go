package background

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/troupe-dev/troupe/actors"
)

// CloseGrace bounds how long a node's exit waits for its store to close whole.
const CloseGrace = 5 * time.Second

// CloseServed closes the node troupe serve ran (exitAfter: the process exits next). The store is closed whole, not only synced (as a
// one-shot's own node is, actors.Node.CloseForExit): Badger then writes its memtable out as a
// table and trims the value log's last file, work the next node start would otherwise do
// before it serves its first client (replaying the log, reading through the file's unused
// tail: half the CPU of the store's open, bench/startup.sh), while nobody waits on a node's
// exit. In a process that exits next, a close that does not finish within CloseGrace (Badger
// retries a memtable flush that keeps failing) is left to the exit, and a store whose directory
// is gone is only synced: Badger recovers from a store left open as from a crash, which loses
// no acknowledged write.
func CloseServed(node *actors.Node, exitAfter bool, stderr io.Writer) error {
	if !exitAfter {
		return node.Close()
	}
	if _, err := os.Stat(node.Store().Dir()); err != nil {
		return node.CloseForExit()
	}
	done := make(chan error, 1)
	go func() { done <- node.Close() }() // if it hangs, the process's exit ends it
	select {
	case err := <-done:
		return err
	case <-time.After(CloseGrace):
		fmt.Fprintf(stderr, "troupe: the store did not close within %v: exiting anyway (an unclosed store loses no acknowledged write)\n", CloseGrace)
		return nil
	}
}
