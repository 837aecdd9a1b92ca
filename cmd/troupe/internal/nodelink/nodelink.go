// Package nodelink connects a troupe CLI process to its project's Node: attaching to one
// running in another process, or starting one here, and letting go of it again so that
// sessions other terminals started on it are not cut off.
package nodelink

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"slices"
	"syscall"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/background"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/prespawn"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/starttrace"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// Options say which project's Node to connect to and how to start one.
type Options struct {
	Root, NATS string
	// Creds authenticate to the external NATS server NATS names (BusCredentials).
	Creds actors.BusCredentials
	Log   *slog.Logger
	Trace *starttrace.Trace
	// NodeOptions builds what a Node started here runs with; Started is told of the Node once
	// it runs (its store is open).
	NodeOptions func() (actors.NodeOptions, error)
	Started     func(*actors.Node)
	// Spawn, if set, starts the project's Node as a process of its own (background.Start) and
	// says where it runs: this process is then only its client. Without it the Node is started
	// in this process (a test driving the CLI in-process).
	Spawn func() (*actors.NodeInfo, error)
	// Config is the fingerprint of this process's node configuration (NodeOptions.Config), for
	// a command that starts sessions ("" for one that only looks): a node started in the
	// background with another one is replaced if nothing runs on it, else used as it is with a
	// line on Stderr saying so. A node the user started (troupe serve) is always used as it is.
	Config string
	Stderr io.Writer
}

// Connect attaches to the project's running Node, or starts one: in a process of its own with
// Spawn, else in this process (node is then non-nil). Two processes racing to start one are
// settled by the store's lock: the loser attaches to the winner.
func Connect(o Options) (client *actors.Client, node *actors.Node, err error) {
	defer prespawn.Discard() // a node started early for this process, if Spawn did not take it
	deadline := time.Now().Add(10 * time.Second)
	for {
		info, err := actors.FindNode(o.Root, o.NATS)
		if errors.Is(err, actors.ErrForeignNode) {
			return nil, nil, clierr.Usagef("%v", err)
		}
		if err == nil && o.Spawn != nil && o.Config != "" && info.Background && info.Config != o.Config && retire(info, o.Creds, o.Stderr) {
			continue
		}
		if err != nil && o.Spawn != nil {
			info, err = o.Spawn()
			if err == nil {
				o.Trace.Mark(starttrace.Spawned)
			}
			var setup *background.SetupError
			if errors.As(err, &setup) {
				return nil, nil, clierr.Usagef("%v", err)
			}
			if err != nil {
				return nil, nil, err
			}
		}
		if err == nil {
			nc, err := actors.Dial(info, actors.KindClient, o.Creds, "troupe-cli")
			if err == nil {
				o.Trace.Mark(starttrace.Attached)
				return actors.NewNodeClient(nc, info), nil, nil
			}
			if o.Spawn != nil && time.Now().Before(deadline) {
				o.Log.Debug("attach failed; retrying", "err", err)
				time.Sleep(10 * time.Millisecond) // it is stopping as we came: start the next one
				continue
			}
			if o.Spawn != nil {
				return nil, nil, clierr.Failf("attach to the troupe node at %s: %v", info.URL, err)
			}
			o.Log.Debug("attach failed", "err", err)
		}
		opts, err := o.NodeOptions()
		if err != nil {
			return nil, nil, err
		}
		node, err := actors.StartNode(opts)
		if err == nil {
			o.Started(node)
			client, err := node.Client()
			if err != nil {
				node.Close()
				return nil, nil, err
			}
			o.Trace.Mark(starttrace.Attached)
			return client, node, nil
		}
		var join *actors.JoinError
		if errors.As(err, &join) {
			return nil, nil, clierr.Usagef("%v: is the server running? check --nats (or nats in your config)", err)
		}
		if unwritable(err) { // a setup error (exit 2): the fix is the directory's permissions
			return nil, nil, clierr.Usagef("start troupe node in %s: %v (make it writable, or set XDG_STATE_HOME to a writable directory)", o.Root, err)
		}
		if !errors.Is(err, store.ErrLocked) || time.Now().After(deadline) {
			return nil, nil, fmt.Errorf("start troupe node in %s: %w", o.Root, err)
		}
		time.Sleep(100 * time.Millisecond) // another process is starting its Node: attach to it
	}
}

// unwritable reports whether err says the store's directory cannot be written.
func unwritable(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// AgentLimits carries [agents] to the Node: max_depth = 0 means no subagents, as the config
// documents it.
func AgentLimits(cfg *config.Config) actors.AgentLimits {
	l := actors.AgentLimits{MaxDepth: cfg.Agents.MaxDepth, MaxRunning: cfg.Agents.MaxRunning}
	if l.MaxDepth == 0 {
		l.MaxDepth = actors.NoSubagents
	}
	return l
}

// ownSessionGrace bounds how long closing waits for this process's own session to record its
// end after being cancelled; the Node's shutdown interrupts it after that.
const ownSessionGrace = 10 * time.Second

// Close lets go of the Node. This process's own session is cancelled if it still runs (a
// client that leaves must not leave it waiting for input). An owned Node (node non-nil) keeps
// serving sessions other terminals started on it until they finish, then stops; forExit
// closes it the quick way of a process about to exit (actors.Node.CloseForExit).
func Close(client *actors.Client, node *actors.Node, own string, stderr io.Writer, forExit bool) {
	defer client.Close()
	if node == nil {
		return
	}
	if own != "" && slices.Contains(node.Active(), own) {
		_ = client.Cancel(own, "the client left")
	}
	ownDeadline := time.Now().Add(ownSessionGrace)
	announced := false
	for {
		active := node.Active()
		others := slices.DeleteFunc(slices.Clone(active), func(id string) bool { return id == own })
		if len(others) == 0 && (len(active) == 0 || time.Now().After(ownDeadline)) {
			break
		}
		if len(others) > 0 && !announced {
			fmt.Fprintf(stderr, "troupe: waiting for %d session(s) started from other terminals on this node\n", len(others))
			announced = true
		}
		// Short: right after session.finished its actor is still stopping, and every run's
		// exit waits here for it.
		time.Sleep(5 * time.Millisecond)
	}
	closeNode := node.Close
	if forExit {
		closeNode = node.CloseForExit
	}
	if err := closeNode(); err != nil {
		fmt.Fprintf(stderr, "troupe: closing node: %v\n", err)
	}
}

// retire stops a node built from another configuration if no session runs on it, and reports
// whether it did; one that is busy is left alone, with a line saying its configuration stays.
func retire(info *actors.NodeInfo, creds actors.BusCredentials, stderr io.Writer) bool {
	nc, err := actors.Dial(info, actors.KindClient, creds, "troupe-cli")
	if err != nil {
		return false
	}
	client := actors.NewNodeClient(nc, info)
	metas, err := client.Sessions()
	client.Close()
	if err != nil {
		return false
	}
	for _, m := range metas {
		if m.Status == string(messages.StatusRunning) {
			fmt.Fprintf(stderr, "troupe: the running node (pid %d) was started with another configuration and keeps it while sessions run on it (troupe stop, then run again, applies yours)\n", info.PID)
			return false
		}
	}
	if err := syscall.Kill(info.PID, syscall.SIGTERM); err != nil {
		return false
	}
	deadline := time.Now().Add(15 * time.Second)
	for actors.ProcessAlive(info.PID) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	return !actors.ProcessAlive(info.PID)
}

// BusCredentials are the [bus] settings of cfg as the bus takes them (~/ expanded).
func BusCredentials(cfg *config.Config) actors.BusCredentials {
	b := cfg.Bus
	return actors.BusCredentials{Token: b.Token, User: b.User, Password: b.Password,
		NKeyFile: config.ExpandHome(b.NKey), CredsFile: config.ExpandHome(b.Creds),
		CAFile: config.ExpandHome(b.TLSCA), CertFile: config.ExpandHome(b.TLSCert), KeyFile: config.ExpandHome(b.TLSKey)}
}
