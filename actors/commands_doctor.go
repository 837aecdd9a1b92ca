package actors

import (
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/internal/diagnose"
	"github.com/troupe-dev/troupe/messages"
)

// doctorCommand is /doctor: the checks of troupe doctor that make sense from inside a session —
// the sandbox its commands run under and its holes, its store and its bus, the programs its
// tools use. The provider is not probed from here (a request costs a round trip to the
// endpoint, and the model answers the next turn anyway): troupe doctor --probe does that. The
// store, bus and PATH checks run off the actor.
func (s *session) doctorCommand(ctx actor.Context) {
	var conf diagnose.Confinement
	unknownSandbox := false // a sandbox that cannot describe itself (a test's, an embedder's)
	if s.deps.Sandbox != nil {
		var ok bool
		conf, ok = s.deps.Sandbox.(diagnose.Confinement)
		unknownSandbox = !ok
	}
	p, model := s.auditProbes(), s.deps.Model
	lastSeq := s.auditSnapshotSeq()
	offActor(ctx, auditTimeout, func() []diagnose.Check {
		checks := diagnose.InForce(conf)
		if unknownSandbox {
			checks = []diagnose.Check{{Name: "sandbox", Status: diagnose.OK, Detail: "commands run under the node's sandbox"}}
		}
		a := &sessionAudit{LastSeq: lastSeq, Log: scanLog(p.store, p.session), Bus: probeBus(p.conn, p.subs)}
		checks = append(checks, auditAsDoctor(a.store()), auditAsDoctor(a.bus()),
			diagnose.Check{Name: "provider", Status: diagnose.Note, Detail: model + ": not probed from the session",
				Fix: "run troupe doctor --probe to ask the endpoint"})
		return append(checks, diagnose.Tools()...)
	}, func(checks []diagnose.Check, err error) {
		var b strings.Builder
		if err != nil {
			b.WriteString("/doctor did not finish within " + auditTimeout.String() + ": " + err.Error())
		} else {
			diagnose.Write(&b, checks)
		}
		s.respond(ctx, &messages.InputAck{Routed: messages.RoutedCommand, Output: strings.TrimRight(b.String(), "\n")})
	})
}

// auditSnapshotSeq is the last log seq the session holds in memory.
func (s *session) auditSnapshotSeq() uint64 {
	var last uint64
	for _, it := range s.items {
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

// runAudit, runDoctor and runCost are the command table's entries; they answer later, once
// their reads of the disk and the bus are back.
func (s *session) runAudit(ctx actor.Context, _ string) *messages.InputAck {
	s.auditCommand(ctx)
	return nil
}

func (s *session) runDoctor(ctx actor.Context, _ string) *messages.InputAck {
	s.doctorCommand(ctx)
	return nil
}

func (s *session) runCost(ctx actor.Context, _ string) *messages.InputAck {
	s.costCommand(ctx)
	return nil
}
