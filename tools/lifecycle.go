package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/tools/syntaxcheck"
)

// Execute runs one call through the whole lifecycle: resolve the tool name (Resolve) →
// parse → repair → schema-validate (after a light coercion) → path policy → state requirement
// (Env.Files) → checks (repetition, permission: see AddCheck) → execute → syntax-check what it
// wrote → bound the result. Every repair is listed in Result.Repairs. Every failure is an
// error Result that says what to fix; it never panics. A call refused before the checks is
// marked Rejected, so it never reaches a permission step.
func (r *Registry) Execute(ctx context.Context, env *Env, call Call) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = errorResult(fmt.Sprintf("internal error while handling %s: %v", call.Name, p))
		}
	}()
	e, call, args, repairs, stop := r.admit(env, call)
	if stop != nil {
		return *stop
	}
	if req, ok := e.tool.(stateRequirer); ok && env.Files != nil {
		if stop := req.requireState(env, args); stop != nil {
			stop.Rejected, stop.Repairs = true, repairs
			return r.bound(call, e.spec, *stop)
		}
	}
	ctx = withCall(ctx, call)
	for _, check := range r.checks {
		if stop := check(ctx, env, e.spec, args); stop != nil {
			stop.Repairs = append(repairs, stop.Repairs...)
			return r.bound(call, e.spec, *stop)
		}
	}
	if err := ctx.Err(); err != nil {
		return errorResult(fmt.Sprintf("%s was cancelled before it ran: %v", call.Name, context.Cause(ctx)))
	}
	res = runRecovered(ctx, env, e, args)
	if note := repairNote(repairs); note != "" {
		res.Output = note + "\n" + res.Output
	}
	res.Repairs = append(repairs, res.Repairs...)
	res = r.checkSyntax(ctx, env, e.spec, res)
	env.redactResult(&res) // before bounding: the overflow artifact keeps no secret either
	return r.bound(call, e.spec, res)
}

// prepare parses, repairs, coerces, validates and path-checks the arguments, returning what
// it repaired on the way.
func (r *Registry) prepare(env *Env, e *entry, call Call) (json.RawMessage, []Repair, *Result) {
	failWith := func(res Result) (json.RawMessage, []Repair, *Result) { return nil, nil, &res }
	var noteCut []Repair
	if head, ok := cutInNote(call.Args); ok && !env.NoRepair { // the cut is in a note it drops
		noteCut = []Repair{newRepair(RepairDroppedNote, call.Args, head)}
		call.Args = head
	}
	args, repairs, err := parseArgs(call.Args)
	repairs = append(noteCut, repairs...)
	// Completing cut-off arguments is fine for a read; for anything else it would run or
	// write what the model did not send.
	if (err != nil || e.spec.Risk != RiskRead && slices.ContainsFunc(repairs, isJSONRepair)) && cutOff(call.Args) {
		return failWith(r.argsFailure(env, e, "the arguments end early (cut off inside a string or "+
			"object, likely at the output limit), so nothing was run. Send a smaller call "+
			"(edit_file for part of a file)"))
	}
	var decoded map[string]any
	if (err != nil || slices.ContainsFunc(repairs, isJSONRepair)) && !env.NoRepair {
		if lit, litRepairs, ok := e.schema.objectLiteral(call.Args); ok {
			decoded, repairs, err = lit, litRepairs, nil // the schema's keys say where unquoted values end
		}
	}
	switch {
	case decoded != nil:
	case err != nil:
		var ok bool
		if decoded, repairs, ok = e.schema.wrapScalar(call.Args); !ok || env.NoRepair {
			return failWith(r.argsFailure(env, e, err.Error()))
		}
	default:
		if err := decodeNumbers(string(args), &decoded); err != nil {
			return failWith(r.argsFailure(env, e, err.Error()))
		}
	}
	decoded, more := e.schema.repairObject(decoded, e.spec.PathArgs)
	more = append(more, e.schema.ownName(decoded, e.spec.Name, call.Name)...)
	repairs = append(repairs, more...)
	repairs = append(repairs, e.schema.coerce(decoded)...)
	fail := func(res Result) (json.RawMessage, []Repair, *Result) { return nil, repairs, &res }
	if err := e.schema.validate(decoded); err != nil {
		return fail(r.argsFailure(env, e, err.Error()))
	}
	for _, name := range e.spec.PathArgs {
		if p, ok := decoded[name].(string); ok {
			if _, _, err := env.resolve(p); err != nil {
				return fail(errorResult(fmt.Sprintf("%s: %v", call.Name, err)))
			}
		}
	}
	args, err = json.Marshal(decoded)
	if err != nil {
		return fail(errorResult(fmt.Sprintf("internal error re-encoding arguments for %s: %v", call.Name, err)))
	}
	return args, repairs, nil
}

func isJSONRepair(r Repair) bool { return r.Kind == RepairJSON }

// repairNote is the one line that tells the model its call was repaired and how to send it.
func repairNote(repairs []Repair) string {
	parts := make([]string, 0, len(repairs))
	for _, rp := range repairs {
		switch rp.Kind {
		case RepairCoercion: // silent: the value meant the same, only its JSON type was off
		case RepairToolName, RepairArgAlias:
			parts = append(parts, fmt.Sprintf("%s %s→%s", rp.Kind, rp.Before, rp.After))
		default:
			parts = append(parts, string(rp.Kind))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return repairNotePrefix + strings.Join(parts, ", ") + "); next time send valid JSON with the tool's own names and types."
}

const repairNotePrefix = "note: your call was repaired ("

// WithoutRepairNote is a result's output without the repair note that leads it for the model,
// so a summary of the result shows the result itself (the repair has its own tool.repaired event).
func WithoutRepairNote(output string) string {
	if !strings.HasPrefix(output, repairNotePrefix) {
		return output
	}
	if _, rest, ok := strings.Cut(output, "\n"); ok {
		return rest
	}
	return ""
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

// stateRequirer is a tool whose calls need file truth first (write_file, edit_file). Its
// requirement runs after the path policy and before every Check, so a call against a stale
// baseline never produces an approval request.
type stateRequirer interface {
	requireState(env *Env, args json.RawMessage) *Result
}

type callKey struct{}

// withCall hands the checks the call they judge (its id, whether its tool was inferred).
func withCall(ctx context.Context, call Call) context.Context {
	return context.WithValue(ctx, callKey{}, call)
}

// CallID returns the ID of the call a Check is judging (from the ctx Execute passes it).
func CallID(ctx context.Context) string {
	c, _ := ctx.Value(callKey{}).(Call)
	return c.ID
}

// inferredCall says whether the call a Check is judging named no tool (Call.Inferred).
func inferredCall(ctx context.Context) bool {
	c, _ := ctx.Value(callKey{}).(Call)
	return c.Inferred
}

// hookPermission is the PreToolUse hooks' permission decision for the call a Check is judging.
func hookPermission(ctx context.Context) string {
	c, _ := ctx.Value(callKey{}).(Call)
	return c.HookPermission
}

// checkSyntax is the after-write step: each file a successful write changed is parsed, and
// the first syntax error of each is appended to the output with its line, column and a
// caret. The write stays and the result is not an error: the model fixes the file. It is part
// of issue 9's layer, so the repair bench's baseline (NoRepair) has no check.
func (r *Registry) checkSyntax(ctx context.Context, env *Env, spec Spec, res Result) Result {
	if res.IsError || len(res.Changed) == 0 || spec.Risk != RiskWrite || env.NoRepair {
		return res
	}
	ws, err := env.openRoot()
	if err != nil {
		return res
	}
	defer ws.Close()
	checker := syntaxcheck.Checker{Runner: env.runChecker}
	var problems []string
	for _, rel := range res.Changed {
		abs, _, err := env.resolve(rel)
		if err != nil {
			continue
		}
		// Read beneath the workspace handle, like the tool that wrote it: a path swapped for a
		// symlink since the write must not show an outside file's line in the report.
		content, err := ws.ReadFile(rel)
		if err != nil {
			continue
		}
		if p, _ := checker.Check(ctx, abs, rel, content); p != nil {
			problems = append(problems, p.String())
		}
	}
	if len(problems) > 0 {
		res.Output += "\n\nsyntax check: " + strings.Join(problems, "\n") +
			"\n(the change was kept; fix the syntax error before relying on the file)"
	}
	return res
}

// runChecker runs an external syntax checker in the workspace the way bash runs commands:
// the session's environment, inside its sandbox when it has one.
func (e *Env) runChecker(_ context.Context, cmd *exec.Cmd) ([]byte, error) {
	root, err := e.root()
	if err != nil {
		return nil, err
	}
	cmd.Dir, cmd.Env = root, e.commandEnviron()
	if e.Sandbox != nil {
		if err := e.Sandbox.Wrap(cmd, e); err != nil {
			return nil, fmt.Errorf("sandbox the syntax check: %w", err)
		}
	}
	return cmd.CombinedOutput()
}
