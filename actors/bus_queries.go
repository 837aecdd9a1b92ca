package actors

import (
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/messages"
)

// readOnlyQuery reports whether a node query only reads: the ones the Node answers on its query
// subject, which a watcher's credential may publish to (bus_perms.go). Everything else (start,
// loops, forgetting a lesson, memory writes) needs the node subject, a client's.
func readOnlyQuery(msg any) bool {
	switch msg.(type) {
	case *messages.ListSessions, *messages.GetRepairStats, *messages.ListLessons, *messages.GetLog:
		return true
	}
	return false
}

// answerReadOnly answers a query that came on the read-only query subject.
func (n *Node) answerReadOnly(m *nats.Msg) {
	msg, err := messages.Decode(m.Data)
	if err != nil {
		n.respond(m, &messages.ErrorReply{Error: err.Error()})
		return
	}
	if st, ok := msg.(*messages.StatusRequest); ok {
		n.relayStatus(m, st)
		return
	}
	if !readOnlyQuery(msg) {
		n.respond(m, &messages.ErrorReply{Error: "this subject takes read-only queries; ask the node subject with a client credential"})
		return
	}
	n.respond(m, n.query(msg))
}

// relayStatus asks the session st names for its state on its control subject, with the Node's
// own rights, and passes the answer on. It runs on a goroutine that ends with the answer or the
// request timeout, so a wedged session does not hold up the other queries.
func (n *Node) relayStatus(m *nats.Msg, st *messages.StatusRequest) {
	if !messages.ValidToken(st.Session) {
		n.respond(m, &messages.ErrorReply{Error: fmt.Sprintf("%q is not a session id", st.Session)})
		return
	}
	subject := messages.ControlSubject(n.NS, st.Session)
	go func() {
		data, _ := messages.Encode(&messages.StatusRequest{})
		resp, err := n.nc.Request(subject, data, requestTimeout)
		switch {
		case errors.Is(err, nats.ErrNoResponders):
			n.respond(m, &messages.ErrorReply{Error: messages.Describe(subject) + " is not running"})
		case err != nil:
			n.respond(m, &messages.ErrorReply{Error: fmt.Sprintf("ask %s: %v", messages.Describe(subject), err)})
		case m.Reply != "":
			_ = m.Respond(resp.Data)
		}
	}()
}
