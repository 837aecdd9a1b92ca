package actors

import (
	"context"
	"errors"
	"fmt"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// The executor's half of permissions: tools.Gate decides each call (mode, patterns, session
// allowlist) as the last stage of the lifecycle, after every validity check; this file connects
// it to the session — approval requests go out as ApprovalNeeded, answers come back through the
// running call's gate, and every decision is reported for the audit trail, each told to the
// session from the executor (sessionTell).

// callGate links the running call's goroutine (where the permission check blocks) with the
// executor actor (which receives the answer).
type callGate struct {
	req     *messages.ToolRequest
	answers chan *messages.ApprovalAnswer
	to      sessionTell
}

type callGateKey struct{}

func withGate(ctx context.Context, g *callGate) context.Context {
	return context.WithValue(ctx, callGateKey{}, g)
}

func gateOf(ctx context.Context) *callGate {
	g, _ := ctx.Value(callGateKey{}).(*callGate)
	return g
}

// newSessionGate builds a session's permission gate from its start message. Interactive
// sessions ask their session (which asks its clients over the bus); `--yes` answers every ask
// with allow; otherwise an ask is a denial that says how to allow the call.
func newSessionGate(start *messages.StartSession, sandboxed bool) (*tools.Gate, error) {
	mode := start.Mode
	if mode == "" {
		mode = messages.ModeAsk
	}
	m, err := messages.ParseMode(string(mode))
	if err != nil {
		return nil, err
	}
	policy := tools.Policy{Mode: m, Allow: start.Allow, Ask: start.Ask, Deny: start.Deny,
		PlanSafeExec: start.PlanSafeBash, ExecConfined: sandboxed}
	if err := policy.Validate(); err != nil {
		return nil, fmt.Errorf("permissions: %w", err)
	}
	var ask tools.Asker
	switch {
	case start.Yes:
		ask = func(context.Context, tools.ApprovalSummary, string) (tools.Answer, error) {
			return tools.AnswerAllow, nil
		}
	case start.Interactive || start.AskUser:
		ask = sessionAsker
	}
	g := tools.NewGate(policy, ask, "rerun with --yes, or with --mode "+string(messages.ModeAutoEdit)+" for workspace edits or "+string(messages.ModeYolo)+" for commands")
	g.OnDecision(func(ctx context.Context, spec tools.Spec, d tools.Decision, reason string) {
		cg := gateOf(ctx)
		if cg == nil {
			return
		}
		decision := map[tools.Decision]messages.Decision{tools.Allow: messages.DecisionAllowed, tools.Ask: messages.DecisionAsked,
			tools.Deny: messages.DecisionDenied}[d]
		if start.Yes && d == tools.Allow && reason == "approved" {
			reason = "approved by --yes"
		}
		cg.to.tell(&messages.ToolDecision{Turn: cg.req.Turn, CallID: cg.req.CallID, Tool: spec.Name,
			Decision: decision, Reason: reason})
	})
	return g, nil
}

// restoreAllowlist gives a resumed session's gate the session allowlist its meta keeps, as the
// file truth is restored beside it (fileTracker). A meta that cannot be read leaves the list
// empty: the session asks again, and the resume itself reports the store.
func (n *Node) restoreAllowlist(start *messages.StartSession, g *tools.Gate) {
	if !start.Resume {
		return
	}
	meta, err := n.store.Meta(start.ID)
	if err != nil {
		return
	}
	for _, p := range meta.Allowlist {
		g.AllowForSession(p)
	}
}

// sessionAsker puts an approval request to the session, which publishes it as
// tool.approval_requested; the answer reaches the running call through its callGate.
func sessionAsker(ctx context.Context, s tools.ApprovalSummary, reason string) (tools.Answer, error) {
	cg := gateOf(ctx)
	if cg == nil {
		return "", errors.New("no executor to wait for the answer")
	}
	summary := messages.ApprovalSummary(s) // the same fields: messages cannot import tools
	cg.to.tell(&messages.ApprovalNeeded{Turn: cg.req.Turn, CallID: cg.req.CallID, Reason: reason, Summary: summary})
	select {
	case a := <-cg.answers:
		return tools.Answer(a.Answer), nil
	case <-ctx.Done():
		return "", fmt.Errorf("cancelled while waiting for approval: %w", context.Cause(ctx))
	}
}
