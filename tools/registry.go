package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Check is a lifecycle stage that runs after the path policy and before execution (state
// requirement, repetition check, permission). It returns nil to let the call proceed, or the
// Result that ends it.
type Check func(ctx context.Context, env *Env, spec Spec, args json.RawMessage) *Result

// Overflow receives the whole output of a call whose result went over its budget, and returns
// a one-line note for the model (for example where the whole output can be paged), or "".
type Overflow func(call Call, spec Spec, full string) string

// Registry holds a session's tools and runs calls through the lifecycle. Configure it (AddCheck,
// SetOverflow) before sharing it; after that it is read-only and safe for concurrent use.
type Registry struct {
	entries  []*entry
	byName   map[string]*entry
	checks   []Check
	overflow Overflow
	// withheld are tools left out on purpose (a prompt mode that cannot write): a call to one
	// is refused with the reason instead of as an unknown tool.
	withheld map[string]string
}

type entry struct {
	tool   Tool
	spec   Spec
	schema *argsSchema
}

// toolName is what every provider accepts as a function name.
var toolName = lazyre.New(`^[a-zA-Z0-9_-]{1,64}$`)

// NewRegistry registers ts in order, compiling each schema once. It fails on an invalid or
// duplicate name, a schema that does not compile, or path arguments the schema does not
// declare as strings.
func NewRegistry(ts ...Tool) (*Registry, error) {
	return NewRegistryWith(nil, ts...)
}

// NewRegistryWith is NewRegistry taking compiled schemas from cache (compiling and adding
// those it lacks), so registries built often for the same tools share them. A nil cache
// compiles every schema, as NewRegistry does.
func NewRegistryWith(cache *SchemaCache, ts ...Tool) (*Registry, error) {
	r := &Registry{byName: make(map[string]*entry, len(ts))}
	for _, t := range ts {
		spec := t.Spec()
		if !toolName.MatchString(spec.Name) {
			return nil, fmt.Errorf("register tool %q: the name must match %s", spec.Name, toolName)
		}
		if _, dup := r.byName[spec.Name]; dup {
			return nil, fmt.Errorf("register tool %s: duplicate name", spec.Name)
		}
		schema, err := cache.compile(spec.Name, spec.Schema)
		if err != nil {
			return nil, fmt.Errorf("register tool %s: %w", spec.Name, err)
		}
		for _, arg := range spec.PathArgs {
			if !declaresString(schema, arg) {
				return nil, fmt.Errorf("register tool %s: path argument %q is not a string property of the schema", spec.Name, arg)
			}
		}
		e := &entry{tool: t, spec: spec, schema: schema}
		r.entries = append(r.entries, e)
		r.byName[spec.Name] = e
	}
	return r, nil
}

// Withhold marks name as left out of this registry on purpose; a call to it is refused with why.
func (r *Registry) Withhold(name, why string) {
	if r.withheld == nil {
		r.withheld = map[string]string{}
	}
	r.withheld[name] = why
}

// Withheld says why name was left out on purpose, if it was.
func (r *Registry) Withheld(name string) (why string, ok bool) {
	why, ok = r.withheld[name]
	return why, ok
}

func declaresString(s *argsSchema, name string) bool {
	for _, p := range s.props {
		if p.name == name {
			return len(p.types) == 1 && p.types[0] == "string"
		}
	}
	return false
}

// AddCheck appends a lifecycle stage run between the path policy and execution.
func (r *Registry) AddCheck(c Check) { r.checks = append(r.checks, c) }

// SetOverflow sets where over-budget outputs go before they are cut.
func (r *Registry) SetOverflow(o Overflow) { r.overflow = o }

// Specs returns the tools' specs in registration order.
func (r *Registry) Specs() []Spec {
	out := make([]Spec, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.spec
	}
	return out
}

// Names returns the tools' names in registration order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.spec.Name
	}
	return out
}

// Spec returns the spec of the named tool.
func (r *Registry) Spec(name string) (Spec, bool) {
	e, ok := r.byName[name]
	if !ok {
		return Spec{}, false
	}
	return e.spec, true
}
