package tools

import (
	"encoding/json"
	"fmt"
	"github.com/troupe-dev/troupe/internal/nearest"
	"strings"
)

// Precise errors for calls that cannot be repaired: what was wrong and where, the tool's
// argument shape and one example call; a repeat of the same failure gets a firmer, shorter
// note that names the nearest tools instead of repeating the schema.

// argsFailure is the Result for a call whose arguments could not be made valid.
func (r *Registry) argsFailure(env *Env, e *entry, problem string) Result {
	name := e.spec.Name
	if env.failures.record(name, problem) > 1 {
		return errorResult(fmt.Sprintf("invalid arguments for %s again, the same error as before: %s\n"+
			"Do not resend this call unchanged: fix exactly what the error names. %s",
			name, problem, r.nearestTools(name)))
	}
	return errorResult(fmt.Sprintf("invalid arguments for %s: %s\nexpected arguments: %s\nexample: %s %s",
		name, problem, e.schema.summary, name, e.schema.example))
}

// unknownTool is the Result for a call to a name no certain mapping reaches. refusal, when
// set, says why a known name of another harness could not be mapped.
func (r *Registry) unknownTool(env *Env, name, refusal string) Result {
	problem := "unknown tool"
	if refusal != "" {
		problem = refusal
	}
	if env != nil && env.failures.record(name, problem) > 1 {
		return errorResult(fmt.Sprintf("unknown tool %q again: %s. Do not call it again. %s", name, problem, r.nearestTools(name)))
	}
	names := r.Names()
	msg := fmt.Sprintf("unknown tool %q.", name)
	if refusal != "" {
		msg = fmt.Sprintf("tool %q cannot be used here: %s.", name, refusal)
	} else if near := nearest.Names(name, names, 1); len(near) > 0 {
		msg += fmt.Sprintf(" Did you mean %q?", near[0])
	}
	return errorResult(msg + " Available tools: " + strings.Join(names, ", ") + ".")
}

// nearestTools names the tools nearest to name (other than itself), or all of them.
func (r *Registry) nearestTools(name string) string {
	var others []string
	for _, n := range r.Names() {
		if n != name {
			others = append(others, n)
		}
	}
	if near := nearest.Names(name, others, 3); len(near) > 0 {
		return "Nearest tools: " + strings.Join(near, ", ") + "."
	}
	return "Tools: " + strings.Join(others, ", ") + "."
}

// exampleHints are plausible values for common argument names in an example call.
var exampleHints = map[string]any{
	"path": "src/main.go", "command": "go test ./...", "pattern": "func main",
	"content": "package main\n", "old_string": "exact old text", "new_string": "new text",
	"glob": "*.go", "offset": 1, "limit": 100,
}

// exampleCall is one call with every required argument (all of them when none is required).
func (s *argsSchema) exampleCall() string {
	var b strings.Builder
	b.WriteByte('{')
	n := 0
	for _, p := range s.props {
		if len(s.required) > 0 && !s.required[p.name] {
			continue
		}
		v, ok := exampleHints[p.name]
		if !ok {
			v = exampleOfType(p.types)
		}
		key, _ := json.Marshal(p.name)
		val, _ := json.Marshal(v)
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(key)
		b.WriteByte(':')
		b.Write(val)
		n++
	}
	b.WriteByte('}')
	return b.String()
}

func exampleOfType(types []string) any {
	if len(types) == 0 {
		return "..."
	}
	switch types[0] {
	case "integer", "number":
		return 1
	case "boolean":
		return true
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	}
	return "..."
}
