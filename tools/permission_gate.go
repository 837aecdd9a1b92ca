package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/troupe-dev/troupe/messages"
)

// Answer is a human's answer to an approval request.
type Answer string

// The answers.
const (
	AnswerAllow        Answer = "allow"
	AnswerDeny         Answer = "deny"
	AnswerAllowSession Answer = "allow-session" // allow, and add the call's pattern to the session allowlist
)

// Asker puts an approval request to a human and blocks until it is answered or ctx ends (the
// call ID is CallID(ctx)). The session implements it with tool.approval_requested.
type Asker func(ctx context.Context, summary ApprovalSummary, reason string) (Answer, error)

// Gate is the permission step of one session: the policy, the session allowlist grown by
// "allow-session" answers, and the way to ask. Its Check goes last in the lifecycle, after the
// state requirement, so only valid calls are ever put to a human. Safe for concurrent use.
type Gate struct {
	ask Asker
	// noAsk says how to allow a call when there is no way to ask (headless runs).
	noAsk string

	mu           sync.Mutex
	policy       Policy
	sessionAllow []string
	report       func(ctx context.Context, spec Spec, decision Decision, reason string)
}

// OnDecision sets a hook told of every decision the gate takes, for the audit trail: Allow or
// Deny with the reason (an answer included), and Ask when a request goes out.
func (g *Gate) OnDecision(report func(ctx context.Context, spec Spec, decision Decision, reason string)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.report = report
}

func (g *Gate) tell(ctx context.Context, spec Spec, d Decision, reason string) {
	g.mu.Lock()
	report := g.report
	g.mu.Unlock()
	if report != nil {
		report(ctx, spec, d, reason)
	}
}

// NewGate returns a gate for policy. ask nil means there is no way to ask: a call the policy
// would ask about is denied, with noAskHint (for example "rerun with --yes") saying how to
// allow it.
func NewGate(policy Policy, ask Asker, noAskHint string) *Gate {
	return &Gate{policy: policy, ask: ask, noAsk: noAskHint}
}

// SetMode switches the permission mode for the rest of the session.
func (g *Gate) SetMode(m messages.Mode) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.policy.Mode = m
}

// Mode is the current permission mode.
func (g *Gate) Mode() messages.Mode {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.policy.Mode
}

// SessionAllowlist returns the patterns allowed for this session so far.
func (g *Gate) SessionAllowlist() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.sessionAllow)
}

// SessionAllowed is how many patterns the session allowlist holds (it only grows).
func (g *Gate) SessionAllowed() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.sessionAllow)
}

// AllowForSession adds a pattern to the session allowlist (a restored session's, or an answer's).
func (g *Gate) AllowForSession(pattern string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !slices.Contains(g.sessionAllow, pattern) {
		g.sessionAllow = append(g.sessionAllow, pattern)
	}
}

// Check is the gate as a lifecycle stage for Registry.AddCheck.
func (g *Gate) Check() Check {
	return func(ctx context.Context, env *Env, spec Spec, args json.RawMessage) *Result {
		args = ResolvedPathArgs(env, spec, args)
		g.mu.Lock()
		policy, allowed := g.policy, slices.Clone(g.sessionAllow)
		g.mu.Unlock()
		decision, reason := policy.Decide(spec, args, allowed)
		switch hook := hookPermission(ctx); {
		case hook == "allow" && decision == Ask: // a hook's allow never beats a deny
			decision, reason = Allow, "allowed by a PreToolUse hook"
		case hook == "ask" && decision == Allow:
			decision, reason = Ask, "a PreToolUse hook asks for approval"
		}
		if decision != Deny && spec.Name == "bash" && env.Sandbox == nil && !strings.HasPrefix(reason, "allowed for this session") {
			if h, named := namesHidden(env, args); named {
				decision, reason = Ask, hiddenAsk(h)
			}
		}
		inferred := inferredCall(ctx)
		if inferred {
			decision, reason = policy.DecideInferred(spec, decision, reason)
		}
		switch decision {
		case Allow:
			g.tell(ctx, spec, Allow, reason)
			return nil
		case Deny:
			g.tell(ctx, spec, Deny, reason)
			return denied(fmt.Sprintf("permission denied for %s: %s", spec.Name, reason))
		}
		pattern := SessionPattern(spec, args)
		if g.ask == nil && inferred {
			msg := fmt.Sprintf("%[1]s was not run: your reply named no tool, and %[1]s was inferred from its arguments. "+
				"Call %[1]s by name if you meant to run it; otherwise give your answer in words.", spec.Name)
			g.tell(ctx, spec, Deny, msg)
			return denied(msg)
		}
		if g.ask == nil {
			msg := fmt.Sprintf("permission denied for %s: %s, and there is no one to ask in this run. To allow it: %s, or add an allow pattern such as %s to the permission config",
				spec.Name, reason, g.noAsk, pattern)
			g.tell(ctx, spec, Deny, msg)
			return denied(msg)
		}
		g.tell(ctx, spec, Ask, reason)
		answer, err := g.ask(ctx, Summary(spec, args, env.Root), reason)
		if err != nil {
			g.tell(ctx, spec, Deny, fmt.Sprintf("not approved: %v", err))
			return denied(fmt.Sprintf("%s was not approved: %v", spec.Name, err))
		}
		switch answer {
		case AnswerAllowSession:
			g.AllowForSession(pattern)
			g.tell(ctx, spec, Allow, "approved for the rest of the session as "+pattern)
			return nil
		case AnswerAllow:
			if spec.Risk == RiskNetwork && strings.Contains(pattern, "(domain:") {
				// Asked once per host: approving a fetch approves its host for the session
				// (a deny pattern still wins, Decide checks those first).
				g.AllowForSession(pattern)
				g.tell(ctx, spec, Allow, "approved, and with it the host for the rest of the session ("+pattern+")")
				return nil
			}
			g.tell(ctx, spec, Allow, "approved")
			return nil
		}
		g.tell(ctx, spec, Deny, "the user denied it")
		return denied(fmt.Sprintf("the user denied this %s call; do not retry it as is: ask them what they want instead, or take another approach", spec.Name))
	}
}

func denied(msg string) *Result {
	res := errorResult(msg)
	return &res
}

// ResolvedPathArgs rewrites the path arguments to their resolved workspace-relative form, so a
// pattern like write_file(secrets/**) cannot be dodged through a symlink or "./".
func ResolvedPathArgs(env *Env, spec Spec, args json.RawMessage) json.RawMessage {
	if len(spec.PathArgs) == 0 {
		return args
	}
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return args
	}
	for _, name := range spec.PathArgs {
		if p, ok := m[name].(string); ok {
			if _, rel, err := env.resolve(p); err == nil {
				m[name] = rel
			}
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return args
	}
	return out
}
