package actors

import (
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// markInterrupted reports as interrupted every session stored as running that does not run
// on this Node: its process was killed before it could record an outcome (resume corrects the
// stored meta). A subagent runs while the top-level session it descends from runs.
func markInterrupted(metas []*store.SessionMeta, active []string) {
	live := make(map[string]bool, len(active))
	for _, id := range active {
		live[id] = true
	}
	byID := make(map[string]*store.SessionMeta, len(metas))
	for _, m := range metas {
		byID[m.ID] = m
	}
	root := func(m *store.SessionMeta) string {
		for hops := 0; m.Parent != "" && hops < len(metas); hops++ {
			p, ok := byID[m.Parent]
			if !ok {
				return m.Parent
			}
			m = p
		}
		return m.ID
	}
	for _, m := range metas {
		if m.Status == "running" && !live[root(m)] {
			m.Status = messages.StatusInterrupted
		}
	}
}

// answer serves the Node subject: session starts go to the Supervisor; store queries are
// answered from the store, which only the Node opens.
func (n *Node) answer(m *nats.Msg) {
	reply := n.query(m.Data)
	data, err := messages.Encode(reply)
	if err != nil {
		data, _ = messages.Encode(&messages.ErrorReply{Error: err.Error()})
	}
	if m.Reply != "" {
		if err := m.Respond(data); err != nil {
			n.opts.Log.Warn("answer node query", "err", err)
		}
	}
}

func (n *Node) query(data []byte) any {
	msg, err := messages.Decode(data)
	if err != nil {
		return &messages.ErrorReply{Error: err.Error()}
	}
	switch q := msg.(type) {
	case *messages.StartSession:
		res, err := n.system.Root.RequestFuture(n.supervisor, q, 10*time.Second).Result()
		if err != nil {
			return &messages.ErrorReply{Error: fmt.Sprintf("start session: %v", err)}
		}
		return res
	case *messages.StartLoop:
		return n.startLoop(q)
	case *messages.ListSessions:
		metas, err := n.store.Sessions()
		if err != nil {
			return &messages.ErrorReply{Error: err.Error()}
		}
		markInterrupted(metas, n.Active())
		out := &messages.SessionList{Sessions: make([]messages.SessionInfo, 0, len(metas))}
		for _, m := range metas {
			out.Sessions = append(out.Sessions, sessionInfo(m))
		}
		return out
	case *messages.GetRepairStats:
		stats, err := n.store.Repairs()
		if err != nil {
			return &messages.ErrorReply{Error: err.Error()}
		}
		out := &messages.RepairStatsReply{Models: make([]messages.RepairCounts, 0, len(stats))}
		for _, r := range stats {
			out.Models = append(out.Models, messages.RepairCounts(r))
		}
		return out
	case *messages.GetLog:
		meta, err := n.store.Meta(q.Session)
		if err != nil {
			return &messages.ErrorReply{Error: err.Error()}
		}
		entries, err := n.store.LogFrom(q.Session, q.After)
		if err != nil {
			return &messages.ErrorReply{Error: err.Error()}
		}
		markInterrupted([]*store.SessionMeta{meta}, n.Active())
		out := &messages.LogReply{Meta: sessionInfo(meta)}
		out.Entries, out.More = logPage(entries)
		return out
	}
	return &messages.ErrorReply{Error: fmt.Sprintf("the node does not answer %T", msg)}
}
