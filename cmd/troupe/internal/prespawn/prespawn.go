// Package prespawn starts the project's node process while the client that will need it is
// still initialising its own packages, so that the two initialisations run side by side instead
// of one after the other (docs/ARCHITECTURE.md "The node process").
//
// A cold `troupe run` used to pay two package initialisations in turn: its own (~12 ms quiet),
// then, once it had read its configuration and found no node, the node's (`troupe serve`, the
// same binary, another ~12 ms) before the node could open its store. The init of package launch
// (imported here) runs as early in the client's initialisation as Go's init order allows and, for
// a command that starts sessions in a project whose node.json names no live process, starts
// `troupe serve` at once with an argument that makes it wait, after its own initialisation,
// for the rest of its arguments on a pipe. background.Start hands them over (Take) instead of
// starting a process of its own; the node then runs exactly as one started there.
//
// A client that does not need it (a usage error, --help, a node that turned up meanwhile)
// drops it (Discard), or simply exits: either way the pipe closes and the waiting process exits
// having changed nothing in the project (what it started meanwhile, undone). Its cost is then its initialisation's CPU, never the
// user's wall time.
package prespawn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/prespawn/launch"
)

// AwaitArg is the argument a node started here runs with: `troupe serve AwaitArg`. Its real
// arguments come on the arguments pipe (Args).
const AwaitArg = launch.AwaitArg

// Child is a node process started here, waiting for its arguments.
type Child struct {
	Process *os.Process
	Ready   *os.File // the read end of its ready pipe
	args    *os.File // the write end of its arguments pipe
}

// Orders is what a waiting node is told to do: run troupe with Args in Dir, its output
// appended to Log.
type Orders struct {
	Dir  string   `json:"dir"`
	Log  string   `json:"log"`
	Args []string `json:"args"`
}

// Take returns the node started in this process's initialisation (by package launch, whose
// init does the starting), once; nil if there is none.
func Take() *Child {
	c := launch.Take()
	if c == nil {
		return nil
	}
	return &Child{Process: c.Process, Ready: c.Ready, args: c.Args}
}

// Discard drops the node started in this process's initialisation, if it was not taken: it
// exits on the closed pipe, and is reaped here.
func Discard() {
	if c := Take(); c != nil {
		c.Drop()
	}
}

// Give sends the child its orders; it then starts as `troupe <o.Args>` would in o.Dir.
func (c *Child) Give(o Orders) error {
	data, err := json.Marshal(o)
	if err != nil {
		return err
	}
	_, err = c.args.Write(append(data, '\n'))
	if cerr := c.args.Close(); err == nil {
		err = cerr
	}
	return err
}

// Drop closes the child's pipes and reaps it once it has exited (which it does on the closed
// pipe); the goroutine ends then.
func (c *Child) Drop() {
	c.args.Close()
	c.Ready.Close()
	go func() { _, _ = c.Process.Wait() }()
}

// Args is what main runs with: args themselves, or, for a node started by a client's
// initialisation (`serve AwaitArg`), the arguments the client sends once it needs the node,
// after moving to the directory and onto the log it names. meanwhile, if set, is called just
// before such a node starts waiting: work that needs no orders can start then (it must not
// block: the wait is for the client, not for it); what it returns, if not nil, undoes that work
// when the pipe closes without orders (the client did not need the node), after which the
// process exits.
func Args(args []string, meanwhile func() (undo func())) []string {
	if len(args) != 2 || args[0] != "serve" || args[1] != AwaitArg {
		return args
	}
	var undo func()
	if meanwhile != nil {
		undo = meanwhile()
	}
	f := os.NewFile(launch.ArgsFD, "args")
	data, err := io.ReadAll(io.LimitReader(f, 1<<20))
	f.Close()
	var o Orders
	if err != nil || len(bytes.TrimSpace(data)) == 0 || json.Unmarshal(data, &o) != nil {
		if undo != nil {
			undo()
		}
		os.Exit(0)
	}
	if err := follow(o); err != nil {
		fmt.Fprintf(os.Stderr, "troupe: %v\n", err)
		os.Exit(1)
	}
	return o.Args
}

// follow moves the process into o.Dir with its output on o.Log.
func follow(o Orders) error {
	if err := os.Chdir(o.Dir); err != nil {
		return err
	}
	log, err := os.OpenFile(o.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer log.Close()
	for _, fd := range []int{1, 2} {
		if err := unix.Dup2(int(log.Fd()), fd); err != nil {
			return fmt.Errorf("output to %s: %w", o.Log, err)
		}
	}
	return nil
}

// ReadyFD is the descriptor a node started here writes "ready" on, as a string for --ready-fd.
func ReadyFD() string { return strconv.Itoa(launch.ReadyFD) }
