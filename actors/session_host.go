package actors

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// sessionHost is the session as its slash commands see it (commandHost, command_host.go),
// bound to the input being answered: an answer that comes later goes to that input's sender.
// It is the one place the commands reach the session's state; it lives here, not on the
// session, so the commands' needs stay a short list.
type sessionHost struct {
	s   *session
	ctx actor.Context
}

var _ commandHost = sessionHost{}

func (h sessionHost) Snapshot() commandSnapshot {
	s := h.s
	st := s.status()
	if st.Goal != nil {
		g := *st.Goal
		st.Goal = &g
	}
	snap := commandSnapshot{
		Phase:  s.phase,
		Status: st,
		Session: sessionFacts{ID: s.cfg.ID, Workspace: s.cfg.Workspace, Agent: s.cfg.Agent, Items: len(s.items),
			LastSeq: lastSeqOf(s.items)},
		Usage:  store.SessionMeta{ID: s.cfg.ID, Agent: s.cfg.Agent, Model: s.deps.Model},
		Agents: s.kids.rows(time.Now()),
		Permissions: permissionFacts{Mode: s.cfg.mode(), Allow: s.cfg.Allow, Ask: s.cfg.Ask, Deny: s.cfg.Deny,
			Session: s.kids.sessionAllowlist()},
		Tools:         s.deps.toolSpecs(),
		Narrowed:      s.deps.Narrowed,
		Skills:        s.deps.Skills,
		SkillProblems: s.deps.SkillProblems,
		ActiveSkill:   activeSkill(s.items),
		Model: modelFacts{Model: s.deps.Model, Name: s.deps.ModelName, Wire: s.cfg.Model, BaseURL: s.cfg.BaseURL,
			Window: s.deps.window(s.cfg.limits.ContextWindow), PromptMode: promptModeOf(s.cfg.PromptMode, s.meta),
			CanSwitch: s.deps.Setup != nil, CanSwitchPrompt: s.deps.Setup != nil && s.deps.PromptModes != nil,
			Known: llm.KnownModels(clientGetenv(s.cfg.Env), s.cfg.Model)},
		ProjectRoot: s.cfg.Workspace,
		Sandbox:     s.deps.Sandbox,
		MCP:         s.deps.MCP,
		MCPPrompts:  s.deps.MCPPrompts,
		Hooks:       s.deps.Hooks.All(),
		Memory:      s.deps.Memory,
	}
	if snap.Session.Agent == "" {
		snap.Session.Agent = "root"
	}
	if s.meta != nil {
		snap.Session.Started, snap.Session.Turns = s.meta.Created, s.meta.Turns
		snap.Usage.InputTokens, snap.Usage.OutputTokens = s.meta.InputTokens, s.meta.OutputTokens
		snap.Usage.CachedInputTokens = s.meta.CachedInputTokens
	}
	if s.links.emitter != nil {
		snap.Session.Events = s.links.emitter.Seq()
	}
	if d := s.kids.delegation; d != nil && d.ProjectRoot != "" {
		snap.ProjectRoot = d.ProjectRoot
	}
	return snap
}

func (h sessionHost) Idle() bool { return h.s.phase == phaseIdle }

func (h sessionHost) Later(timeout time.Duration, work func() func() string, late func(error) string) {
	offActor(h.ctx, timeout, work, func(then func() string, err error) {
		if err == nil && then == nil {
			err = errors.New("the command's work gave no answer")
		}
		var out string
		if err != nil {
			out = late(err)
		} else {
			out = then()
		}
		h.s.respond(h.ctx, commandOutput(out))
	})
}

func (h sessionHost) LaterInput(timeout time.Duration, work func() (string, string), late func(error) string) {
	type answer struct{ text, out string }
	offActor(h.ctx, timeout, func() answer { t, o := work(); return answer{t, o} }, func(a answer, err error) {
		switch {
		case err != nil:
			h.s.respond(h.ctx, commandOutput(late(err)))
		case a.text == "":
			h.s.respond(h.ctx, commandOutput(a.out))
		case h.s.phase != phaseIdle:
			h.s.respond(h.ctx, commandOutput("a turn started meanwhile; run the command again when it ends"))
		default:
			h.s.withHooks(h.ctx, h.s.hooks.prompt(a.text)) // as typed text: its hooks, then the model
			h.s.respond(h.ctx, &messages.InputAck{Routed: messages.RoutedModel})
		}
	})
}

func (h sessionHost) Delegate(req *messages.SpawnAgent, timeout time.Duration, answer func(any, error) string) {
	f := h.ctx.RequestFuture(h.ctx.Self(), req, timeout)
	h.ctx.ReenterAfter(f, func(res any, err error) {
		h.s.respond(h.ctx, commandOutput(answer(res, err)))
	})
}

func (h sessionHost) Goal(arg string) string {
	next, reply := h.s.done.userGoal(arg)
	if next == nil {
		return reply
	}
	if err := h.s.setGoal(*next); err != nil {
		return err.Error()
	}
	return "goal " + string(next.Status) + ": " + next.Objective
}
func (h sessionHost) Compact(focus string) string { return h.s.compactNow(h.ctx, focus) }

func (h sessionHost) SwitchMode(mode messages.Mode, by string) error {
	st, err := h.s.cfg.switchMode(&messages.SetMode{Mode: mode, By: by})
	if err == nil {
		h.s.takeTurnStep(h.ctx, st)
		h.s.takeKidsStep(h.ctx, h.s.kids.modeChanged(h.s.cfg.Mode, h.s.cfg.handle()))
	}
	return err
}

func (h sessionHost) ResetContext(keepGoal bool) (projection.Boundary, bool, error) {
	s := h.s
	b, ok := resetBoundary(s.items, keepGoal)
	if n := len(s.items); n > 0 && s.items[n-1].Boundary != nil && s.items[n-1].Boundary.Reason == "/reset" {
		ok = false // nothing was said since the last /reset
	}
	if !ok {
		return b, false, nil
	}
	e, err := b.Entry()
	if err == nil {
		e.Time = time.Now().UTC()
		err = s.deps.Store.Append(s.cfg.ID, e)
	}
	if err != nil {
		return b, false, fmt.Errorf("record the boundary: %w", err)
	}
	before := s.budget.tokensOf(s.request())
	s.items = append(s.items, projection.Item{Seq: e.Seq, Time: e.Time, Boundary: &b})
	s.budget.acct.Reset() // the last provider count was for the old context
	s.emit(messages.ContextCompactedEvent.Of(&messages.ContextCompactedData{Turn: s.turn, Reason: "/reset", FromSeq: b.FromSeq,
		ToSeq: b.ToSeq, TokensBefore: before, TokensAfter: s.budget.tokensOf(s.request()), Mechanical: true, Summary: b.Summary}))
	return b, true, nil
}

func (h sessionHost) UseSkill(sk *tools.LoadedSkill) error {
	if err := h.s.commit(noteEntry(skillNote + tools.SkillText(sk))); err != nil {
		return err
	}
	h.ctx.Send(h.s.links.toolexec, &useSkill{skill: sk})
	return nil
}

func (h sessionHost) SetupFor(model, promptMode string) func() (*SessionSetup, error) {
	setupFor := h.s.deps.Setup
	if setupFor == nil {
		return nil
	}
	st := *h.s.cfg.wire()
	// The endpoint belongs to its provider: another provider gets its own (llm.EndpointFor).
	st.Model, st.BaseURL, st.PromptMode = model, llm.EndpointFor(st.Model, st.BaseURL, model), promptMode
	return func() (*SessionSetup, error) { return setupFor(&st) }
}

func (h sessionHost) PromptModes() func() ([]config.PromptMode, error) { return h.s.deps.PromptModes }

func (h sessionHost) ApplySetup(setup *SessionSetup, model, promptMode, by string) error {
	s, ctx := h.s, h.ctx
	old := s.deps
	s.deps.Provider, s.deps.Model, s.deps.ModelName = setup.Provider, setup.Model, setup.ModelName
	s.deps.Tools, s.deps.System, s.deps.Narrowed = setup.Tools, setup.System, setup.Narrowed
	if err := s.budget.fit(s.deps.window(s.cfg.limits.ContextWindow), s.deps.prefixTokens()); err != nil {
		s.deps = old
		_ = s.budget.fit(s.deps.window(s.cfg.limits.ContextWindow), s.deps.prefixTokens())
		return err
	}
	s.budget.acct.Reset() // the last provider count was for the old prefix

	// From plan to code, say: spawn_agent is back, and with it the delegation.
	delegates := false
	if s.kids.delegation == nil && setup.Delegation != nil {
		d := *setup.Delegation
		d.Limits = d.Limits.withDefaults()
		s.kids.delegation = &d
		s.deps.Delegation = setup.Delegation
		delegates = true
	}
	// The executor puts its gate last in the new registry (mode and session allowlist carry
	// over) and, with delegates, links the agent tools to this session.
	ctx.Send(s.links.toolexec, &useRegistry{registry: setup.Tools, delegates: delegates})
	if s.links.compactor != nil {
		ctx.Send(s.links.compactor, &useModel{provider: s.deps.Provider, modelName: s.deps.ModelName})
	}
	s.cfg.Model, s.cfg.BaseURL, s.cfg.PromptMode = model, llm.EndpointFor(s.cfg.Model, s.cfg.BaseURL, model), promptMode
	if s.meta != nil && (s.meta.Model != model || s.meta.BaseURL != s.cfg.BaseURL || s.meta.PromptMode != promptMode) {
		s.meta.Model, s.meta.BaseURL, s.meta.PromptMode = model, s.cfg.BaseURL, promptMode // troupe resume takes them from here
		if err := s.putMeta(store.RepairStats{}); err != nil {
			s.deps.Log.Warn("record the model and prompt mode", "session", s.cfg.ID, "err", err)
		}
	}
	p := messages.SessionConfigEvent.Of(&messages.ConfigData{Model: s.deps.Model, PromptMode: promptModeOf(s.cfg.PromptMode, s.meta), By: by})
	s.emit(p)
	s.audit(p.EventType(), "", "", p.Data())
	return nil
}

func (h sessionHost) Emit(p messages.Payload) { h.s.emit(p) }

func (h sessionHost) AuditSnapshot() *sessionAudit {
	s := h.s
	a := &sessionAudit{Messages: s.request().Messages, Wanted: s.cfg.role.Tools, LastSeq: lastSeqOf(s.items)}
	if s.deps.Tools != nil {
		a.Offered, a.Registered = s.deps.Tools.Specs(), s.deps.Tools.Names()
		for _, w := range a.Wanted {
			if _, ok := s.deps.Tools.Withheld(w); ok {
				if a.Withheld == nil {
					a.Withheld = map[string]bool{}
				}
				a.Withheld[w] = true
			}
		}
	}
	if g := s.done.goal; g != nil {
		c := *g
		a.Goal = &c
	}
	return a
}

func (h sessionHost) Probes() auditProbes {
	s := h.s
	// The file records are read from the store off the actor (fill).
	p := auditProbes{root: s.deps.Workspace, store: s.deps.Store, session: s.cfg.ID, subs: slices.Clone(s.links.subs)}
	if s.deps.Bridge != nil {
		p.conn = s.deps.Bridge.nc
	}
	return p
}
