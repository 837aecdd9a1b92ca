package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand"
	"slices"
	"strings"
	"sync"

	"github.com/troupe-dev/troupe/llm"
)

// Step is one call a careful model would make for a task.
type Step struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// The families of mistake the noisy model makes, each at the same share of its mistakes.
var families = []string{"text_hermes", "text_qwen3_xml", "text_fenced_json", "arg_alias", "tool_name",
	"python_literal", "double_encoded", "loop"}

// familyCount is, per family, the mistakes made and how many of them the harness recovered
// (the task moved on right after the mistaken call).
type familyCount struct{ made, recovered map[string]int }

func newFamilyCount() *familyCount {
	return &familyCount{made: map[string]int{}, recovered: map[string]int{}}
}

// mistakes decides which family of mistake (or "" for none) the model makes on its next turn.
// retry is set when the last call it made came back with an error, and last is the family of
// that call ("" for a clean one).
type mistakes interface {
	next(retry bool, last string) string
}

// iidNoise is the first model of the bench: every turn redraws, at the set rate, one family
// of mistake uniformly, whatever happened before.
type iidNoise struct {
	rate float64
	rng  *rand.Rand
}

func (n *iidNoise) next(bool, string) string {
	if n.rng.Float64() < n.rate {
		return families[n.rng.Intn(len(families))]
	}
	return ""
}

// noisyModel plays a task's steps in order, making the mistakes its mistakes value chooses
// (seeded, so repair on and off see the same model). It moves to the next step when the call
// of the step it last attempted came back without error.
type noisyModel struct {
	mu      sync.Mutex
	steps   []Step
	choose  mistakes
	counts  *familyCount
	step    int
	attempt string // the family of the pending attempt ("" for a clean call, "-" for none)
	turns   int
}

func newNoisyModel(steps []Step, choose mistakes, counts *familyCount) *noisyModel {
	return &noisyModel{steps: steps, choose: choose, counts: counts, attempt: "-"}
}

func (m *noisyModel) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Reply, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.turns++
	retry, last := false, m.attempt
	if m.attempt != "-" {
		if lastCallSucceeded(req.Messages) {
			if m.attempt != "" {
				m.counts.recovered[m.attempt]++
			}
			m.step++
		} else {
			retry = true
		}
	}
	m.attempt = "-"
	usage := llm.Usage{InputTokens: 100, OutputTokens: 20}
	if m.step >= len(m.steps) {
		return &llm.Reply{Text: "Done: the task is complete.", Stop: llm.StopEnd, Usage: usage}, nil
	}
	family := m.choose.next(retry, last)
	if family != "" {
		m.counts.made[family]++
	}
	step := m.steps[m.step]
	if family == "loop" {
		if m.step > 0 {
			step = m.steps[m.step-1]
		}
		return m.structured(step, usage), nil
	}
	m.attempt = family
	reply := render(step, family, fmt.Sprintf("c%d", m.turns))
	reply.Usage = usage
	if reply.Text != "" {
		emit(llm.Event{Kind: llm.EventText, Text: reply.Text})
	}
	return reply, nil
}

func (m *noisyModel) structured(s Step, u llm.Usage) *llm.Reply {
	return &llm.Reply{ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("c%d", m.turns), Name: s.Name, Args: string(s.Args)}}, Stop: llm.StopToolCalls, Usage: u}
}

// lastCallSucceeded says whether the tool results after the last assistant message are all
// free of errors (and there is at least one).
func lastCallSucceeded(msgs []llm.Message) bool {
	results := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		switch msgs[i].Role {
		case llm.RoleAssistant:
			return results > 0
		case llm.RoleTool:
			if msgs[i].IsError {
				return false
			}
			results++
		}
	}
	return false
}

// Other harnesses' names for our tools, and their argument names.
var (
	otherNames = map[string]string{"read_file": "Read", "edit_file": "Edit", "write_file": "Write", "bash": "Bash", "list_dir": "LS", "grep": "Grep"}
	aliases    = map[string]string{"path": "file_path", "command": "cmd", "old_string": "old_str", "new_string": "new_str", "content": "text", "pattern": "query"}
)

// render writes step as the model would with the given family of mistake.
func render(s Step, family, id string) *llm.Reply {
	var args map[string]any
	_ = json.Unmarshal(s.Args, &args)
	call := func(name, a string) *llm.Reply {
		return &llm.Reply{ToolCalls: []llm.ToolCall{{ID: id, Name: name, Args: a}}, Stop: llm.StopToolCalls}
	}
	text := func(t string) *llm.Reply { return &llm.Reply{Text: t, Stop: llm.StopEnd} }
	switch family {
	case "text_hermes":
		return text(fmt.Sprintf("I'll do that now.\n<tool_call>\n{\"name\": %q, \"arguments\": %s}\n</tool_call>", s.Name, s.Args))
	case "text_qwen3_xml":
		var b strings.Builder
		fmt.Fprintf(&b, "<tool_call>\n<function=%s>\n", s.Name)
		for _, k := range slices.Sorted(maps.Keys(args)) {
			fmt.Fprintf(&b, "<parameter=%s>\n%v\n</parameter>\n", k, args[k])
		}
		b.WriteString("</function>\n</tool_call>")
		return text(b.String())
	case "text_fenced_json":
		return text(fmt.Sprintf("Next step:\n```json\n{\"name\": %q, \"arguments\": %s}\n```", s.Name, s.Args))
	case "arg_alias":
		return call(s.Name, renamedArgs(args))
	case "tool_name":
		name := otherNames[s.Name]
		if name == "" {
			name = s.Name
		}
		return call(name, renamedArgs(args))
	case "python_literal":
		return call(s.Name, pythonDict(args))
	case "double_encoded":
		b, _ := json.Marshal(string(s.Args))
		return call(s.Name, string(b))
	}
	return call(s.Name, string(s.Args))
}

func renamedArgs(args map[string]any) string {
	out := map[string]any{}
	for k, v := range args {
		if a, ok := aliases[k]; ok {
			k = a
		}
		out[k] = v
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// pythonDict writes args as a Python dict literal: single quotes, True/False/None.
func pythonDict(args map[string]any) string {
	parts := make([]string, 0, len(args))
	for _, k := range slices.Sorted(maps.Keys(args)) {
		var v string
		switch x := args[k].(type) {
		case string:
			v = "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`, "\n", `\n`, "\t", `\t`).Replace(x) + "'"
		case bool:
			v = map[bool]string{true: "True", false: "False"}[x]
		case nil:
			v = "None"
		default:
			v = fmt.Sprint(x)
		}
		parts = append(parts, fmt.Sprintf("'%s': %s", k, v))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
