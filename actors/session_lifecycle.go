package actors

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools/hooks"
)

// started loads (or creates) the session, binds its inbox and control subjects, spawns its tool
// executor, announces itself, and takes its first input. Durable state is always reloaded from
// the store here, so a restarted session actor resumes rather than forgets.
func (s *session) started(ctx actor.Context) {
	s.links.addr = s.cfg.ID
	agent := s.cfg.Agent
	if agent == "" {
		agent = "root"
	}
	if *s.links.emitterHome == nil {
		*s.links.emitterHome = messages.NewEmitter(s.deps.Bridge.NS(), s.cfg.ID, agent, s.cfg.Parent, 1, s.deps.Bridge.Publish)
	}
	s.links.emitter = *s.links.emitterHome

	s.asChild.began = time.Now()
	err := s.loadSession() // the session from the store (healing its log), or a new one
	if err == nil {
		err = s.loadGoal()
	}
	if err != nil {
		kind := messages.FailInternal // the store could not be read or written
		if errors.Is(err, store.ErrNotFound) {
			kind = messages.FailConfig // resuming a session this project does not have
		}
		s.fail(ctx, kind, err.Error())
		return
	}
	if err := s.budget.fit(s.deps.window(s.cfg.limits.ContextWindow), s.deps.prefixTokens()); err != nil {
		s.fail(ctx, messages.FailConfig, err.Error())
		return
	}
	s.takeKidsStep(ctx, s.kids.adopt(ctx.Self(), s.cfg.ID))
	self, root := ctx.Self(), ctx.ActorSystem().Root
	s.asChild.armWall(s.cfg.limits.MaxWall, func() { root.Send(self, &wallBudgetExpired{}) })
	if s.deps.MCPWatch != nil {
		s.deps.MCPWatch(ctx.Self())
	}
	for _, bind := range []func() error{
		func() error { sub, err := s.deps.Bridge.Bind(s.links.addr, ctx.Self()); s.links.keep(sub); return err },
		func() error {
			keys := s.deps.Steer
			if keys == nil {
				keys = s.deps.Bridge.steer
			}
			sub, err := s.deps.Bridge.BindControl(s.cfg.ID, keys, ctx.Self(), 10*time.Second)
			s.links.keep(sub)
			return err
		},
	} {
		if err := bind(); err != nil {
			s.fail(ctx, messages.FailInternal, err.Error())
			return
		}
	}
	props, err := s.deps.Executor(ctx.ActorSystem().Root, ctx.Self())
	if err != nil {
		s.fail(ctx, messages.FailInternal, fmt.Sprintf("build tool executor: %v", err))
		return
	}
	pid, err := ctx.SpawnNamed(props, "tools")
	if err != nil {
		s.fail(ctx, messages.FailInternal, fmt.Sprintf("spawn tool executor: %v", err))
		return
	}
	// No Watch: the session hears of its executor's stop once, as its parent. A watcher's
	// second Terminated can leave after this session is gone and, addressed by name, reach the
	// next session of the same id (a resume), whose executor has the same name.
	s.links.toolexec = pid

	s.learn = newSessionLessons(s.deps.Lessons, s.deps.Model, s.cfg.ID, ctx.ActorSystem().Root, ctx.Self())
	s.emit(messages.SessionStartedEvent.Of(&messages.SessionStartedData{
		Model: s.deps.Model, Mode: s.cfg.Mode, Workspace: s.cfg.Workspace, Task: s.cfg.Task,
		Resumed: s.cfg.Resume, PromptBytes: s.deps.promptBytes(), Role: s.cfg.role.Name,
	}))
	for _, line := range s.deps.Notices {
		s.emit(messages.ErrorEvent.Of(&messages.ErrorData{Message: line}))
	}
	// Bound, and session.started is out ahead of the start's answer: input sent now is not lost.
	s.tellSupervisor(ctx, &sessionUp{id: s.cfg.ID})
	s.become(phaseIdle, s.idle)
	s.withHooks(ctx, s.hooks.start(s.cfg.Resume)) // its hooks, then begin
}

// begin takes the session's first step: the task it was started with, or, on resume without a
// task, the model's turn if the log ends waiting for one.
func (s *session) begin(ctx actor.Context) {
	if s.cfg.Task != "" {
		s.routeInput(ctx, s.cfg.Task)
		return
	}
	if n := len(s.items); n > 0 && s.items[n-1].Boundary == nil && s.items[n-1].Msg.Role != llm.RoleAssistant {
		// A foreground child adopted on resume (still running on a worker) is waited for, as
		// the turn that spawned it would have.
		s.continueTurn(ctx)
		return
	}
	if !s.cfg.Interactive {
		final := lastAnswer(s.items)
		s.finish(ctx, &messages.SessionFinishedData{Status: messages.StatusDone, Final: final,
			Error: "nothing to resume: the session's last turn is complete; give a task to continue"})
	}
}

func (s *session) loadSession() error {
	st := s.deps.Store
	if s.cfg.Resume {
		meta, err := st.Meta(s.cfg.ID)
		if err != nil {
			return fmt.Errorf("resume %s: %w", s.cfg.ID, err)
		}
		entries, err := st.Log(s.cfg.ID)
		if err != nil {
			return fmt.Errorf("resume %s: %w", s.cfg.ID, err)
		}
		view, synthetic := store.Heal(entries)
		if len(synthetic) > 0 {
			if err := st.Append(s.cfg.ID, synthetic...); err != nil {
				return fmt.Errorf("resume %s: record interrupted calls: %w", s.cfg.ID, err)
			}
		}
		s.meta = meta
		if s.links.emitter != nil {
			s.links.emitter.ContinueAfter(meta.EventSeq) // one seq per session across runs
		}
		s.meta.Status, s.meta.Error = string(messages.StatusRunning), "" // a resume of a failed one runs again
		s.meta.Model, s.meta.BaseURL = s.cfg.Model, s.cfg.BaseURL
		if s.cfg.PromptMode != "" {
			s.meta.PromptMode = s.cfg.PromptMode // the resume named one (see sessionPrefixOf)
		}
		s.items = projection.FromEntries(view)
		recs, err := storedAgentRecords(st, s.cfg.ID)
		if err != nil {
			return err
		}
		changed, adopt := s.kids.restore(recs)
		for _, c := range changed {
			s.saveChild(c)
		}
		s.kids.adopting = adopt
		return s.putMeta(store.RepairStats{})
	}
	now := time.Now().UTC()
	s.meta = &store.SessionMeta{ID: s.cfg.ID, Parent: s.cfg.Parent, Agent: s.cfg.Agent, Model: s.cfg.Model,
		BaseURL: s.cfg.BaseURL, Task: s.cfg.Task, Mode: string(s.cfg.Mode), Workspace: s.cfg.Workspace, Cwd: s.cfg.Cwd, PromptMode: s.cfg.PromptMode, Status: string(messages.StatusRunning), Created: now, Updated: now}
	if err := s.putMeta(store.RepairStats{}); err != nil {
		return err
	}
	return s.commitInherited()
}

// finish records the outcome, announces it, and stops the actor. It runs once.
func (s *session) finish(ctx actor.Context, out *messages.SessionFinishedData) {
	if s.finished() {
		return
	}
	if ask := s.hooks.end(out, s.deps.Hooks.Wants(hooks.SessionEnd), s.cfg.Parent != ""); ask != nil {
		s.withHooks(ctx, ask) // the finish follows once they answered
		return
	}
	s.become(phaseFinished, s.finishedPhase)
	if barrier := s.learn.hold(); barrier != nil { // finishHeld completes it once the lessons learnt are stored
		offActor(ctx, lessonHold, func() struct{} { <-barrier; return struct{}{} }, func(struct{}, error) {
			ctx.Send(ctx.Self(), &finishHeld{out: out}) // a user message: after the keeper's answers
		})
		return
	}
	s.completeFinish(ctx, out)
}

// completeFinish records the outcome, emits session.finished and stops the actor.
func (s *session) completeFinish(ctx actor.Context, out *messages.SessionFinishedData) {
	s.learn.score()
	out.Turns = s.turn
	out.Goal = s.done.outcome()
	s.asChild.stopWall()
	s.takeKidsStep(ctx, s.kids.releaseWaits(s.cfg.handle())) // a wait_agent still blocked gets what is in
	if s.meta != nil {
		s.meta.Status = string(out.Status)
		s.meta.Error = ""
		if out.Status != messages.StatusDone {
			s.meta.Error = out.Error
		}
		s.meta.Updated = time.Now().UTC()
		if s.links.emitter != nil { // session.finished, emitted below, takes the next seq
			s.meta.EventSeq = s.links.emitter.Seq() + 1
		}
		if err := recordOutcome(s.deps.Store, s.deps.Log.With("session", s.cfg.ID), s.meta, out); err != nil {
			s.deps.Log.Error("record session outcome", "session", s.cfg.ID, "err", err)
		}
		if err := s.deps.Store.Sync(); err != nil {
			s.deps.Log.Error("sync store", "err", err)
		}
	}
	s.tellSupervisor(ctx, &sessionFinishing{id: s.cfg.ID, reason: out.Error}) // before the event: see supervisor
	s.emit(messages.SessionFinishedEvent.Of(out))
	s.reportToParent(ctx, out)
	ctx.Stop(ctx.Self())
}

// recordOutcome stores the meta with its final status and, when the session ended on an error,
// an audit entry saying why in the same transaction: troupe log shows the reason the run
// printed, not just the last message before it.
func recordOutcome(st *store.Store, log *slog.Logger, meta *store.SessionMeta, out *messages.SessionFinishedData) error {
	if out.Error == "" {
		return st.PutMeta(meta)
	}
	raw, _ := messages.MarshalPayload(&messages.SessionFinishedData{Status: out.Status, Kind: out.Kind, Error: out.Error, Turns: out.Turns})
	e := &store.Entry{Kind: store.KindSystem, Event: string(messages.EventSessionFinished), Data: raw}
	if err := st.AppendWithMeta(meta, e); err != nil {
		log.Warn("record why the session ended", "err", err)
		return st.PutMeta(meta) // the status still counts without the entry
	}
	return nil
}

// putMeta records the session's meta with the seq of its last event so far, adding repairs
// (often none) to the project's counters in the same transaction.
func (s *session) putMeta(repairs store.RepairStats) error {
	if s.links.emitter != nil {
		s.meta.EventSeq = s.links.emitter.Seq()
	}
	return s.deps.Store.PutMetaAndRepairs(s.meta, repairs)
}

// fail ends the session as failed, with the kind of failure for the caller's exit code.
func (s *session) fail(ctx actor.Context, kind messages.FailKind, reason string) {
	s.emit(messages.ErrorEvent.Of(&messages.ErrorData{Message: reason, Fatal: true}))
	s.finish(ctx, &messages.SessionFinishedData{Status: messages.StatusFailed, Kind: kind, Error: reason})
}

// stopping runs when the actor is stopped from outside (Node shutdown) or by finish: whatever
// was in flight is cut off and the outcome recorded as interrupted.
func (s *session) stopping(ctx actor.Context) {
	s.cur.stopWork()
	s.cur.stopRecheck(s.turn, s.turn)
	if !s.finished() {
		s.finish(ctx, &messages.SessionFinishedData{Status: messages.StatusInterrupted, Error: "the troupe node stopped"})
	}
	s.links.unsubscribe()
}

// childTerminated: the tool executor is restarted by supervision on a panic; if it is gone for
// good, the session cannot go on.
func (s *session) childTerminated(ctx actor.Context, msg *actor.Terminated) {
	if ours, lost := s.kids.stopped(msg.Who); ours {
		if lost != "" {
			ctx.Send(ctx.Self(), &childGone{task: lost})
		}
		return
	}
	if s.finished() || s.links.toolexec == nil || msg.Who.Id != s.links.toolexec.Id {
		return
	}
	s.fail(ctx, messages.FailInternal, "the tool executor stopped unexpectedly")
}

// lastAnswer is the model's last answer in the log as the model sees it.
func lastAnswer(items []projection.Item) string {
	for i := len(items) - 1; i >= 0; i-- {
		if m := items[i].Msg; items[i].Boundary == nil && m.Role == llm.RoleAssistant && m.Content != "" {
			return m.Content
		}
	}
	return ""
}

// restarting runs on the crashed incarnation before a new one is made: it lets go of its
// subscriptions (the new one binds its own) and its model call.
func (s *session) restarting() {
	s.cur.stopWork()
	s.links.unsubscribe()
}
