package actors

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/hooks"
)

// hookRunner is the executor's part of hooks: it runs the processes tools/hooks chooses, in
// parallel, each bounded by its timeout, always in a goroutine of the executor's (a call's, or
// one a RunHooks owns) and never on an actor's goroutine. What the hooks decide comes from
// hooks.Decide; the session only routes it.
type hookRunner struct {
	set        *hooks.Set
	root       string   // where hooks run (the project root, as a hook's cwd)
	environ    []string // the environment of the client that started the session (hookEnviron)
	sessionID  string
	transcript *transcriptExport
}

// newHookRunner returns nil when no hook runs at all, so the executor skips every step.
func newHookRunner(set *hooks.Set, root, sessionID, tmpDir string, st *store.Store, environ []string) *hookRunner {
	if !anyHookRuns(set) {
		return nil
	}
	env := append(slices.Clone(environ), "CLAUDE_PROJECT_DIR="+root, "TROUPE_PROJECT_DIR="+root)
	return &hookRunner{set: set, root: root, environ: env, sessionID: sessionID,
		transcript: &transcriptExport{path: filepath.Join(tmpDir, "transcript.jsonl"), session: sessionID, store: st}}
}

func anyHookRuns(set *hooks.Set) bool {
	for _, e := range hooks.Events {
		if set.Wants(e) {
			return true
		}
	}
	return false
}

// aroundCalls says whether any hook runs before or after tool calls.
func (h *hookRunner) aroundCalls() bool {
	return h != nil && (h.set.Wants(hooks.PreToolUse) || h.set.Wants(hooks.PostToolUse))
}

// run runs the hooks that match, all at once, and merges their decisions.
func (h *hookRunner) run(ctx context.Context, in hooks.Input, turn int, matching []hooks.Hook) (hooks.Outcome, []messages.HookFinishedData) {
	if len(matching) == 0 {
		return hooks.Outcome{}, nil
	}
	in.SessionID, in.Cwd = h.sessionID, h.root
	in.TranscriptPath = h.transcript.write()
	runs := make([]hooks.Run, len(matching))
	var wg sync.WaitGroup
	for i, hk := range matching {
		wg.Go(func() { runs[i] = hooks.Exec(ctx, hk, h.root, h.environ, in.JSON(hk)) })
	}
	wg.Wait()
	out := hooks.Decide(in, runs)
	finished := make([]messages.HookFinishedData, len(runs))
	for i, r := range runs {
		v := out.Verdicts[i]
		finished[i] = messages.HookFinishedData{Turn: turn, Event: string(in.Event), Command: r.Hook.Command,
			Source: r.Hook.Source, Tool: in.Tool, CallID: in.CallID, Exit: r.Exit, Decision: v.Decision,
			Reason: cmp.Or(v.Reason, v.StopReason), Notice: v.Notice, Ms: r.Took.Milliseconds()}
	}
	return out, finished
}

// callWithHooks runs one tool call between its PreToolUse and PostToolUse hooks. A call the
// lifecycle refuses before it would run (unknown tool, invalid arguments) meets no hook. A
// PreToolUse hook may refuse it, allow it without asking (a deny rule still refuses), make the
// gate ask, or rewrite its arguments, which go through validation and the gate again.
func (t *toolExec) callWithHooks(ctx context.Context, req *messages.ToolRequest, call tools.Call) tools.Result {
	h := t.hooks
	adm := t.registry.Admit(t.env, call)
	if adm.Refusal != "" || adm.Name == "" {
		return t.registry.Execute(ctx, t.env, call)
	}
	in := hooks.Input{Event: hooks.PreToolUse, Tool: adm.Name, Args: adm.Args, CallID: req.CallID}
	if t.perm != nil {
		in.PermissionMode = string(t.perm.Mode())
	}
	var ran []messages.HookFinishedData
	defer func() {
		if len(ran) > 0 {
			t.to.tell(&messages.HooksRan{Runs: ran})
		}
	}()
	pre, fin := h.run(ctx, in, req.Turn, h.set.Matching(hooks.PreToolUse, adm.Name))
	ran = append(ran, fin...)
	if pre.Stop {
		t.stopTurn(pre.StopReason)
	}
	if pre.Block || pre.Stop {
		reason := cmp.Or(pre.Reason, pre.StopReason)
		t.to.tell(&messages.ToolDecision{Turn: req.Turn, CallID: req.CallID, Tool: adm.Name,
			Decision: messages.DecisionDenied, Reason: "a PreToolUse hook refused it: " + firstLine(reason)})
		return tools.Result{IsError: true, Output: fmt.Sprintf("%s was not run: a PreToolUse hook refused it: %s", adm.Name, reason)}
	}
	call.HookPermission = pre.Permission
	if pre.UpdatedInput != nil {
		call.Name, call.Args = adm.Name, string(pre.UpdatedInput)
		in.Args = pre.UpdatedInput
	}
	res := t.registry.Execute(ctx, t.env, call)
	post := h.set.Matching(hooks.PostToolUse, adm.Name)
	if res.Rejected || len(post) == 0 {
		return res
	}
	in.Event, in.Output, in.IsError = hooks.PostToolUse, res.Output, res.IsError
	out, fin := h.run(ctx, in, req.Turn, post)
	ran = append(ran, fin...)
	if out.Block {
		res.Output += "\n\n[PostToolUse hook] " + out.Reason
	}
	if out.Stop {
		t.stopTurn(out.StopReason)
	}
	for _, c := range out.Context {
		res.Output += "\n\n[PostToolUse hook context] " + c
	}
	return res
}

// stopTurn ends the turn for a hook's "continue": false, as the user's cancel would: the
// session cancels what is queued and stops (a chat waits for input, a run ends interrupted).
func (t *toolExec) stopTurn(reason string) {
	t.to.tell(&messages.Cancel{Reason: "a hook stopped the turn: " + reason})
}

// runHooks answers a RunHooks from the session: the hooks run in a goroutine the request owns
// (each bounded by its timeout), and the merged outcome goes to the one who asked (the
// session's future), its hook.finished events with it.
func (t *toolExec) runHooks(ctx actor.Context, msg *messages.RunHooks) {
	replyTo, root := ctx.Sender(), ctx.ActorSystem().Root
	done := &messages.HooksDone{Turn: msg.Turn, Event: msg.Event}
	if t.hooks == nil || replyTo == nil {
		if replyTo != nil {
			root.Send(replyTo, done)
		}
		return
	}
	h := t.hooks
	event := hooks.Event(msg.Event)
	in := hooks.Input{Event: event, PermissionMode: msg.PermissionMode, Prompt: msg.Prompt, Source: msg.Source,
		Reason: msg.Reason, Trigger: msg.Trigger, Focus: msg.Focus, StopHookActive: msg.StopHookActive,
		Message: msg.Message, Model: msg.Model}
	life := t.life
	go func() { // ends with the hooks: each is bounded by its timeout, all by the executor's life
		out, fin := h.run(life, in, msg.Turn, h.set.Matching(event, ""))
		done.Block, done.Reason, done.Context = out.Block, out.Reason, out.Context
		done.Stop, done.StopReason, done.Notices, done.Runs = out.Stop, out.StopReason, out.Notices, fin
		root.Send(replyTo, done)
	}()
}

// transcriptExport writes the session's log as JSONL for hooks that read transcript_path: only
// when a hook runs, appending what was logged since the last export.
type transcriptExport struct {
	path    string
	session string
	store   *store.Store

	mu   sync.Mutex
	last uint64 // the last seq written
}

// write brings the export up to date and returns its path ("" when it cannot be written: the
// hook is told no path rather than a stale one).
func (x *transcriptExport) write() string {
	if x == nil || x.store == nil {
		return ""
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	entries, err := x.store.LogFrom(x.session, x.last)
	if err != nil {
		return ""
	}
	f, err := os.OpenFile(x.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return ""
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, e := range entries {
		if err := enc.Encode(e); err != nil {
			return ""
		}
		x.last = e.Seq
	}
	return x.path
}
