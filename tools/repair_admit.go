package tools

import (
	"encoding/json"
	"fmt"
	"slices"
)

// admit is everything the lifecycle does to a call before its state, permission and execution
// steps: resolve the tool name, parse, repair and validate the arguments, and check the path
// policy. A call it refuses comes back as a result to return (stop); otherwise the entry, the
// call as resolved, its arguments and what was repaired.
func (r *Registry) admit(env *Env, call Call) (e *entry, resolved Call, args json.RawMessage, repairs []Repair, stop *Result) {
	e, ok := r.byName[call.Name]
	if why, withheld := r.withheld[call.Name]; !ok && withheld {
		res := r.unknownTool(env, call.Name, why)
		res.Rejected = true
		return nil, call, nil, nil, &res
	}
	if !ok && env != nil && env.NoRepair {
		res := r.unknownTool(env, call.Name, "")
		res.Rejected = true
		return nil, call, nil, nil, &res
	}
	if !ok {
		to, found := r.resolve(call.Name, call.Args)
		if !found {
			res := r.unknownTool(env, call.Name, to.refusal)
			res.Rejected = true
			return nil, call, nil, nil, &res
		}
		e, call.Name, call.Args, repairs = r.byName[to.name], to.name, to.args, to.repairs
		call.Inferred = call.Inferred || to.inferred
	}
	if env == nil || env.Root == "" {
		res := errorResult(fmt.Sprintf("internal error: %s has no workspace to run in", call.Name))
		return nil, call, nil, repairs, &res
	}
	if stop := env.skillAllows(call.Name); stop != nil {
		stop.Rejected, stop.Repairs = true, repairs
		return nil, call, nil, repairs, stop
	}
	args, more, failed := r.prepare(env, e, call)
	repairs = append(repairs, more...)
	if failed == nil && env.NoRepair && slices.ContainsFunc(repairs, func(rp Repair) bool { return rp.Kind != RepairJSON && rp.Kind != RepairCoercion }) {
		refused := r.argsFailure(env, e, "the arguments do not match the tool's schema (repair is off)")
		failed, repairs = &refused, nil
	}
	if failed != nil {
		if len(repairs) > 0 && repairs[0].Kind == RepairToolName {
			failed.Output = fmt.Sprintf("(%s is %s here.) %s", repairs[0].Before, call.Name, failed.Output)
		}
		failed.Rejected, failed.Repairs = true, repairs
		return nil, call, nil, repairs, failed
	}
	return e, call, args, repairs, nil
}

// Admission is what the lifecycle makes of a call before it would run it.
type Admission struct {
	Name    string          // the registered tool the call resolved to ("" when refused before that)
	Args    json.RawMessage // the arguments as the tool would receive them (nil when refused)
	Repairs []Repair        // what was repaired on the way
	Refusal string          // the error result's text when the call was refused, else ""
}

// Admit runs call through the same admission as Execute (name repair, argument repair,
// schema validation, path policy) and stops there: nothing runs, nothing is written. It is
// the repair replay's view of the real path.
func (r *Registry) Admit(env *Env, call Call) Admission {
	e, resolved, args, repairs, stop := r.admit(env, call)
	if stop != nil {
		name := ""
		if _, ok := r.byName[resolved.Name]; ok {
			name = resolved.Name
		}
		return Admission{Name: name, Repairs: stop.Repairs, Refusal: stop.Output}
	}
	return Admission{Name: e.spec.Name, Args: args, Repairs: repairs}
}
