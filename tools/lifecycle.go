package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Execute runs one call through the whole lifecycle: parse → repair → schema-validate (after
// a light coercion) → path policy → state requirement (Env.Files) → checks (repetition,
// permission: see AddCheck) → execute → bound the result. Every failure is an error Result
// that says what to fix; it never panics. A call refused before the checks is marked
// Rejected, so it never reaches a permission step.
func (r *Registry) Execute(ctx context.Context, env *Env, call Call) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = errorResult(fmt.Sprintf("internal error while handling %s: %v", call.Name, p))
		}
	}()
	e, ok := r.byName[call.Name]
	if !ok {
		res := r.unknownTool(call.Name)
		res.Rejected = true
		return res
	}
	if env == nil || env.Root == "" {
		return errorResult(fmt.Sprintf("internal error: %s has no workspace to run in", call.Name))
	}
	args, note, failed := r.prepare(env, e, call)
	if failed != nil {
		failed.Rejected = true
		return *failed
	}
	if req, ok := e.tool.(stateRequirer); ok && env.Files != nil {
		if stop := req.requireState(env, args); stop != nil {
			stop.Rejected = true
			return r.bound(call, e.spec, *stop)
		}
	}
	ctx = withCallID(ctx, call.ID)
	for _, check := range r.checks {
		if stop := check(ctx, env, e.spec, args); stop != nil {
			return r.bound(call, e.spec, *stop)
		}
	}
	if err := ctx.Err(); err != nil {
		return errorResult(fmt.Sprintf("%s was cancelled before it ran: %v", call.Name, context.Cause(ctx)))
	}
	res = runRecovered(ctx, env, e, args)
	env.redactResult(&res) // before bounding: the overflow artifact keeps no secret either
	if note != "" {
		res.Output = note + "\n" + res.Output
	}
	return r.bound(call, e.spec, res)
}

// prepare parses, repairs, coerces, validates and path-checks the arguments. note is a line
// for the model when its arguments had to be repaired.
func (r *Registry) prepare(env *Env, e *entry, call Call) (args json.RawMessage, note string, failed *Result) {
	fail := func(format string, a ...any) (json.RawMessage, string, *Result) {
		res := errorResult(fmt.Sprintf(format, a...))
		return nil, "", &res
	}
	args, repaired, err := parseArgs(call.Args)
	if err != nil {
		return fail("invalid arguments for %s: %v\nexpected arguments: %s", call.Name, err, e.schema.summary)
	}
	if repaired {
		note = "note: your arguments were not valid JSON and were repaired; send valid JSON."
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var decoded map[string]any
	if err := dec.Decode(&decoded); err != nil {
		return fail("invalid arguments for %s: %v\nexpected arguments: %s", call.Name, err, e.schema.summary)
	}
	e.schema.coerce(decoded)
	if err := e.schema.validate(decoded); err != nil {
		return fail("invalid arguments for %s: %v\nexpected arguments: %s", call.Name, err, e.schema.summary)
	}
	for _, name := range e.spec.PathArgs {
		if p, ok := decoded[name].(string); ok {
			if _, _, err := env.resolve(p); err != nil {
				return fail("%s: %v", call.Name, err)
			}
		}
	}
	args, err = json.Marshal(decoded)
	if err != nil {
		return fail("internal error re-encoding arguments for %s: %v", call.Name, err)
	}
	return args, note, nil
}

// runRecovered runs the tool, turning a panic into an error Result.
func runRecovered(ctx context.Context, env *Env, e *entry, args json.RawMessage) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = errorResult(fmt.Sprintf("tool %s panicked: %v (a bug in the tool, not in your call; it may have partly run)", e.spec.Name, p))
		}
	}()
	return e.tool.Run(ctx, env, args)
}

// bound cuts an over-budget output to its head and tail, handing the whole to the overflow
// hook first.
func (r *Registry) bound(call Call, spec Spec, res Result) Result {
	budget := spec.resultBudget()
	if len(res.Output) <= budget {
		return res
	}
	var note string
	if r.overflow != nil {
		note = r.overflow(call, spec, res.Output)
	}
	if note != "" {
		note = "\n[" + note + "]"
	}
	res.Output, _ = boundText(res.Output, max(budget-len(note), 2*markerReserve))
	res.Output += note
	return res
}

func (r *Registry) unknownTool(name string) Result {
	names := r.Names()
	msg := fmt.Sprintf("unknown tool %q.", name)
	if near := nearest(name, names, 1); len(near) > 0 {
		msg += fmt.Sprintf(" Did you mean %q?", near[0])
	}
	return errorResult(msg + " Available tools: " + strings.Join(names, ", ") + ".")
}

// stateRequirer is a tool whose calls need file truth first (write_file, edit_file). Its
// requirement runs after the path policy and before every Check, so a call against a stale
// baseline never produces an approval request.
type stateRequirer interface {
	requireState(env *Env, args json.RawMessage) *Result
}

type callIDKey struct{}

func withCallID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, callIDKey{}, id)
}

// CallID returns the ID of the call a Check is judging (from the ctx Execute passes it).
func CallID(ctx context.Context) string {
	id, _ := ctx.Value(callIDKey{}).(string)
	return id
}
