// Package hooks decides everything about hooks — user commands run at points of the agentic
// loop, compatible with Claude Code's hook protocol (docs/ARCHITECTURE.md, "Hooks") — without
// running anything itself but the one process a caller asks for: which hooks match an event and
// a tool, what JSON a hook reads on stdin (with Claude Code's tool names and inputs for hooks
// from its settings files), and what several hooks' exits and outputs decide together. The
// executor runs the processes; the session only routes the outcome.
package hooks

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Event is a point of the loop a hook runs at: Claude Code's events, plus troupe's PreModel
// and PostModel around each model call.
type Event string

// The events.
const (
	SessionStart     Event = "SessionStart"
	UserPromptSubmit Event = "UserPromptSubmit"
	PreToolUse       Event = "PreToolUse"
	PostToolUse      Event = "PostToolUse"
	PreCompact       Event = "PreCompact"
	Stop             Event = "Stop"
	SubagentStop     Event = "SubagentStop"
	SessionEnd       Event = "SessionEnd"
	PreModel         Event = "PreModel"
	PostModel        Event = "PostModel"
)

// Events lists every event, in the loop's order.
var Events = []Event{SessionStart, UserPromptSubmit, PreModel, PostModel, PreToolUse, PostToolUse,
	PreCompact, Stop, SubagentStop, SessionEnd}

// Known says whether name is an event.
func Known(name string) bool { return slices.Contains(Events, Event(name)) }

// toolEvent says whether the event is about one tool call, so a matcher applies to it.
func toolEvent(e Event) bool { return e == PreToolUse || e == PostToolUse }

// DefaultTimeoutS bounds a hook that sets no timeout_s, as in Claude Code.
const DefaultTimeoutS = 60

// Hook is one configured hook.
type Hook struct {
	Event Event
	// Matcher is a regular expression on the tool name (ours, or Claude Code's for the tools
	// it has); "" or "*" matches every tool. It is ignored by events about no tool.
	Matcher  string
	Command  string // run with sh -c in the project root
	TimeoutS int    // 0: DefaultTimeoutS
	// Source is the file the hook came from; Claude says it came from a Claude Code settings
	// file, so it reads and writes Claude Code's tool names and inputs.
	Source string
	Claude bool
	// Skipped, when set, says why the hook does not run (a project that is not trusted).
	Skipped string

	re *regexp.Regexp
}

// Timeout is the hook's bound in seconds.
func (h Hook) Timeout() int {
	if h.TimeoutS > 0 {
		return h.TimeoutS
	}
	return DefaultTimeoutS
}

// Set is the hooks of one project, fixed when the Node starts: safe to share, never changed.
type Set struct {
	hooks []Hook
}

// NewSet checks and compiles hooks: a hook with an unknown event, no command or a matcher that
// is not a regular expression is left out with a one-line warning saying how to fix it.
func NewSet(hooks []Hook) (*Set, []string) {
	s := &Set{}
	var warnings []string
	for _, h := range hooks {
		if err := h.compile(); err != nil {
			warnings = append(warnings, err.Error())
			continue
		}
		s.hooks = append(s.hooks, h)
	}
	return s, warnings
}

func (h *Hook) compile() error {
	where := fmt.Sprintf("%s: hook %s", h.Source, h.Event)
	if !Known(string(h.Event)) {
		return fmt.Errorf("%s: unknown event; use one of %s", where, eventNames())
	}
	if strings.TrimSpace(h.Command) == "" {
		return fmt.Errorf("%s: no command; set command to what to run", where)
	}
	if h.TimeoutS < 0 {
		return fmt.Errorf("%s: timeout_s must not be negative", where)
	}
	m := strings.TrimSpace(h.Matcher)
	if m == "" || m == "*" {
		return nil
	}
	re, err := regexp.Compile("^(?:" + m + ")$")
	if err != nil {
		return fmt.Errorf("%s: matcher %q is not a regular expression: %v", where, h.Matcher, err)
	}
	h.re = re
	return nil
}

func eventNames() string {
	names := make([]string, len(Events))
	for i, e := range Events {
		names[i] = string(e)
	}
	return strings.Join(names, ", ")
}

// matches says whether the hook runs for a call of tool (our name). A matcher names our tool
// or Claude Code's name for it ("bash" and "Bash" both match bash; "Edit|Write" matches
// edit_file and write_file), as a whole name: "Read" does not match read_artifact.
func (h Hook) matches(tool string) bool {
	if h.re == nil || !toolEvent(h.Event) {
		return true
	}
	if h.re.MatchString(tool) {
		return true
	}
	if cc, ok := claudeName(tool); ok && h.re.MatchString(cc) {
		return true
	}
	return false
}

// Matching returns the hooks that run for event (and tool, for tool events), in config order.
func (s *Set) Matching(event Event, tool string) []Hook {
	if s == nil {
		return nil
	}
	var out []Hook
	for _, h := range s.hooks {
		if h.Event == event && h.Skipped == "" && h.matches(tool) {
			out = append(out, h)
		}
	}
	return out
}

// Wants says whether any hook that runs is configured for event: without one the caller
// skips the round trip to the executor.
func (s *Set) Wants(event Event) bool {
	if s == nil {
		return false
	}
	return slices.ContainsFunc(s.hooks, func(h Hook) bool { return h.Event == event && h.Skipped == "" })
}

// All returns every hook, the skipped ones too, in config order (for /hooks).
func (s *Set) All() []Hook {
	if s == nil {
		return nil
	}
	return slices.Clone(s.hooks)
}

// MaxTimeoutS is the longest bound of the hooks that run for event.
func (s *Set) MaxTimeoutS(event Event) int {
	longest := 0
	if s != nil {
		for _, h := range s.hooks {
			if h.Event == event && h.Skipped == "" {
				longest = max(longest, h.Timeout())
			}
		}
	}
	return longest
}
