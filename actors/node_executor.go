package actors

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// ExecutorFactory builds the props of a session's tool executor once the session's actor
// exists (the executor's agent and goal tools call back to it). The executor's environment and
// permission gate live inside the factory and then inside the executor: the session spawns its
// executor but never holds them (the transport rule, docs/ARCHITECTURE.md).
type ExecutorFactory func(root *actor.RootContext, session *actor.PID) (*actor.Props, error)

// executorParts are what the Node builds for a session's executor when it builds the session.
// The file truth is restored from the store here, on the caller's goroutine (a parent starts its
// children one at a time), rather than by a thousand children at once as they start.
type executorParts struct {
	start     *messages.StartSession
	workspace string
	skills    []config.Skill
	reg       *tools.Registry
	gate      *tools.Gate
	files     *tools.FileTracker
	delegates bool // the session runs subagents: the agent tools call back to it
}

// executorFactory is the Node's ExecutorFactory for one session. Each call makes a fresh
// environment around the session's file truth and gate (its own temp dir and background
// jobs), which the executor releases when it stops: a session restarted after a panic stops
// its executor first, then makes the next one, so the file truth and the gate are never held
// by two at once.
func (n *Node) executorFactory(p executorParts) ExecutorFactory {
	start := p.start
	return func(root *actor.RootContext, session *actor.PID) (*actor.Props, error) {
		tmp, err := os.MkdirTemp("", "troupe-"+start.ID+"-")
		if err != nil {
			return nil, fmt.Errorf("session temp dir: %w", err)
		}
		env := &tools.Env{Root: p.workspace, TempDir: tmp, Environ: withTmp(n.commandEnviron(start), tmp), Sandbox: n.opts.Sandbox,
			Files: p.files, Artifacts: n.store, ReadOnlyRoot: start.PlanSafeBash && n.opts.Sandbox != nil,
			Secrets: tools.SecretRedactor(providerGetenv(start), llm.KeyVars(), n.bus.Secrets()...), NoRepair: start.NoRepair}
		if len(p.skills) > 0 {
			env.Skills = skillSet(p.skills)
		}
		env.Hidden = n.hidden.get(p.workspace)
		env.MCP = n.mcp.caller(start.ID)
		link := &sessionLink{root: root, session: session}
		env.Goals = link
		env.Memory = n.sessionMemory(start)
		if p.delegates {
			env.Agents = link
		}
		hooks := newHookRunner(n.opts.Hooks, p.workspace, start.ID, tmp, n.store, hookEnviron(start))
		return grownProps(newToolExec(p.reg, env, p.gate, hooks, n.runs), n.runs), nil
	}
}

// fileTracker is a session's file truth, persisted at s/<session>/fs/<path> and restored from
// there, so a resumed session still knows what it read.
func (n *Node) fileTracker(start *messages.StartSession) *tools.FileTracker {
	ft := tools.NewFileTracker(func(rec *tools.FileRecord) error {
		return n.store.PutFileRecord(start.ID, rec.Path, rec)
	})
	recs, err := storedFileRecords(n.store, start.ID)
	if err != nil {
		n.opts.Log.Warn("restore file records: starting without them", "session", start.ID, "err", err)
	}
	ft.Restore(recs)
	return ft
}

// storedFileRecords reads a session's file-truth records from the store: what its executor
// restores, and what /audit compares with the disk without asking the executor.
func storedFileRecords(st *store.Store, session string) ([]*tools.FileRecord, error) {
	var recs []*tools.FileRecord
	err := st.EachFileRecord(session, func(raw []byte) error {
		var rec tools.FileRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return err
		}
		recs = append(recs, &rec)
		return nil
	})
	return recs, err
}

func withTmp(environ []string, tmp string) []string {
	if environ == nil {
		return nil // the tools' own minimal default, which sets TMPDIR itself
	}
	return append(append([]string(nil), environ...), "TMPDIR="+tmp)
}
