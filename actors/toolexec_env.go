package actors

import (
	"context"
	"os"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// What the session asks of the executor's environment besides tool calls, and the executor's
// care of it: the file recheck before a model call, the check command of the definition of
// done, the session allowlist the session hands on to its children, and the cleanup when the
// session ends. Each request runs off the executor's goroutine and is answered to the session.

// recheckFiles re-checks the files the model has read (a disk scan, in a goroutine the request
// owns: it ends when the scan does). A session that has read nothing is answered at once.
func (t *toolExec) recheckFiles(req *messages.RecheckFiles) {
	files, root, to := t.env.Files, t.env.Root, t.to
	if files == nil || len(files.Records()) == 0 {
		to.tell(&messages.FilesRechecked{Turn: req.Turn})
		return
	}
	go func() {
		changes := files.Recheck(root)
		out := &messages.FilesRechecked{Turn: req.Turn, Changes: make([]messages.FileChange, len(changes))}
		for i, c := range changes {
			out.Changes[i] = messages.FileChange{Path: c.Path, Kind: c.Kind, Diff: c.Diff}
		}
		to.tell(out)
	}()
}

// runCheck runs the check command as bash would (sandbox, environment) in a goroutine the
// executor owns, stopped by a Cancel (cancelAll) or by the executor stopping.
func (t *toolExec) runCheck(req *messages.RunCheck) {
	if t.checkCancel != nil {
		t.checkCancel() // one check at a time: a newer request supersedes
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.checkCancel = cancel
	env, to := t.env, t.to
	go func() {
		defer cancel()
		res := tools.RunCommand(ctx, env, req.Command, req.TimeoutS)
		to.tell(&messages.CheckResult{Turn: req.Turn, Output: res.Output, IsError: res.IsError})
	}()
}

// tellAllowlist tells the session of the gate's session allowlist when an "allow-session"
// answer grew it.
func (t *toolExec) tellAllowlist() {
	if t.perm == nil {
		return
	}
	if list := t.perm.SessionAllowlist(); len(list) > t.allowTold {
		t.allowTold = len(list)
		t.to.tell(&messages.SessionAllowlist{Patterns: list})
	}
}

// useRegistry takes the registry /prompt or /model built: the executor's gate goes last in it,
// as in the first one, and its agent tools call back to the session when they are new.
func (t *toolExec) useRegistry(msg *useRegistry) {
	if t.perm != nil {
		msg.registry.AddCheck(t.perm.Check())
	}
	if msg.delegates {
		t.env.Agents = &sessionLink{root: t.to.root, session: t.to.session}
	}
	t.registry = msg.registry
}

// release stops the background jobs the session's commands left and removes its temp dir: the
// executor is the last to use them.
func (t *toolExec) release(ctx actor.Context) {
	if err := t.env.Close(); err != nil {
		ctx.Logger().Warn("stop background jobs", "err", err)
	}
	if t.env.TempDir != "" {
		os.RemoveAll(t.env.TempDir)
	}
}
