package actors

import (
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
	if !readOnlyQuery(msg) {
		n.respond(m, &messages.ErrorReply{Error: "this subject takes read-only queries; ask the node subject with a client credential"})
		return
	}
	n.respond(m, n.query(msg))
}
