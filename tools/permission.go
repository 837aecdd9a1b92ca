package tools

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/shellparse"
)

// Decision is what the policy says about a call.
type Decision int

// The decisions.
const (
	Allow Decision = iota
	Ask
	Deny
)

func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// Policy is the configured permission policy: a mode and per-tool patterns, each "tool" or
// "tool(glob)" with the glob applied to the call's main argument (see mainArg). For bash a
// command's * matches anything, "/" and spaces included, and \* is a literal star; for paths
// * stays within a path segment and ** crosses them.
type Policy struct {
	Mode             messages.Mode
	Allow, Ask, Deny []string
	// PlanSafeExec lets plan mode run commands in plan-safe form (a verifier running tests):
	// allowed when ExecConfined says the sandbox keeps the workspace read-only to them, asked
	// otherwise. Deny patterns still win.
	PlanSafeExec, ExecConfined bool
}

// Validate reports the first pattern that cannot be parsed.
func (p *Policy) Validate() error {
	for _, list := range [][]string{p.Allow, p.Ask, p.Deny} {
		for _, pat := range list {
			if _, err := parsePattern(pat); err != nil {
				return err
			}
		}
	}
	if _, err := messages.ParseMode(string(p.Mode)); err != nil {
		return err
	}
	return nil
}

// Decide judges one validated call. Deny patterns win over everything; plan mode then refuses
// anything but reads (an allow pattern does not turn plan mode into a writing mode); then a
// bash call that no deny or ask pattern can be proven to miss (shellparse's Unprovable) asks;
// then a write to a protected file (see protectedWhy) asks in every mode but yolo; then the
// session allowlist (the user's own answers); then ask patterns, so `bash(git push*)` still
// asks under a broad `bash(git *)` allow; then allow patterns; then the mode. Path arguments
// should be workspace-relative (the Gate passes them resolved).
func (p *Policy) Decide(spec Spec, args json.RawMessage, sessionAllow []string) (Decision, string) {
	subject, hasSubject := mainArg(spec, args)
	var script *shellparse.Script
	if spec.Name == "bash" && hasSubject {
		script = shellparse.Parse(subject)
	}
	if pat, ok := firstMatch(p.Deny, spec, subject, hasSubject, script, false); ok {
		return Deny, fmt.Sprintf("denied by the pattern %s in the permission config", pat)
	}
	// A deny or ask rule that cannot be proven to miss makes the call a human's, in every mode
	// that would not refuse it anyway.
	unprovable, isUnprovable := "", false
	if script != nil {
		unprovable, isUnprovable = unprovableUnder(script, p.Deny, p.Ask)
	}
	mode := p.Mode
	if mode == "" {
		mode = messages.ModeAsk
	}
	if mode == messages.ModePlan && spec.Risk == RiskExec && p.PlanSafeExec {
		if isUnprovable {
			return Ask, unprovable
		}
		if p.ExecConfined {
			return Allow, "plan-safe: the sandbox keeps the workspace read-only to commands"
		}
		return Ask, "plan-safe commands ask when no sandbox keeps the workspace read-only"
	}
	if mode == messages.ModePlan && spec.Risk != RiskRead && spec.Risk != RiskDelegate {
		return Deny, fmt.Sprintf("plan mode is read-only: %s (%s) is not allowed; present the plan, and the user can switch mode to carry it out", spec.Name, spec.Risk)
	}
	if isUnprovable {
		return Ask, unprovable
	}
	if d, why, ok := protectedWrite(spec, subject, hasSubject); ok && mode != messages.ModeYolo {
		return d, why
	}
	if d, why, ok := protectedShellWrite(script); ok && mode != messages.ModeYolo {
		return d, why
	}
	if pat, ok := firstMatch(sessionAllow, spec, subject, hasSubject, script, true); ok {
		return Allow, fmt.Sprintf("allowed for this session (%s)", pat)
	}
	if pat, ok := firstMatch(p.Ask, spec, subject, hasSubject, script, false); ok {
		return Ask, fmt.Sprintf("the pattern %s asks for approval", pat)
	}
	if pat, ok := firstMatch(p.Allow, spec, subject, hasSubject, script, true); ok {
		return Allow, fmt.Sprintf("allowed by the pattern %s", pat)
	}
	switch {
	case mode == messages.ModeYolo:
		return Allow, "yolo mode allows every call"
	case spec.Risk == RiskRead || spec.Risk == RiskDelegate:
		return Allow, fmt.Sprintf("%s mode allows %s", mode, spec.Risk)
	case spec.Risk == RiskWrite && mode == messages.ModeAutoEdit:
		return Allow, "auto-edit mode allows workspace writes"
	case spec.Risk == RiskMemory:
		// Like Claude Code's auto memory and Orkas's memory tool: the model saves without
		// asking; the scan guards what is saved, and troupe memory shows and undoes it.
		return Allow, fmt.Sprintf("%s mode allows memory writes (scanned; troupe memory lists and removes them)", mode)
	}
	return Ask, fmt.Sprintf("%s mode asks before %s", mode, riskVerb(spec.Risk))
}

// DecideInferred is the decision for a call whose tool the harness inferred (Call.Inferred: a
// reply of bare arguments). A read runs as decided; anything else that would run without asking
// asks instead, unless the mode is yolo: the harness guessed the intent, and the user confirms
// a guess before it writes or runs a command. A deny stays a deny.
func (p *Policy) DecideInferred(spec Spec, d Decision, reason string) (Decision, string) {
	switch {
	case d == Deny || spec.Risk == RiskRead || spec.Risk == RiskDelegate:
		return d, reason
	case d == Allow && p.Mode == messages.ModeYolo:
		return d, reason
	}
	return Ask, fmt.Sprintf("the reply named no tool; %s was inferred from its arguments (%s)", spec.Name, reason)
}

func riskVerb(r Risk) string {
	switch r {
	case RiskWrite:
		return "workspace writes"
	case RiskExec:
		return "running commands"
	case RiskNetwork:
		return "network access"
	case RiskMemory:
		return "memory writes"
	}
	return string(r) + " calls"
}

// mainArg is the argument patterns match: command for bash, the path for file tools, pattern
// for grep and glob, url for web tools. Paths are cleaned so ./a/../b matches b.
func mainArg(spec Spec, args json.RawMessage) (string, bool) {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return "", false
	}
	keys := []string{"command", "pattern", "url"}
	if spec.Risk == RiskMemory {
		keys = []string{"target"} // memory(user), memory(project)
	}
	if spec.Name != "grep" && spec.Name != "glob" && len(spec.PathArgs) > 0 {
		keys = append([]string{spec.PathArgs[0]}, keys...)
	}
	for _, k := range keys {
		v, ok := m[k].(string)
		if !ok {
			continue
		}
		if len(spec.PathArgs) > 0 && k == spec.PathArgs[0] {
			v = strings.TrimPrefix(path.Clean("/"+v), "/")
			if v == "" {
				v = "."
			}
		}
		return v, true
	}
	return "", false
}

// firstMatch returns the first of pats that matches the call; script is a bash call's parsed
// command (nil for other tools); allowing says pats is an allow list, which a compound
// command must satisfy in every part.
func firstMatch(pats []string, spec Spec, subject string, hasSubject bool, script *shellparse.Script, allowing bool) (string, bool) {
	if script != nil {
		return matchBash(pats, subject, script, allowing)
	}
	for _, raw := range pats {
		pat, err := parsePattern(raw)
		if err != nil || !pat.matchesTool(spec.Name) {
			continue
		}
		if pat.arg == "" || (hasSubject && pat.pathGlob != nil && pat.pathGlob.match(subject)) {
			return raw, true
		}
	}
	return "", false
}
