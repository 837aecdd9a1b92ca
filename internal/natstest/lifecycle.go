package natstest

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// A cluster's life after Start: whether a node runs, killing and restarting one as a crashed
// machine would, shutting all down, and the logs a failed test prints.

// Running reports whether node i's process is alive.
func (c *Cluster) Running(i int) bool {
	n := c.node(i)
	if n.done == nil {
		return false
	}
	select {
	case <-n.done:
		return false
	default:
		return true
	}
}

// Kill stops node i with SIGKILL (no graceful shutdown, as a crashed machine) and waits
// until the process is gone.
func (c *Cluster) Kill(i int) {
	c.t.Helper()
	n := c.node(i)
	if !c.Running(i) {
		return
	}
	n.cmd.Process.Kill()
	select {
	case <-n.done:
	case <-time.After(testwait.Scale(10 * time.Second)):
		c.t.Fatalf("natstest: node %s did not exit after SIGKILL", n.name)
	}
}

// Restart starts node i again on the same ports and store directory (killing it first
// if it still runs) and waits until the cluster is ready again.
func (c *Cluster) Restart(i int) {
	c.t.Helper()
	c.Kill(i)
	if err := c.spawn(i); err != nil {
		c.t.Fatalf("natstest: restart node %d: %v", i, err)
	}
	c.WaitReady()
}

// Shutdown kills every node; Start registers it with t.Cleanup. When the test failed the
// nodes' log tails are written to the test log.
func (c *Cluster) Shutdown() {
	c.mu.Lock()
	nodes := c.nodes
	c.mu.Unlock()
	for i, n := range nodes {
		if n == nil || n.done == nil {
			continue
		}
		if c.Running(i) {
			n.cmd.Process.Kill()
		}
		<-n.done
	}
	if c.t.Failed() && len(nodes) > 0 {
		c.t.Logf("natstest logs:\n%s", c.Logs())
	}
}

// Logs is the tail of every node's log, for failure messages.
func (c *Cluster) Logs() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, n := range c.nodes {
		fmt.Fprintf(&b, "--- %s (%s)\n%s\n", n.name, n.log, tail(n.log))
	}
	return b.String()
}

func tail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	if len(data) > 4000 {
		data = data[len(data)-4000:]
	}
	return string(data)
}
