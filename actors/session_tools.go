package actors

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// eventPreviewBytes bounds the tool output carried in tool.finished events; the model gets the
// tool's own bounded result, the log keeps it whole.
const eventPreviewBytes = 2048

// dispatch sends the turn's calls to the tool executor over the bus, in call order.
func (s *session) dispatch(ctx actor.Context, calls []llm.ToolCall) {
	s.pending = calls
	s.results = make(map[string]*messages.ToolResult, len(calls))
	s.toolStarts = make(map[string]time.Time, len(calls))
	s.committed = 0
	s.become(phaseExecuting, s.executing)
	for _, c := range calls {
		s.emit(messages.EventToolProposed, &messages.ToolCallData{Turn: s.turn, CallID: c.ID, Tool: c.Name, Args: c.Args, Summary: callSummary(c)})
		req := &messages.ToolRequest{Turn: s.turn, CallID: c.ID, Name: c.Name, Args: c.Args, ReplyTo: s.addr}
		if err := s.deps.Bridge.Send(s.toolAddr, req); err != nil {
			// The bus refused: answer the call here so the turn still completes and stays paired.
			ctx.Send(ctx.Self(), &messages.ToolResult{Turn: s.turn, CallID: c.ID, Name: c.Name, IsError: true,
				Output: fmt.Sprintf("internal error: could not reach the tool executor: %v", err)})
		}
	}
}

func (s *session) onToolStarted(msg *messages.ToolStarted) {
	for _, c := range s.pending {
		if c.ID == msg.CallID {
			s.toolStarts[c.ID] = time.Now()
			s.emit(messages.EventToolStarted, &messages.ToolCallData{Turn: s.turn, CallID: c.ID, Tool: c.Name, Args: c.Args, Summary: callSummary(c)})
			return
		}
	}
}

// onToolResult collects results and commits them in call order; when the last is in, the next
// turn starts (or the cancelled turn ends).
func (s *session) onToolResult(ctx actor.Context, msg *messages.ToolResult) {
	if msg.Turn != s.turn || !s.isPending(msg.CallID) {
		return
	}
	if _, dup := s.results[msg.CallID]; dup {
		return
	}
	s.results[msg.CallID] = msg
	s.awaiting = slices.DeleteFunc(s.awaiting, func(a *messages.ApprovalRequestedData) bool { return a.CallID == msg.CallID })
	for s.committed < len(s.pending) {
		call := s.pending[s.committed]
		res, ok := s.results[call.ID]
		if !ok {
			break
		}
		if err := s.commitToolResult(call, res); err != nil {
			s.fail(ctx, messages.FailConfig, err.Error())
			return
		}
		s.track(call, res)
		s.observeCall(call, res)
		s.emit(messages.EventToolFinished, &messages.ToolFinishedData{Turn: s.turn, CallID: call.ID, Tool: call.Name,
			IsError: res.IsError, Output: preview(res.Output, eventPreviewBytes), Bytes: len(res.Output),
			Changed: res.Changed, DurationMS: res.Duration.Milliseconds()})
		s.committed++
	}
	if s.committed < len(s.pending) {
		return
	}
	s.pending, s.results = nil, nil
	if s.cancelling != "" {
		s.endCancelledTurn(ctx)
		return
	}
	s.turnFinished(string(llm.StopToolCalls))
	s.flushRepairs()
	s.syncStore()
	if s.steerLoops(ctx) {
		s.continueTurn(ctx)
	}
}

func (s *session) isPending(id string) bool {
	for _, c := range s.pending {
		if c.ID == id {
			return true
		}
	}
	return false
}

func (s *session) toolSpecs() []llm.ToolSpec {
	specs := s.deps.Tools.Specs()
	out := make([]llm.ToolSpec, len(specs))
	for i, sp := range specs {
		out[i] = llm.ToolSpec{Name: sp.Name, Description: sp.Description, Schema: sp.Schema}
	}
	return out
}

// promptBytes is the size of the stable prefix: the system prompt plus the tool schemas as JSON.
func (s *session) promptBytes() int {
	data, _ := json.Marshal(s.toolSpecs())
	return len(s.deps.System) + len(data)
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
