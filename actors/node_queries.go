package actors

import (
	"fmt"

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
		if m.Status == string(messages.StatusRunning) && !live[root(m)] {
			m.Status = string(messages.StatusInterrupted)
		}
	}
}

// answer serves the Node subject: session starts go to the Supervisor; store queries are
// answered from the store, which only the Node opens.
func (n *Node) answer(m *nats.Msg) {
	msg, err := messages.Decode(m.Data)
	if err != nil {
		n.respond(m, &messages.ErrorReply{Error: err.Error()})
		return
	}
	switch q := msg.(type) {
	case *messages.StartSession:
		n.answerStart(m, q)
		return
	case *messages.AttachSession:
		n.respond(m, n.attach(q))
		return
	}
	n.respond(m, n.query(msg))
}

// answerStart hands a start to the supervisor and answers once it does, from a goroutine
// owned by the future (it ends with the answer or the timeout), so a start that waits for a
// previous run to stop does not hold up the other node queries.
func (n *Node) answerStart(m *nats.Msg, start *messages.StartSession) {
	n.phase("start")
	n.owners.set(start)
	future := n.system.Root.RequestFuture(n.supervisor, start, startTimeout)
	go func() {
		res, err := future.Result()
		if err != nil {
			res = &messages.ErrorReply{Error: fmt.Sprintf("start session %s: the node did not answer within %v: %v", start.ID, startTimeout, err)}
		}
		if ok, isAccepted := res.(*messages.SessionAccepted); isAccepted {
			ok.Steer = n.steerToken(ok.ID)
		}
		n.respond(m, res)
	}()
}

func (n *Node) respond(m *nats.Msg, reply any) {
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

func (n *Node) query(msg any) any {
	switch q := msg.(type) {
	case *messages.StartLoop:
		return n.startLoop(q)
	case *messages.ListSessions:
		metas, err := n.store.Sessions()
		if err != nil {
			return &messages.ErrorReply{Error: err.Error()}
		}
		markInterrupted(metas, n.Active())
		attached := n.attached()
		out := &messages.SessionList{Sessions: make([]messages.SessionInfo, 0, len(metas))}
		for _, m := range metas {
			info := sessionInfo(m)
			info.Attached = attached[m.ID]
			out.Sessions = append(out.Sessions, info)
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
	case *messages.ListLessons:
		return n.listLessons()
	case *messages.ForgetLesson:
		id, err := n.lessons.forget(q.ID)
		if err != nil {
			return &messages.ErrorReply{Error: err.Error()}
		}
		return &messages.LessonForgotten{ID: id}
	case *messages.MemoryRequest:
		return memoryAnswer(n.memoryKeeper(), q)
	case *messages.GetLog:
		meta, err := n.store.Meta(q.Session)
		if err != nil {
			return &messages.ErrorReply{Error: err.Error()}
		}
		entries, more, err := n.store.LogPage(q.Session, q.After, logPageBytes)
		if err != nil {
			return &messages.ErrorReply{Error: err.Error()}
		}
		markInterrupted([]*store.SessionMeta{meta}, n.Active())
		out := &messages.LogReply{Meta: sessionInfo(meta)}
		out.More = more
		for _, e := range entries {
			out.Entries = append(out.Entries, logEntry(e))
		}
		return out
	}
	return &messages.ErrorReply{Error: fmt.Sprintf("the node does not answer %T", msg)}
}
