package openai

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrReplyTooLarge is a reply whose text, reasoning and arguments together pass the
// accumulator's limit: a model reasoning without end, or a server repeating itself.
var ErrReplyTooLarge = errors.New("the reply passed the size limit without finishing")

// DefaultReplyLimit bounds one assembled reply.
const DefaultReplyLimit = 32 << 20

// Call is one assembled tool call. Args is the argument text as the model wrote it.
type Call struct {
	ID, Name, Args string
}

// Result is a whole reply assembled from its chunks.
type Result struct {
	Text, Reasoning string
	// ReasoningDetails are the reply's reasoning_details blocks, merged whole (nil when the
	// server sent none): the provider's own record of the reasoning, to send back as it came.
	ReasoningDetails json.RawMessage
	Calls            []Call
	// Finish is the finish reason, made consistent: "tool_calls" whenever there are calls and
	// the server said "stop" or nothing.
	Finish string
	Model  string
	Usage  *Usage // nil when the server sent none
	Quirks Quirks
}

// Accumulator assembles a reply from chunks, reporting text and reasoning as they arrive.
// Calls are only handed out whole, by Finish: a call is never run from a stream that did not
// end.
type Accumulator struct {
	OnText, OnReasoning func(string)
	Limit               int // 0: DefaultReplyLimit

	text, reasoning []byte
	calls           []*Call
	byIndex         map[int]int // a delta's index → position in calls
	last            int         // position of the call the last delta touched, -1 for none
	finish, model   string
	usage           *Usage
	size            int
	quirks          Quirks
	details         detailBlocks
}

// Add takes in one chunk.
func (a *Accumulator) Add(c *Chunk) error {
	if a.byIndex == nil {
		a.byIndex, a.last = map[int]int{}, -1
	}
	if c.Model != "" {
		a.model = c.Model
	}
	if c.Usage != nil && c.Usage.PromptTokens != nil {
		u := *c.Usage
		a.usage = &u
	}
	if len(c.Choices) == 0 && c.Usage == nil {
		a.quirks.Add(QuirkKeepAlive)
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		d := &ch.Delta
		if r := a.reasoningOf(d); r != "" {
			if err := a.grow(len(r)); err != nil {
				return err
			}
			a.reasoning = append(a.reasoning, r...)
			if a.OnReasoning != nil {
				a.OnReasoning(r)
			}
		}
		if len(d.ReasoningDetails) > 0 {
			if err := a.grow(len(d.ReasoningDetails)); err != nil {
				return err
			}
			if !a.details.add(d.ReasoningDetails) {
				a.quirks.Add(QuirkOddFieldType)
			}
		}
		for _, t := range []string{d.Content.Text, d.Refusal} {
			if t == "" {
				continue
			}
			if err := a.grow(len(t)); err != nil {
				return err
			}
			a.text = append(a.text, t...)
			if a.OnText != nil {
				a.OnText(t)
			}
		}
		if d.Content.Parts {
			a.quirks.Add(QuirkContentParts)
		}
		if d.Refusal != "" && a.finish == "" {
			a.finish = "content_filter"
		}
		for j := range d.ToolCalls {
			if err := a.addCall(&d.ToolCalls[j]); err != nil {
				return err
			}
		}
		if ch.FinishReason != "" {
			a.finish = ch.FinishReason
		}
	}
	return nil
}

// reasoningOf reads reasoning from the first field that holds it, so a server that fills two
// of them with the same text is not shown it twice.
func (a *Accumulator) reasoningOf(d *Delta) string {
	switch {
	case d.ReasoningContent != "":
		return d.ReasoningContent
	case d.Reasoning != "":
		return d.Reasoning
	case d.Content.Thinking != "":
		return d.Content.Thinking
	case len(d.ReasoningDetails) > 0:
		var details []struct {
			Text    string `json:"text"`
			Summary string `json:"summary"`
		}
		if json.Unmarshal(d.ReasoningDetails, &details) != nil {
			return ""
		}
		var s string
		for _, x := range details {
			s += x.Text + x.Summary
		}
		if s != "" {
			a.quirks.Add(QuirkReasoningDetails)
		}
		return s
	}
	return ""
}

// addCall merges one call delta. The index says which call it continues; without one, an id
// not seen before (or a name on a call whose arguments began) starts a new call and anything
// else continues the last one.
func (a *Accumulator) addCall(tc *CallDelta) error {
	pos := -1
	switch {
	case tc.Index != nil:
		p, ok := a.byIndex[*tc.Index]
		if ok && tc.ID != "" && a.calls[p].ID != "" && tc.ID != a.calls[p].ID {
			a.quirks.Add(QuirkReusedIndex) // a second call under the same index
			ok = false
		}
		if ok {
			pos = p
		}
	default:
		a.quirks.Add(QuirkCallWithoutIndex)
		pos = a.findByID(tc.ID)
		if pos < 0 && tc.ID == "" && a.last >= 0 && !(tc.Function.Name != "" && a.calls[a.last].Args != "") {
			pos = a.last
		}
	}
	if pos < 0 {
		a.calls = append(a.calls, &Call{})
		pos = len(a.calls) - 1
		if tc.Index != nil {
			a.byIndex[*tc.Index] = pos
		}
	}
	a.last = pos
	c := a.calls[pos]
	if c.ID == "" {
		c.ID = tc.ID
	}
	switch name := tc.Function.Name; {
	case name == "":
	case c.Name != "" && name == c.Name:
		a.quirks.Add(QuirkRepeatedName)
	default:
		c.Name += name
	}
	args, err := a.argsText(tc.Function.Arguments, c.Args)
	if err != nil {
		return err
	}
	if err := a.grow(len(args) + len(tc.Function.Name)); err != nil {
		return err
	}
	c.Args += args
	return nil
}

// argsText is a delta's argument text: the string, or the object itself when a server sends
// one (Ollama, some vLLM parsers) — then the whole arguments arrive at once.
func (a *Accumulator) argsText(raw json.RawMessage, sofar string) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	a.quirks.Add(QuirkArgumentsObject)
	if sofar != "" && string(raw) == sofar {
		return "", nil
	}
	return string(raw), nil
}

func (a *Accumulator) findByID(id string) int {
	if id == "" {
		return -1
	}
	for i, c := range a.calls {
		if c.ID == id {
			return i
		}
	}
	return -1
}

func (a *Accumulator) grow(n int) error {
	limit := a.Limit
	if limit <= 0 {
		limit = DefaultReplyLimit
	}
	a.size += n
	if a.size > limit {
		return fmt.Errorf("%w (%d MiB of text, reasoning and arguments)", ErrReplyTooLarge, limit>>20)
	}
	return nil
}

// Finish returns the whole reply. done says the stream ended with [DONE]: a stream that ends
// with neither [DONE] nor a finish reason was cut off, and fails with io.ErrUnexpectedEOF.
func (a *Accumulator) Finish(done bool) (*Result, error) {
	if a.finish == "" && !done {
		return nil, errStreamEnded
	}
	r := &Result{Text: string(a.text), Reasoning: string(a.reasoning), ReasoningDetails: a.details.marshal(),
		Finish: a.finish, Model: a.model, Usage: a.usage, Quirks: a.quirks}
	for n, c := range a.calls {
		call := *c
		if call.ID == "" {
			r.Quirks.Add(QuirkCallWithoutID)
			call.ID = fmt.Sprintf("call_%d", n) // pairing results with calls needs one
		}
		r.Calls = append(r.Calls, call)
	}
	switch {
	case r.Finish == "":
		r.Quirks.Add(QuirkFinishMissing)
		r.Finish = "stop"
		if len(r.Calls) > 0 {
			r.Finish = "tool_calls"
		}
	case len(r.Calls) > 0 && r.Finish != "tool_calls" && r.Finish != "function_call" &&
		r.Finish != "length" && r.Finish != "content_filter":
		r.Quirks.Add(QuirkFinishStopCalls)
		r.Finish = "tool_calls"
	}
	if r.Usage == nil {
		r.Quirks.Add(QuirkNoUsage)
	}
	return r, nil
}
