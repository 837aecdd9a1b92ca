package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The decisions one hook's run comes to, as the hook.finished event names them.
const (
	DecisionContinue = "continue" // exit 0 and nothing decided
	DecisionContext  = "context"  // exit 0 with context for the model
	DecisionAllow    = "allow"    // PreToolUse: no need to ask (deny rules still apply)
	DecisionAsk      = "ask"      // PreToolUse: ask the user even where the rules would allow
	DecisionDeny     = "deny"     // PreToolUse: the call is refused
	DecisionBlock    = "block"    // exit 2 or "decision": "block"
	DecisionStop     = "stop"     // "continue": false: the turn stops
	DecisionError    = "error"    // a non-blocking error shown to the user
)

// Verdict is what one hook's run decides.
type Verdict struct {
	Decision     string
	Reason       string          // for the model (a block or deny) or the user (ask, allow)
	Context      string          // added to what the model sees
	UpdatedInput json.RawMessage // PreToolUse: the arguments to run instead (as the hook wrote them)
	StopReason   string          // shown to the user when the turn stops
	Notice       string          // shown to the user: an error, or the hook's systemMessage
}

// output is a hook's JSON on stdout (Claude Code's fields).
type output struct {
	Continue       *bool  `json:"continue"`
	StopReason     string `json:"stopReason"`
	SystemMessage  string `json:"systemMessage"`
	Decision       string `json:"decision"`
	Reason         string `json:"reason"`
	SuppressOutput bool   `json:"suppressOutput"`
	Specific       *struct {
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		AdditionalContext        string          `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// contextEvents are the events whose plain stdout is added as context (as in Claude Code).
func plainIsContext(e Event) bool { return e == UserPromptSubmit || e == SessionStart }

// canBlock says which events a block stops something at.
func canBlock(e Event) bool {
	switch e {
	case PreToolUse, PostToolUse, UserPromptSubmit, Stop, SubagentStop:
		return true
	}
	return false
}

// Judge reads one run: its exit code, then its stdout as JSON or plain text.
func Judge(event Event, r Run) Verdict {
	name := label(r.Hook)
	switch {
	case r.Failure != "":
		return Verdict{Decision: DecisionError, Notice: fmt.Sprintf("hook %s %s", name, r.Failure)}
	case r.Exit == 2:
		reason := strings.TrimSpace(r.Stderr)
		if reason == "" {
			reason = fmt.Sprintf("blocked by hook %s (it gave no reason on stderr)", name)
		}
		if !canBlock(event) {
			return Verdict{Decision: DecisionError, Notice: fmt.Sprintf("hook %s exited 2, but %s cannot be blocked: %s", name, event, firstLine(reason))}
		}
		if event == PreToolUse {
			return Verdict{Decision: DecisionDeny, Reason: reason}
		}
		return Verdict{Decision: DecisionBlock, Reason: reason}
	case r.Exit != 0:
		why := firstLine(r.Stderr)
		if why == "" {
			why = "no message on stderr"
		}
		return Verdict{Decision: DecisionError, Notice: fmt.Sprintf("hook %s exited %d: %s", name, r.Exit, why)}
	}
	out := bytes.TrimSpace([]byte(r.Stdout))
	if len(out) == 0 {
		return Verdict{Decision: DecisionContinue}
	}
	if out[0] != '{' {
		if plainIsContext(event) {
			return Verdict{Decision: DecisionContext, Context: string(out)}
		}
		return Verdict{Decision: DecisionContinue}
	}
	var o output
	if err := json.Unmarshal(out, &o); err != nil {
		return Verdict{Decision: DecisionError, Notice: fmt.Sprintf("hook %s printed JSON troupe cannot read (%v); its output was ignored", name, err)}
	}
	return judgeJSON(event, name, o)
}

func judgeJSON(event Event, name string, o output) Verdict {
	v := Verdict{Decision: DecisionContinue, Notice: o.SystemMessage}
	if o.Continue != nil && !*o.Continue {
		v.Decision, v.StopReason = DecisionStop, o.StopReason
		if v.StopReason == "" {
			v.StopReason = "hook " + name + " stopped the turn"
		}
		return v
	}
	if s := o.Specific; s != nil {
		v.Context = s.AdditionalContext
		if v.Context != "" {
			v.Decision = DecisionContext
		}
		if event == PreToolUse {
			v.UpdatedInput = s.UpdatedInput
			switch s.PermissionDecision {
			case "allow", "deny", "ask":
				v.Decision, v.Reason = s.PermissionDecision, s.PermissionDecisionReason
			case "":
			default:
				return Verdict{Decision: DecisionError, Notice: fmt.Sprintf("hook %s: unknown permissionDecision %q (use allow, deny or ask); its output was ignored", name, s.PermissionDecision)}
			}
		}
	}
	switch o.Decision {
	case "":
	case "block", "deny":
		if !canBlock(event) {
			v.Notice = joinLines(v.Notice, fmt.Sprintf("hook %s: %s cannot be blocked; its decision was ignored", name, event))
			break
		}
		reason := o.Reason
		if reason == "" {
			reason = "blocked by hook " + name
		}
		v.Decision, v.Reason = DecisionBlock, reason
		if event == PreToolUse {
			v.Decision = DecisionDeny
		}
	case "approve", "allow":
		if event == PreToolUse && v.Decision != DecisionDeny && v.Decision != DecisionAsk {
			v.Decision, v.Reason = DecisionAllow, o.Reason
		}
	default:
		return Verdict{Decision: DecisionError, Notice: fmt.Sprintf("hook %s: unknown decision %q (use block); its output was ignored", name, o.Decision)}
	}
	return v
}

// Outcome is what the hooks that ran for one moment decide together.
type Outcome struct {
	// Block: the call, prompt or final answer is refused with Reason (for the model, or for the
	// user at UserPromptSubmit). At PreToolUse a block is a deny.
	Block  bool
	Reason string
	// Permission is PreToolUse's merged permission decision: "", "allow", "ask" or "deny" (the
	// strictest wins).
	Permission string
	// UpdatedInput is PreToolUse's rewritten arguments, in our tool's terms.
	UpdatedInput json.RawMessage
	// Context is text for the model, in hook order.
	Context []string
	// Stop: a hook said "continue": false; StopReason is for the user.
	Stop       bool
	StopReason string
	// Notices are lines for the user: errors, and what the hooks asked to show.
	Notices []string
	// Verdicts are the runs' verdicts, in the order of runs.
	Verdicts []Verdict
}

// Decide merges the runs of one moment into one decision. in is what the hooks were told:
// a Claude Code hook's updatedInput is mapped back to our tool's arguments with it.
func Decide(in Input, runs []Run) Outcome {
	var o Outcome
	rank := map[string]int{"": 0, DecisionAllow: 1, DecisionAsk: 2, DecisionDeny: 3}
	for _, r := range runs {
		v := Judge(in.Event, r)
		o.Verdicts = append(o.Verdicts, v)
		if v.Notice != "" {
			o.Notices = append(o.Notices, v.Notice)
		}
		if v.Context != "" {
			o.Context = append(o.Context, v.Context)
		}
		switch v.Decision {
		case DecisionStop:
			o.Stop = true
			o.StopReason = joinLines(o.StopReason, v.StopReason)
		case DecisionBlock, DecisionDeny:
			o.Block = true
			o.Reason = joinLines(o.Reason, v.Reason)
		}
		if in.Event != PreToolUse {
			continue
		}
		if d := v.Decision; rank[d] > rank[o.Permission] && (d == DecisionAllow || d == DecisionAsk || d == DecisionDeny) {
			o.Permission = d
		}
		if len(v.UpdatedInput) > 0 && v.Decision != DecisionDeny {
			updated := v.UpdatedInput
			if r.Hook.Claude {
				updated = FromClaude(in.Tool, updated, in.Cwd)
			}
			if o.UpdatedInput == nil {
				o.UpdatedInput = updated
			} else if !bytes.Equal(o.UpdatedInput, updated) {
				o.Notices = append(o.Notices, fmt.Sprintf("hook %s also rewrote the input; the first hook's rewrite was used", label(r.Hook)))
			}
		}
	}
	if o.Block && in.Event == PreToolUse {
		o.Permission = DecisionDeny
	}
	return o
}

func joinLines(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "\n" + b
}

// label names a hook in messages: its command, shortened.
func label(h Hook) string {
	c := strings.Join(strings.Fields(h.Command), " ")
	if len(c) > 60 {
		c = c[:57] + "..."
	}
	return fmt.Sprintf("%q", c)
}
