package actors

import (
	"errors"
	"strings"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/internal/diagnose"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// The diagnostics: /audit, /doctor and /cost. Each copies what it needs on the actor and reads
// the disk, the store and the bus off it (commandHost.Later); the answer comes once they are
// back.

// runAudit is /audit: the session's snapshots are taken on the actor; the disk and bus probes
// run off it, and so does judging them (compiling the schemas is work too).
func runAudit(h commandHost, _ string) *messages.InputAck {
	a, p := h.AuditSnapshot(), h.Probes()
	h.Later(auditTimeout, func() func() string {
		p.fill(a)
		checks := a.Checks()
		return func() string {
			h.Emit(messages.AuditFinishedEvent.Of(&messages.AuditData{Checks: checks}))
			return formatAudit(checks)
		}
	}, func(err error) string {
		return "/audit did not finish within " + auditTimeout.String() + " (the disk or the bus is slow): " + err.Error()
	})
	return nil
}

// runDoctor is /doctor: the checks of troupe doctor that make sense from inside a session —
// the sandbox its commands run under and its holes, its store and its bus, the programs its
// tools use. The provider is not probed from here (a request costs a round trip to the
// endpoint, and the model answers the next turn anyway): troupe doctor --probe does that.
func runDoctor(h commandHost, _ string) *messages.InputAck {
	snap, p := h.Snapshot(), h.Probes()
	lastSeq, sandbox, model := snap.Session.LastSeq, snap.Sandbox, snap.Model.Model
	h.Later(auditTimeout, func() func() string {
		checks := doctorChecks(sandbox)
		a := &sessionAudit{LastSeq: lastSeq, Log: scanLog(p.store, p.session), Bus: probeBus(p.conn, p.subs)}
		checks = append(checks, auditAsDoctor(a.store()), auditAsDoctor(a.bus()),
			diagnose.Check{Name: "provider", Status: diagnose.Note, Detail: model + ": not probed from the session",
				Fix: "run troupe doctor --probe to ask the endpoint"})
		checks = append(checks, diagnose.Tools()...)
		return func() string {
			var b strings.Builder
			diagnose.Write(&b, checks)
			return strings.TrimRight(b.String(), "\n")
		}
	}, func(err error) string {
		return "/doctor did not finish within " + auditTimeout.String() + ": " + err.Error()
	})
	return nil
}

// doctorChecks are /doctor's sandbox lines: the confinement in force and its holes, or one
// line for a sandbox that cannot describe itself (a test's, an embedder's).
func doctorChecks(sandbox tools.Sandbox) []diagnose.Check {
	var conf diagnose.Confinement
	if sandbox != nil {
		c, ok := sandbox.(diagnose.Confinement)
		if !ok {
			return []diagnose.Check{{Name: "sandbox", Status: diagnose.OK, Detail: "commands run under the node's sandbox"}}
		}
		conf = c
	}
	return diagnose.InForce(conf)
}

// runCost is /cost. The agents under the session are read from the store's session metas
// (each agent keeps its own, turn by turn), off the actor.
func runCost(h commandHost, _ string) *messages.InputAck {
	snap, st := h.Snapshot(), h.Probes().store
	h.Later(auditTimeout, func() func() string {
		if st == nil {
			return func() string { return costView(snap, nil, errors.New("the session has no store")) }
		}
		all, err := st.Sessions()
		return func() string { return costView(snap, all, err) }
	}, func(err error) string { return costView(snap, nil, err) })
	return nil
}

// costView is /cost for the session's own usage and the metas of every session the store
// holds (its agents among them); err says why the agents' usage could not be read.
func costView(snap commandSnapshot, metas []*store.SessionMeta, err error) string {
	self := snap.Usage
	out := costReport(sessionTreeUsage(&self, metas))
	if err != nil {
		out += "\n(the subagents' usage could not be read: " + err.Error() + ")"
	}
	return out
}

// lastSeqOf is the last log seq the session holds in memory.
func lastSeqOf(items []projection.Item) uint64 {
	var last uint64
	for _, it := range items {
		last = max(last, it.Seq)
	}
	return last
}

// auditAsDoctor renders an audit verdict as a doctor line.
func auditAsDoctor(c messages.AuditCheck) diagnose.Check {
	st := map[messages.AuditVerdict]diagnose.Status{messages.AuditOK: diagnose.OK, messages.AuditWarn: diagnose.Note}[c.Verdict]
	if st == "" {
		st = diagnose.Fail
	}
	return diagnose.Check{Name: c.Name, Status: st, Detail: c.Evidence}
}
