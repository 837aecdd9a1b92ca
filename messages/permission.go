package messages

import "fmt"

// Permission messages: a tool executor that must ask tells its session (ApprovalNeeded); the
// session publishes tool.approval_requested; any bus client holding the token answers on the
// session's control subject (Approve); the session hands the answer to its executor
// (ApprovalAnswer). Every decision is reported to the session (ToolDecision) for the audit trail.

// Mode is a session's permission mode: what its tool calls may do without asking.
type Mode string

// Permission modes (tools.Policy decides what each allows).
const (
	ModePlan     Mode = "plan"      // read-only tools only
	ModeAsk      Mode = "ask"       // reads allowed; writes, commands and network ask
	ModeAutoEdit Mode = "auto-edit" // reads and workspace writes allowed; commands and network ask
	ModeYolo     Mode = "yolo"      // everything allowed (still inside the sandbox when one is on)
)

// ParseMode checks a mode name; "" is the default, ask.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case "":
		return ModeAsk, nil
	case ModePlan, ModeAsk, ModeAutoEdit, ModeYolo:
		return m, nil
	}
	return "", fmt.Errorf("permission mode %q: use plan, ask, auto-edit or yolo", s)
}

// Answer answers an approval request.
type Answer string

// Answers to an approval request.
const (
	AnswerAllow        Answer = "allow"
	AnswerDeny         Answer = "deny"
	AnswerAllowSession Answer = "allow-session" // allow, and add the call's pattern to the session allowlist
)

// Decision is what the permission step decided about a call, as ToolDecision.Decision and in
// tool.decision / tool.rejected events.
type Decision string

// Decisions.
const (
	DecisionAllowed  Decision = "allowed"  // by the mode, a pattern, the session allowlist or an answer
	DecisionAsked    Decision = "asked"    // an approval request went out
	DecisionDenied   Decision = "denied"   // by the mode, a deny pattern, an answer, or no way to ask
	DecisionRejected Decision = "rejected" // invalid before the permission step: bad arguments, a path outside, a stale file
)

// ApprovalSummary is the bounded description of a call a human approves: what it touches and
// how.
type ApprovalSummary struct {
	Tool      string `json:"tool"`
	Path      string `json:"path,omitempty"`
	Operation string `json:"operation,omitempty"` // create, overwrite, edit, run, …
	Size      int    `json:"size,omitempty"`      // bytes written, for writes
	Diff      string `json:"diff,omitempty"`      // a bounded diff preview, for edits
	Command   string `json:"command,omitempty"`   // for bash
	// Pattern is what "allow-session" adds to the session allowlist.
	Pattern string `json:"pattern,omitempty"`
}

// ApprovalNeeded goes from a tool executor to its session: this call waits for an answer.
type ApprovalNeeded struct {
	Turn    int             `json:"turn"`
	CallID  string          `json:"call_id"`
	Reason  string          `json:"reason"`
	Summary ApprovalSummary `json:"summary"`
}

// Approve answers an approval request; it is sent to the session's control subject. The reply is
// an ApproveAck or an ErrorReply (no such pending call).
type Approve struct {
	CallID string `json:"call_id"`
	Answer Answer `json:"answer"` // AnswerAllow, AnswerDeny or AnswerAllowSession
	By     string `json:"by,omitempty"`
}

// ApproveAck confirms an answer was taken.
type ApproveAck struct {
	CallID string `json:"call_id"`
	Answer Answer `json:"answer"`
}

// ApprovalAnswer goes from a session to its tool executor.
type ApprovalAnswer struct {
	CallID string `json:"call_id"`
	Answer Answer `json:"answer"`
	By     string `json:"by,omitempty"`
}

// ToolDecision goes from a tool executor to its session for every call: what was decided and
// why.
type ToolDecision struct {
	Turn     int      `json:"turn"`
	CallID   string   `json:"call_id"`
	Tool     string   `json:"tool"`
	Decision Decision `json:"decision"`
	Reason   string   `json:"reason"`
}

// SetMode switches a running session's permission mode; sent to its control subject, answered
// with a StatusReply. The session passes it on to its executor.
type SetMode struct {
	Mode Mode   `json:"mode"`
	By   string `json:"by,omitempty"`
}

// ApprovalRequestedData is the payload of tool.approval_requested.
type ApprovalRequestedData struct {
	Turn    int             `json:"turn"`
	CallID  string          `json:"call_id"`
	Reason  string          `json:"reason"`
	Summary ApprovalSummary `json:"summary"`
}

// DecisionData is the payload of tool.decision and tool.rejected.
type DecisionData struct {
	Turn     int      `json:"turn"`
	CallID   string   `json:"call_id"`
	Tool     string   `json:"tool"`
	Decision Decision `json:"decision"`
	Reason   string   `json:"reason"`
	By       string   `json:"by,omitempty"`
}

// ModeData is the payload of session.mode.
type ModeData struct {
	Mode Mode   `json:"mode"`
	By   string `json:"by,omitempty"` // who switched it, when the client said
}

// ConfigData is the payload of session.configured: the model and prompt mode the next turns
// use, after /model or /prompt switched one of them.
type ConfigData struct {
	Model      string `json:"model"`
	PromptMode string `json:"prompt_mode"`
	By         string `json:"by,omitempty"` // the command that switched it
}
