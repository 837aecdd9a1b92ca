package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"sync"

	"github.com/troupe-dev/troupe/llm"
)

// Step is one call a careful model would make for a task.
type Step struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// The families of mistake, one per section of issue 9 the harness answers: calls written as
// text, a call written in the reasoning, argument defects, other harnesses' tool names,
// loops, and a write that leaves a syntax error.
var families = []string{"text", "reasoning_call", "args", "tool_name", "loop", "syntax_error"}

// variants are, per family that has them, the ways of making its mistake: the text format,
// the argument defect, the other harness. A persona has one; the i.i.d. model draws one.
var variants = map[string][]string{"text": textFormats, "args": argDefects, "tool_name": harnesses}

// mistake is one family of mistake in one variant; the zero value is a correct call. The
// variant of a syntax_error is the extension of the file it broke.
type mistake struct{ family, variant string }

var loopMistake = mistake{family: "loop"}

func (m mistake) clean() bool { return m.family == "" }

// key is "family/variant", or the family alone.
func (m mistake) key() string {
	if m.variant == "" {
		return m.family
	}
	return m.family + "/" + m.variant
}

// callContext is what the model knows as it writes its next call.
type callContext struct {
	step   Step
	args   map[string]any
	first  bool    // no call made yet: there is nothing to re-send
	fixing bool    // the call fixes a syntax error the harness reported
	retry  bool    // its last call came back with an error
	last   mistake // the mistake in that call
}

// fits says whether m can be made on the call c: a loop needs a previous call, a syntax
// error a write of a file the check knows, a coercion a number or boolean to send as a string.
func (m mistake) fits(c callContext) bool {
	switch {
	case m.family == "loop":
		return !c.first && !c.fixing
	case m.family == "syntax_error":
		_, _, ok := brokenStep(c.step)
		return ok && !c.fixing
	case m.family == "args" && m.variant == "coercion":
		return hasScalars(c.args)
	}
	return true
}

// familyCount is, per family and per family/variant, the mistakes made and how many of them
// the harness recovered (the task moved on right after the mistaken call; for a syntax error,
// the fix that followed the harness's report landed).
type familyCount struct{ made, recovered map[string]int }

func newFamilyCount() *familyCount {
	return &familyCount{made: map[string]int{}, recovered: map[string]int{}}
}

func count(into map[string]int, m mistake) {
	into[m.family]++
	if m.variant != "" {
		into[m.key()]++
	}
}

// mistakes decides the mistake (or none) the model makes in its next call.
type mistakes interface {
	next(c callContext) mistake
}

// iidNoise is the first model of the bench: every call redraws, at the set rate, one family
// of mistake uniformly among those that fit the call, and one of its variants that fits,
// whatever happened before.
type iidNoise struct {
	rate float64
	rng  *rand.Rand
}

func (n *iidNoise) next(c callContext) mistake {
	if n.rng.Float64() >= n.rate {
		return mistake{}
	}
	var choices [][]mistake // per family, its variants that fit
	for _, f := range families {
		vs := variants[f]
		if len(vs) == 0 {
			vs = []string{""}
		}
		var fitting []mistake
		for _, v := range vs {
			if m := (mistake{f, v}); m.fits(c) {
				fitting = append(fitting, m)
			}
		}
		if len(fitting) > 0 {
			choices = append(choices, fitting)
		}
	}
	family := choices[n.rng.Intn(len(choices))]
	return family[n.rng.Intn(len(family))]
}

// attempt is a call the model made, waiting for its result.
type attempt struct {
	made   mistake
	broke  bool // it wrote the step's text with a syntax error
	fixing bool // it fixes such an error
}

// noisyModel plays a task's steps in order, making the mistakes its mistakes value chooses
// (seeded, so repair on and off see the same model). It moves to the next step when the call
// it last made came back without error; after a write it broke, only if the result did not
// report the syntax error (then its next call is the fix).
type noisyModel struct {
	mu       sync.Mutex
	steps    []Step
	root     string // the workspace, for the absolute paths other harnesses use
	choose   mistakes
	counts   *familyCount
	step     int
	fix      *Step    // the edit fixing a reported syntax error, until it lands
	lastStep *Step    // the step of the last call it made, for a loop to re-send
	sent     int      // how many messages the request had when the model last replied
	pending  *attempt // the last call, when its result decides what comes next
	turns    int
}

func newNoisyModel(steps []Step, root string, choose mistakes, counts *familyCount) *noisyModel {
	return &noisyModel{steps: steps, root: root, choose: choose, counts: counts}
}

func (m *noisyModel) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Reply, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.turns++
	since := resultsSince(req.Messages, m.sent)
	m.sent = len(req.Messages)
	c := callContext{first: m.lastStep == nil}
	if p := m.pending; p != nil {
		m.pending = nil
		if since.succeeded {
			m.landed(*p, since.syntaxReported)
		} else {
			c.retry, c.last = true, p.made
		}
	}
	usage := llm.Usage{InputTokens: 100, OutputTokens: 20}
	if m.fix == nil && m.step >= len(m.steps) {
		return &llm.Reply{Text: "Done: the task is complete.", Stop: llm.StopEnd, Usage: usage}, nil
	}
	var step Step
	if m.fix != nil {
		step = *m.fix
	} else {
		step = m.steps[m.step]
	}
	c.step, c.args, c.fixing = step, decodeArgs(step), m.fix != nil
	mk := m.choose.next(c)
	id := fmt.Sprintf("c%d", m.turns)
	var reply *llm.Reply
	switch mk.family {
	case "loop":
		count(m.counts.made, mk)
		// its result is not judged: the next turn writes the same step again
		return structured(*m.lastStep, id, usage), nil
	case "syntax_error":
		broken, _, _ := brokenStep(step)
		mk.variant = filepath.Ext(stringArg(c.args, "path"))
		reply = structured(broken, id, usage)
		m.pending = &attempt{made: mk, broke: true}
	default:
		reply = render(step, mk, id, m.root)
		m.pending = &attempt{made: mk, fixing: c.fixing}
	}
	if !mk.clean() {
		count(m.counts.made, mk)
	}
	m.lastStep = &step
	reply.Usage = usage
	if reply.Reasoning != "" {
		emit(llm.Event{Kind: llm.EventReasoning, Text: reply.Reasoning})
	}
	if reply.Text != "" {
		emit(llm.Event{Kind: llm.EventText, Text: reply.Text})
	}
	return reply, nil
}

// landed moves the model on after its call p came back without error.
func (m *noisyModel) landed(p attempt, syntaxReported bool) {
	if !p.made.clean() && !p.broke {
		count(m.counts.recovered, p.made)
	}
	switch {
	case p.broke && syntaxReported:
		_, fix, _ := brokenStep(m.steps[m.step])
		m.fix = &fix
	case p.fixing:
		count(m.counts.recovered, mistake{"syntax_error", filepath.Ext(stringArg(decodeArgs(*m.fix), "path"))})
		m.fix = nil
		m.step++
	default: // including a broken write nobody reported: the model believes it done
		m.step++
	}
}

// callResults is what the tool results after the model's last reply say.
type callResults struct {
	succeeded      bool // there is at least one, and none is an error
	syntaxReported bool // one reports a syntax error in a file it wrote
}

// resultsSince reads the tool results among msgs[from:], the messages added since the model
// last replied (from is the request's length then). A reply the session did not commit (one
// it answered with a note) adds no results, so it never counts as a success.
func resultsSince(msgs []llm.Message, from int) callResults {
	var r callResults
	if from > len(msgs) {
		return r // the log was compacted since: nothing to judge by
	}
	results := 0
	for _, msg := range msgs[from:] {
		if msg.Role != llm.RoleTool {
			continue
		}
		if msg.IsError {
			return callResults{}
		}
		results++
		r.syntaxReported = r.syntaxReported || strings.Contains(msg.Content, syntaxReport)
	}
	r.succeeded = results > 0
	return r
}

func structured(s Step, id string, u llm.Usage) *llm.Reply {
	return &llm.Reply{ToolCalls: []llm.ToolCall{{ID: id, Name: s.Name, Args: string(s.Args)}}, Stop: llm.StopToolCalls, Usage: u}
}

func decodeArgs(s Step) map[string]any {
	var args map[string]any
	_ = json.Unmarshal(s.Args, &args) // the suite's steps are checked when it loads
	return args
}

func stringArg(args map[string]any, key string) string {
	v, _ := args[key].(string)
	return v
}

// render writes step s as the model would with mistake mk.
func render(s Step, mk mistake, id, root string) *llm.Reply {
	args := decodeArgs(s)
	call := func(name, a string) *llm.Reply {
		return &llm.Reply{ToolCalls: []llm.ToolCall{{ID: id, Name: name, Args: a}}, Stop: llm.StopToolCalls}
	}
	switch mk.family {
	case "text":
		return &llm.Reply{Text: callText(mk.variant, s.Name, args), Stop: llm.StopEnd}
	case "reasoning_call": // the call written while thinking, no answer text
		return &llm.Reply{Reasoning: "The next step is " + s.Name + ".\n" + hermesBlock(s.Name, args), Stop: llm.StopEnd}
	case "args":
		return call(s.Name, defectArgs(mk.variant, args))
	case "tool_name":
		return call(harnessCall(mk.variant, s, args, root))
	}
	return call(s.Name, string(s.Args))
}
