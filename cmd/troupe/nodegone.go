package main

import (
	"fmt"

	"github.com/troupe-dev/troupe/actors"
)

// nodeGone says, in one line, that the Node a client followed session id on is gone and how to
// continue the session.
func nodeGone(c *actors.Client, id string) string {
	node := "the troupe node"
	if pid := c.NodePID(); pid != 0 {
		node = fmt.Sprintf("the troupe node (pid %d)", pid)
	}
	return fmt.Sprintf("%s is gone; troupe resume %s continues the session", node, id)
}
