package actors

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// The parent's half of subagents (docs/DESIGN-NOTES.md "Subagents"): spawn_agent opens a child
// session under this one; its projected result comes back to this session's inbox; the model
// sees the projection, never the child's transcript.

// worktreeTimeout bounds creating a child's git worktree.
const worktreeTimeout = 2 * time.Minute

// onSpawnAgent validates a spawn request, prepares the child and starts it (or queues it
// behind the running ones), and answers with its handle. A child in its own worktree is
// answered once git has created it, off the actor (Receive never blocks on git).
func (s *session) onSpawnAgent(ctx actor.Context, req *messages.SpawnAgent) {
	var mine []string
	if s.deps.Tools != nil {
		mine = s.deps.Tools.Names()
	}
	c, notes, err := s.kids.prepare(req, childParent{cfg: &s.cfg, workspace: s.deps.Workspace, tools: mine,
		history: func() []llm.Message { return projectedHistory(s.items, s.cfg.limits.IdleGap) }})
	if err != nil {
		s.respond(ctx, &messages.ErrorReply{Error: err.Error()})
		return
	}
	s.emit(s.kids.place(c)...)
	if !req.Worktree || c.remote { // a worker makes a remote child's worktree
		s.takeKidsStep(ctx, s.kids.admit(c, req, notes, s.finished() || s.cur.cancelling != ""))
		return
	}
	s.childWorktree(ctx, c, func(err error) {
		if err != nil {
			s.respond(ctx, &messages.ErrorReply{Error: err.Error()})
			return
		}
		s.takeKidsStep(ctx, s.kids.admit(c, req, notes, s.finished() || s.cur.cancelling != ""))
	})
}

// childWorktree makes the git worktree a local child works in, off the actor, and continues
// with then on the actor once it is there (its workspace set) or could not be made.
func (s *session) childWorktree(ctx actor.Context, c *childAgent, then func(error)) {
	root, task := s.kids.delegation.ProjectRoot, c.rec.Task
	type made struct {
		wt  *worktree.Worktree
		err error
	}
	offActor(ctx, worktreeTimeout, func() made { wt, err := worktree.Create(root, task); return made{wt, err} },
		func(m made, err error) {
			if err == nil {
				err = m.err
			}
			if err == nil {
				c.wt, c.rec.Worktree, c.start.Workspace, c.start.Worktree = m.wt, m.wt.Branch, m.wt.Path, m.wt.Name
			}
			then(err)
		})
}

func contextMode(m messages.ContextMode) messages.ContextMode {
	if m == "" {
		return messages.ContextFresh
	}
	return m
}

// startChild builds the child's setup off the actor (setup_built.go) and spawns it under this
// session when it comes back; answer (the spawn's, if any) goes then, so a burst of spawns is
// paced by the setups as when they were built on the actor (each child's first request came
// 35% later without). A child that cannot start ends at once with a failed result: the parent
// never hangs on it.
func (s *session) startChild(ctx actor.Context, c *childAgent, answer any) {
	if c.remote { // a remote child's start is its SpawnTask, sent to the dispatcher
		if answer != nil {
			s.respond(ctx, answer)
		}
		s.takeKidsStep(ctx, s.kids.dispatch(c, s.deps.Bridge.NS(), ctx.Self(), time.Now()))
		return
	}
	s.kids.set(c, messages.AgentRunning)
	c.began = time.Now()
	c.building = true
	if c.wantsWorktree && c.wt == nil {
		// Meant for a worker, it runs here after all (no worker, or the queue refused it): it
		// still gets its own worktree, as it would have there.
		s.childWorktree(ctx, c, func(err error) {
			switch {
			case messages.AgentFinal(c.rec.State) || s.finished():
				c.building = false
				if answer != nil {
					s.respond(ctx, answer)
				}
			case err != nil:
				c.building = false
				if answer != nil {
					s.respond(ctx, answer)
				}
				s.takeKidsStep(ctx, s.kids.result(s.cfg.handle(), failedToStart(c, "make its worktree: "+err.Error()), time.Now()))
			default:
				s.buildChild(ctx, c, answer)
			}
		})
		return
	}
	s.buildChild(ctx, c, answer)
}

// buildChild builds a local child's setup off the actor and spawns it (startChild).
func (s *session) buildChild(ctx actor.Context, c *childAgent, answer any) {
	factory, start := s.kids.delegation.NewChild, c.start
	offActor(ctx, setupTimeout, func() builtSetup { return factory.build(start) }, func(b builtSetup, timeout error) {
		c.building = false
		reply := func() {
			if answer != nil {
				s.respond(ctx, answer) // ctx is the spawn's again (ReenterAfter)
			}
		}
		act, why := childBuilt(s.finished(), messages.AgentFinal(c.rec.State), b.err, timeout)
		if act == setupDrop {
			reply()
			return
		}
		var pid *actor.PID
		if act == setupSpawn {
			deps := b.deps
			deps.Inherited, deps.Worktree, deps.ReportTo = c.inherited, c.wt, ctx.Self()
			deps.Steer = s.deps.Steer // a remote child's keys cover what it spawns (steer.go)
			c.inherited = nil
			var err error
			if pid, err = ctx.SpawnNamed(sessionProps(newSession(newSessionConfig(c.start), deps), deps.Runs), childActorPrefix+c.rec.Task); err != nil {
				why = fmt.Sprintf("spawn the agent: %v", err)
			}
		}
		c.pid = pid // no Watch: the parent hears of the child's stop once, as its parent (see started)
		reply()     // after the spawn: the child starts before the caller's next step
		s.saveChild(c)
		if pid == nil {
			s.takeKidsStep(ctx, s.kids.result(s.cfg.handle(), failedToStart(c, why), time.Now()))
		}
	})
}

// takeKidsStep carries out what the children decided (children_step.go), in its order. When a
// child ended, queued children start while slots are free, in spawn order, and a turn that
// waited for them goes on.
func (s *session) takeKidsStep(ctx actor.Context, st kidsStep) {
	for _, c := range st.save {
		s.saveChild(c)
	}
	s.emit(st.emit...)
	if st.respond != nil && st.start == nil {
		s.respond(ctx, st.respond)
	}
	for _, a := range st.answers {
		ctx.Send(a.to, a.reply)
	}
	if w := st.arm; w != nil {
		id, self, root := w.id, ctx.Self(), ctx.ActorSystem().Root
		w.timer = time.AfterFunc(st.timeout, func() { root.Send(self, &waitExpired{id: id}) })
	}
	if st.start != nil {
		s.startChild(ctx, st.start, st.respond)
	}
	for _, c := range st.stop {
		if c.remote {
			ctx.Send(s.kids.delegation.Dispatcher, &dispatchRoute{task: c.rec.Session, msg: &messages.Cancel{Reason: st.reason}})
			continue
		}
		if err := s.deps.Bridge.Send(c.rec.Session, &messages.Cancel{Reason: st.reason}); err != nil && c.pid != nil {
			ctx.Stop(c.pid)
		}
	}
	for _, m := range st.dispatch {
		ctx.Send(s.kids.delegation.Dispatcher, m)
	}
	if !st.ended {
		return
	}
	for c := s.kids.nextQueued(); c != nil && !s.finished(); c = s.kids.nextQueued() {
		s.startChild(ctx, c, nil)
	}
	s.afterAgentsChanged(ctx)
}

// saveChild stores a child's record; a failure is logged (the child still runs and reports).
func (s *session) saveChild(c *childAgent) {
	if err := s.deps.Store.PutAgentRecord(s.cfg.ID, c.rec.Task, &c.rec); err != nil {
		s.deps.Log.Warn("record subagent", "session", s.cfg.ID, "agent", c.rec.Handle, "err", err)
	}
}

// storedAgentRecords reads the records of a session's children from the store, in spawn order.
func storedAgentRecords(st *store.Store, session string) ([]agentRecord, error) {
	var recs []agentRecord
	err := st.EachAgentRecord(session, func(raw []byte) error {
		var r agentRecord
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("restore subagents: %w", err)
	}
	slices.SortFunc(recs, func(a, b agentRecord) int { return a.Spawned.Compare(b.Spawned) })
	return recs, nil
}
