// Package lessons is troupe's learning layer (docs/ARCHITECTURE.md, "The learning layer"): it
// learns, from a session's events, a lesson each time a failure is followed by its fix; it finds
// the lessons relevant to a task or a failure (BM25 over the project's lessons); and it scores
// them by whether handing them out kept their trap away. Everything here is a plain type fed
// values, with no actor, bus or store; the session and the Node do the effects.
package lessons

import (
	"slices"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
)

// maxOpen bounds the failures waiting for their fix; maxEdits the changes a lesson lists.
const (
	maxOpen  = 8
	maxEdits = 4
)

// Failure is a failure a Capture saw: Key is the trap's signature (a lesson with the same key
// is about it) and Text is what to look lessons up with.
type Failure struct {
	Key, Text string
}

// Seen is what one event taught: the lessons learnt on it, and the failure it was, if any.
type Seen struct {
	Lessons []messages.Lesson
	Failure *Failure
}

// Capture watches one session's events for a failure followed by its fix. Feed it every event
// in order (Observe takes what an emitter emits or an envelope decodes to). It belongs to one
// session; it is not safe for concurrent use.
type Capture struct {
	Model, Session string
	Now            func() time.Time
	// Task is the task at hand (the session's, or the chat's latest input), kept with a lesson.
	Task string

	calls map[string]messages.ToolCallData // started, not finished
	open  []*pending                       // failures waiting for their fix, oldest first
	turn  int
}

// pending is a failure waiting for its fix, and what changed since.
type pending struct {
	trigger messages.LessonTrigger
	key     string
	tool    string // the tool that failed ("" for the check)
	head    string // a command's head (commandHead), the check's command
	call    string // the failed call's arguments, to tell a retry from a new call
	failed  string
	edits   []string
	files   []string
	loopEv  []string // a loop's evidence
}

// Observe feeds one event; data is its payload struct (a pointer, as messages.NewEventData
// makes it).
func (c *Capture) Observe(typ messages.EventType, data any) Seen {
	if c.calls == nil {
		c.calls = map[string]messages.ToolCallData{}
	}
	switch d := data.(type) {
	case *messages.SessionStartedData:
		if d.Task != "" {
			c.Task = d.Task
		}
	case *messages.TurnStartedData:
		c.turn = d.Turn
	case *messages.ToolCallData:
		if typ == messages.EventToolStarted {
			d2 := *d
			d2.Args = textfmt.Clip(d2.Args, 4096)
			c.calls[d.CallID] = d2
		}
	case *messages.ToolFinishedData:
		if typ != messages.EventToolFinished {
			return Seen{}
		}
		call, ok := c.calls[d.CallID]
		delete(c.calls, d.CallID)
		if !ok {
			call = messages.ToolCallData{Tool: d.Tool}
		}
		if d.IsError {
			return Seen{Failure: c.toolFailed(call, d.Output)}
		}
		return Seen{Lessons: c.toolWorked(call, d.Changed)}
	case *messages.DoneCheckData:
		if d.Kind != messages.DoneCheckCommand {
			return Seen{}
		}
		if !d.Passed {
			line := errorLine(d.Output)
			p := &pending{trigger: messages.LessonCheckFailed, head: d.Command,
				key:    "check_failed " + d.Command + " | " + normalize(line),
				failed: "the done-check `" + textfmt.Clip(d.Command, 200) + "` failed: " + line}
			return Seen{Failure: c.openFailure(p)}
		}
		var out []messages.Lesson
		c.closeWhere(func(p *pending) bool { return p.trigger == messages.LessonCheckFailed && p.head == d.Command }, func(p *pending) {
			if len(p.edits) > 0 {
				out = append(out, c.lesson(p, "the check passed after: "+strings.Join(p.edits, "; ")))
			}
		})
		return Seen{Lessons: out}
	case *messages.ToolRepairedData:
		if d.Tool == "" {
			return Seen{} // a reply continued, not a call: nothing about the project
		}
		p := &pending{trigger: messages.LessonRepaired, tool: d.Tool, key: "repaired " + d.Tool + " " + d.Kind,
			failed: "a " + d.Tool + " call written as " + textfmt.Clip(oneLine(d.Before), 160) + " (" + d.Kind + ")"}
		l := c.lesson(p, "troupe repaired it to "+textfmt.Clip(oneLine(d.After), 160)+"; write the call that way")
		return Seen{Lessons: []messages.Lesson{l}, Failure: &Failure{Key: p.key, Text: p.failed}}
	case *messages.LoopSteeredData:
		p := &pending{trigger: messages.LessonLoop, loopEv: d.Evidence,
			key:    "loop " + d.Kind + " | " + normalize(strings.Join(trimTurns(d.Evidence), " ")),
			failed: "stuck in a loop (" + d.Kind + "): " + textfmt.Clip(strings.Join(trimTurns(d.Evidence), "; "), 300)}
		c.closeWhere(func(q *pending) bool { return q.trigger == messages.LessonLoop }, func(*pending) {})
		return Seen{Failure: c.openFailure(p)}
	}
	return Seen{}
}

// toolFailed opens a failure for a call that failed.
func (c *Capture) toolFailed(call messages.ToolCallData, out string) *Failure {
	line := errorLine(out)
	p := &pending{tool: call.Tool, call: call.Args}
	if cmd := argString(call.Args, "command"); call.Tool == "bash" && cmd != "" {
		p.trigger, p.head = messages.LessonCommandFailed, commandHead(cmd)
		p.key = "command_failed " + p.head + " | " + normalize(line)
	} else {
		p.trigger, p.head = messages.LessonToolError, call.Tool
		p.key = "tool_error " + call.Tool + " | " + normalize(line)
	}
	p.failed = callText(call.Tool, call.Args) + " failed: " + line
	return c.openFailure(p)
}

// openFailure records p as waiting for its fix; the same command or tool failing again keeps
// the first failure (the lesson is about the trap met first).
func (c *Capture) openFailure(p *pending) *Failure {
	f := &Failure{Key: p.key, Text: p.failed}
	for _, q := range c.open {
		if q.trigger == p.trigger && q.head == p.head && q.tool == p.tool {
			return f
		}
	}
	c.open = append(c.open, p)
	if len(c.open) > maxOpen {
		c.open = slices.Delete(c.open, 0, len(c.open)-maxOpen)
	}
	return f
}

// toolWorked notes what a successful call changed, and closes the failures it fixed.
func (c *Capture) toolWorked(call messages.ToolCallData, changed []string) []messages.Lesson {
	if len(c.open) == 0 {
		return nil // no failure waits for its fix: nothing below would change (and each reads the arguments' JSON)
	}
	if what := changeText(call.Tool, call.Args, changed); what != "" {
		files := changed
		if p := argString(call.Args, "path"); p != "" && len(files) == 0 {
			files = []string{p}
		}
		for _, p := range c.open {
			if len(p.edits) < maxEdits && !slices.Contains(p.edits, what) {
				p.edits = append(p.edits, what)
			}
			for _, f := range files {
				if !slices.Contains(p.files, f) {
					p.files = append(p.files, f)
				}
			}
		}
	}
	var out []messages.Lesson
	cmd := argString(call.Args, "command")
	head := call.Tool
	if call.Tool == "bash" && cmd != "" {
		head = commandHead(cmd)
		if !readOnlyCommand(head) {
			// a command that prepares the ground (an install, a migration) may be the fix
			for _, p := range c.open {
				if what := "ran " + callText("bash", call.Args); p.head != head && len(p.edits) < maxEdits && !slices.Contains(p.edits, what) {
					p.edits = append(p.edits, what)
				}
			}
		}
	}
	c.closeWhere(func(p *pending) bool {
		switch p.trigger {
		case messages.LessonCommandFailed:
			return call.Tool == "bash" && p.head == head
		case messages.LessonToolError:
			return p.tool == call.Tool
		case messages.LessonLoop:
			return !inEvidence(p.loopEv, call.Tool, call.Args)
		}
		return false
	}, func(p *pending) {
		if fix := c.fixOf(p, call); fix != "" {
			out = append(out, c.lesson(p, fix))
		}
	})
	return out
}

// fixOf says what fixed p, given the call that worked ("" when nothing did: the same call
// simply passed the second time, which teaches nothing).
func (c *Capture) fixOf(p *pending, call messages.ToolCallData) string {
	var parts []string
	if call.Args != p.call {
		switch p.trigger {
		case messages.LessonLoop:
			parts = append(parts, "broke out with "+callText(call.Tool, call.Args))
		default:
			parts = append(parts, "this worked: "+callText(call.Tool, call.Args))
		}
	}
	if len(p.edits) > 0 && p.trigger != messages.LessonLoop {
		parts = append(parts, "after "+strings.Join(p.edits, "; "))
	}
	return strings.Join(parts, ", ")
}

// closeWhere removes the open failures match selects, calling closed on each.
func (c *Capture) closeWhere(match func(*pending) bool, closed func(*pending)) {
	kept := c.open[:0]
	for _, p := range c.open {
		if match(p) {
			closed(p)
			continue
		}
		kept = append(kept, p)
	}
	clear(c.open[len(kept):])
	c.open = kept
}

// lesson makes the lesson of p fixed by fix.
func (c *Capture) lesson(p *pending, fix string) messages.Lesson {
	now := time.Now().UTC()
	if c.Now != nil {
		now = c.Now().UTC()
	}
	return messages.Lesson{ID: idOf(p.key), Trigger: p.trigger, Key: p.key, Failed: p.failed, Fixed: textfmt.Clip(fix, 600),
		Files: slices.Clone(p.files), Task: textfmt.Clip(oneLine(c.Task), 300), Model: c.Model, Session: c.Session, Created: now, Updated: now, Seen: 1}
}

// inEvidence says whether a call is one of a loop's repeated calls.
func inEvidence(evidence []string, tool, args string) bool {
	probe := strings.TrimSuffix(textfmt.Clip(tool+" "+canonical(args), 60), "…")
	for _, e := range evidence {
		if strings.Contains(e, probe) {
			return true
		}
	}
	return false
}

// trimTurns drops the "turn N: " of each piece of loop evidence.
func trimTurns(evidence []string) []string {
	out := make([]string, len(evidence))
	for i, e := range evidence {
		if _, rest, ok := strings.Cut(e, ": "); ok && strings.HasPrefix(e, "turn ") {
			e = rest
		}
		out[i] = e
	}
	return out
}
