package actors

import (
	"encoding/json"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/hooks"
)

// eventPreviewBytes bounds the tool output carried in tool.finished events; the model gets the
// tool's own bounded result, the log keeps it whole.
const eventPreviewBytes = 2048

// dispatch sends the turn's calls to the tool executor, in call order. The batch owns the
// pairing; the session performs what it decides. The calls go out before their tool.proposed
// events are made (what each runs as, encoded), so the executor starts meanwhile: whatever it
// answers (tool.started first) is handled after this, so the events keep their order.
func (s *session) dispatch(ctx actor.Context, batch *toolBatch) {
	s.cur.batch = batch
	s.become(phaseExecuting, s.executing)
	calls := batch.Calls()
	for _, c := range calls {
		ctx.Send(s.links.toolexec, &messages.ToolRequest{Turn: s.turn, CallID: c.ID, Name: c.Name, Args: c.Args, ReplyTo: s.links.addr,
			Inferred: batch.isInferred(c.ID)})
	}
	// The recheck for the call after the batch goes behind its calls (turn_recheck.go), unless
	// PreModel hooks are set: that call asks as its hooks start, as before (they only observe
	// and are not waited for, so the recheck is not promised to see what they did either way).
	if ask := s.cur.ahead.ask(s.turn+1, !s.deps.Hooks.Wants(hooks.PreModel)); ask != nil {
		ctx.Send(s.links.toolexec, ask)
	}
	for _, c := range calls {
		s.emit(messages.ToolProposedEvent.Of(s.cur.callData(s.turn, c)))
	}
}

// onToolResult hands a result to the batch and commits what it releases, in call order; when
// the last is in, the next turn starts (or the cancelled turn ends). The last is committed with
// the session's meta and the turn's repair counters, the write the turn's end makes
// (syncStore), so a turn that goes on makes one commit fewer: the steering observes each
// result first, so the counters hold the last one's repairs too.
func (s *session) onToolResult(ctx actor.Context, msg *messages.ToolResult) {
	released := s.cur.batch.Add(msg)
	closing := s.cur.batch.Done()
	for i, r := range released {
		observed := s.cur.observed(s.turn, r.Call, r.Result)
		e, m := toolResultEntry(r.Call, r.Result)
		var err error
		if closing && i == len(released)-1 {
			if s.links.emitter != nil {
				s.meta.EventSeq = s.links.emitter.Seq()
			}
			var item projection.Item
			if item, err = appendWithMeta(s.deps.Store, s.meta, s.cur.repairsFor(s.deps.Model), e, m); err == nil {
				s.items, s.cur.metaStored = append(s.items, item), true
			}
		} else {
			err = s.commit(e, m)
		}
		if err != nil {
			s.fail(ctx, messages.FailInternal, err.Error())
			return
		}
		s.asChild.trail.track(r.Call, r.Result)
		s.instructions() // the copy is made on first use
		s.nested.touch(s.deps.Workspace, r.Call, r.Result)
		s.emit(observed...)
		ran := s.cur.callData(s.turn, r.Call)
		s.emit(messages.ToolFinishedEvent.Of(&messages.ToolFinishedData{Turn: s.turn, CallID: r.Call.ID, Tool: ran.Tool,
			RequestedTool: ran.RequestedTool,
			IsError:       r.Result.IsError, Output: preview(r.Result.Output, eventPreviewBytes), Bytes: len(r.Result.Output),
			Changed: r.Result.Changed, DurationMS: r.Result.Duration.Milliseconds()}))
	}
	if s.cur.batch != nil && s.cur.batch.Done() {
		s.cur.ahead.closing = true // a call the last result starts takes the recheck asked ahead
		s.takeTurnStep(ctx, s.cur.callsDone(s.turn, s.cfg.Interactive))
		s.cur.ahead.closing = false
	}
}

// toolSpecs are the tools as the model is told of them.
func (d *SessionDeps) toolSpecs() []llm.ToolSpec {
	specs := d.Tools.Specs()
	out := make([]llm.ToolSpec, len(specs))
	for i, sp := range specs {
		out[i] = llm.ToolSpec{Name: sp.Name, Description: sp.Description, Schema: sp.Schema}
	}
	return out
}

// promptBytes is the size of the stable prefix: the system prompt plus the tool schemas as JSON.
func (d *SessionDeps) promptBytes() int {
	data, _ := json.Marshal(d.toolSpecs())
	return len(d.System) + len(data)
}

// callDataFor names what a call runs as with a session's tools (tools.Registry.Resolved: the
// tool its name resolves to and its repaired arguments), with the model's own name and
// arguments beside them when repair changed either. With repair off, or a name that maps to
// nothing, it is the call as sent. The tools are the session's as they are at the call (a
// /model switch changes them).
func callDataFor(deps *SessionDeps, noRepair bool) func(n int, c llm.ToolCall) *messages.ToolCallData {
	return func(n int, c llm.ToolCall) *messages.ToolCallData {
		d := &messages.ToolCallData{Turn: n, CallID: c.ID, Tool: c.Name, Args: c.Args}
		if deps.Tools != nil && !noRepair {
			if tool, args, ok := deps.Tools.Resolved(c.Name, c.Args); ok && (tool != c.Name || args != c.Args) {
				d.Tool, d.Args, d.RequestedTool, d.RequestedArgs = tool, args, c.Name, c.Args
			}
		}
		d.Summary = callSummary(llm.ToolCall{Name: d.Tool, Args: d.Args})
		return d
	}
}

// callSummary is a one-line description of a call for humans: the tool and its main argument.
func callSummary(c llm.ToolCall) string {
	var args map[string]any
	if json.Unmarshal([]byte(c.Args), &args) != nil {
		return c.Name + " (unparsed arguments)"
	}
	for _, key := range []string{"path", "command", "pattern", "url", "task_name"} {
		if v, ok := args[key].(string); ok {
			return c.Name + " " + preview(firstLine(v), 120)
		}
	}
	return c.Name
}

// preview keeps the head of s within n bytes, cut at a rune boundary, marking the cut.
func preview(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… [%d more bytes]", len(s)-cut)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// requestSize estimates the bytes of a request: what the size of the context costs.
func requestSize(req *llm.Request) int {
	n := len(req.System)
	for _, m := range req.Messages {
		n += len(m.Content) + len(m.Reasoning)
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Args)
		}
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Schema)
	}
	return n
}
