package actors

import "github.com/troupe-dev/troupe/messages"

// StartLoop asks the Node to run troupe loop. Subscribe to the events of the loop and of its
// iterations (their Parent is the loop's id) first. Cancel(loopID, reason) stops it.
func (c *Client) StartLoop(req *messages.StartLoop) error {
	reply, err := c.request(messages.NodeSubject(c.NS, c.Node), req)
	if ok, isAccepted := reply.(*messages.LoopAccepted); isAccepted {
		c.steer.keep(ok.Steer)
	}
	return err
}
