package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// permissions is one session's permission state: its policy (mode and configured patterns), the
// allowlist grown by "allow-session" answers, and whether anyone can be asked. The tool
// executor's actor changes it (mode switches, answers); the permission check reads it from the
// goroutine running a call, hence the mutex.
type permissions struct {
	mu           sync.Mutex
	policy       tools.Policy
	sessionAllow []string
	canAsk, yes  bool
}

func newPermissions(start *messages.StartSession) *permissions {
	mode := start.Mode
	if mode == "" {
		mode = "ask"
	}
	return &permissions{
		policy: tools.Policy{Mode: tools.Mode(mode), Allow: start.Allow, Ask: start.Ask, Deny: start.Deny},
		canAsk: start.Interactive,
		yes:    start.Yes,
	}
}

func (p *permissions) setMode(mode string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.policy.Mode = tools.Mode(mode)
}

func (p *permissions) allowForSession(pattern string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pattern != "" && !slices.Contains(p.sessionAllow, pattern) {
		p.sessionAllow = append(p.sessionAllow, pattern)
	}
}

func (p *permissions) decide(spec tools.Spec, args json.RawMessage) (tools.Decision, string, bool, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	d, reason := p.policy.Decide(spec, args, p.sessionAllow)
	return d, reason, p.canAsk, p.yes
}

// callGate is the running call's link between the permission check (in the call's goroutine)
// and the executor actor: the check announces it is waiting, the actor delivers the answer.
type callGate struct {
	req     *messages.ToolRequest
	answers chan *messages.ApprovalAnswer
	decided bool // the permission step ran (so a failure before it was a rejection)
}

type callGateKey struct{}

func withGate(ctx context.Context, g *callGate) context.Context {
	return context.WithValue(ctx, callGateKey{}, g)
}

// permissionCheck is the last Check of a session's registry: it runs after parsing, schema
// validation, the path policy and the file-state requirement, so an invalid call is rejected
// before anybody is asked (DESIGN §5).
func permissionCheck(perms *permissions, bridge *Bridge, sessionAddr string) tools.Check {
	return func(ctx context.Context, env *tools.Env, spec tools.Spec, args json.RawMessage) *tools.Result {
		gate, _ := ctx.Value(callGateKey{}).(*callGate)
		if gate == nil {
			return nil // not run by an executor (tests of the registry alone)
		}
		gate.decided = true
		report := func(decision, reason string) {
			_ = bridge.Send(sessionAddr, &messages.ToolDecision{Turn: gate.req.Turn, CallID: gate.req.CallID,
				Tool: spec.Name, Decision: decision, Reason: reason})
		}
		d, reason, canAsk, yes := perms.decide(spec, args)
		switch {
		case d == tools.Allow:
			report(messages.DecisionAllowed, reason)
			return nil
		case d == tools.Deny:
			report(messages.DecisionDenied, reason)
			return &tools.Result{IsError: true, Output: fmt.Sprintf("permission denied: %s", reason)}
		case yes:
			report(messages.DecisionAllowed, reason+"; allowed by --yes")
			return nil
		case !canAsk:
			msg := fmt.Sprintf("permission denied: %s, and nobody can be asked in a headless run. "+
				"To allow it: rerun with --yes, or --mode %s, or add an allow pattern such as %q to [permissions] in troupe.toml.",
				reason, modeAllowing(spec), tools.SessionPattern(spec, args))
			report(messages.DecisionDenied, msg)
			return &tools.Result{IsError: true, Output: msg}
		}
		summary := approvalSummary(spec, args, env)
		report(messages.DecisionAsked, reason)
		if err := bridge.Send(sessionAddr, &messages.ApprovalNeeded{Turn: gate.req.Turn, CallID: gate.req.CallID,
			Reason: reason, Summary: summary}); err != nil {
			return &tools.Result{IsError: true, Output: fmt.Sprintf("could not ask for approval: %v", err)}
		}
		select {
		case a := <-gate.answers:
			switch a.Answer {
			case messages.AnswerAllowSession:
				perms.allowForSession(summary.Pattern)
				report(messages.DecisionAllowed, "approved for the session ("+summary.Pattern+") by "+by(a))
				return nil
			case messages.AnswerAllow:
				report(messages.DecisionAllowed, "approved by "+by(a))
				return nil
			}
			report(messages.DecisionDenied, "denied by "+by(a))
			return &tools.Result{IsError: true, Output: "the user denied this call. Do not retry it as is; ask what they want instead, or take another approach."}
		case <-ctx.Done():
			return &tools.Result{IsError: true, Output: "cancelled while waiting for approval: " + context.Cause(ctx).Error()}
		}
	}
}

func by(a *messages.ApprovalAnswer) string {
	if a.By == "" {
		return "the user"
	}
	return a.By
}

// modeAllowing names the least permissive mode that allows a tool of this risk.
func modeAllowing(spec tools.Spec) string {
	if spec.Risk == tools.RiskWrite {
		return "auto-edit"
	}
	return "yolo"
}

func approvalSummary(spec tools.Spec, args json.RawMessage, env *tools.Env) messages.ApprovalSummary {
	s := tools.Summary(spec, args, env.Root)
	return messages.ApprovalSummary{Tool: spec.Name, Path: s.Path, Operation: s.Operation, Size: s.Size,
		Diff: s.Diff, Command: s.Command, Pattern: tools.SessionPattern(spec, args)}
}

// rejection describes why a call failed before the permission step, for the audit trail.
func rejection(output string) string {
	line, _, _ := strings.Cut(output, "\n")
	return line
}
