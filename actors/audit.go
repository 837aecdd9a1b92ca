package actors

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/internal/lazyre"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// /audit (issue 11 item 6) checks the session's local invariants without a model call. The
// session takes snapshots on its actor, the disk and bus probes fill in the rest off it
// (audit_probe.go), and sessionAudit judges them: one verdict and one line of evidence per
// check. It reads nothing itself, so each check can be made to fail in a unit test.

// The audit's checks, in the order they are reported.
const (
	auditPairing   = "pairing"
	auditFileTruth = "file truth"
	auditRegistry  = "registry"
	auditGoal      = "goal"
	auditStore     = "store"
	auditBus       = "bus"
)

// sessionAudit is everything /audit judges.
type sessionAudit struct {
	// Messages is the projection the next model call would send.
	Messages []llm.Message
	// Offered are the tools the model is offered; Registered the registry's names; Wanted the
	// names the session was started with (a subagent's role), nil for the default set.
	Offered    []tools.Spec
	Registered []string
	Wanted     []string
	// Withheld are the wanted tools left out on purpose (a prompt mode that cannot write).
	Withheld map[string]bool
	// Goal is the session's goal in memory; Stored what the store holds (nil: none stored).
	Goal, Stored *messages.Goal
	StoredErr    error
	Files        []fileObservation
	Log          logScan
	// LastSeq is the last log seq the session holds in memory (0: none).
	LastSeq uint64
	Bus     busObservation
}

// fileObservation is one file-truth record next to what the disk holds now.
type fileObservation struct {
	Record  tools.FileRecord
	Missing bool   // the file is gone
	SHA256  string // of the file on disk, when read
	Err     string // why the disk could not be read
}

// logScan is what a read of the session's log found: how many entries, the seq gaps and the
// entries that failed their checksum. add takes the entries in seq order, a page at a time.
type logScan struct {
	Count   int
	Last    uint64
	Gaps    []string
	Damaged []uint64
	Err     error
}

func (l *logScan) add(e *store.Entry) {
	if want := l.Last + 1; e.Seq != want {
		l.Gaps = append(l.Gaps, fmt.Sprintf("seq %d follows %d", e.Seq, l.Last))
	}
	if e.Kind == store.KindSystem && e.Event == store.DamagedEntryEvent {
		l.Damaged = append(l.Damaged, e.Seq)
	}
	l.Count++
	l.Last = e.Seq
}

// busObservation is the node's NATS connection as the probe found it.
type busObservation struct {
	Absent    bool   // the session runs without a bus (a test harness)
	Status    string // the connection's state: CONNECTED, RECONNECTING, CLOSED…
	RTT       time.Duration
	Err       error // the round trip failed
	Subs      int   // the session's subscriptions
	Dead      int   // of them, no longer valid
	Connected bool
}

// Checks judges the snapshot: one verdict per check, in report order.
func (a *sessionAudit) Checks() []messages.AuditCheck {
	return []messages.AuditCheck{a.pairing(), a.fileTruth(), a.registry(), a.goal(), a.store(), a.bus()}
}

func auditResult(name string, v messages.AuditVerdict, format string, args ...any) messages.AuditCheck {
	return messages.AuditCheck{Name: name, Verdict: v, Evidence: fmt.Sprintf(format, args...)}
}

// firstOf says the first problem and how many more there are.
func firstOf(problems []string) string {
	if len(problems) == 1 {
		return problems[0]
	}
	return fmt.Sprintf("%s (and %d more)", problems[0], len(problems)-1)
}

func (a *sessionAudit) pairing() messages.AuditCheck {
	if v := projection.Violations(a.Messages); len(v) > 0 {
		return auditResult(auditPairing, messages.AuditFail, "%s", firstOf(v))
	}
	calls := 0
	for _, m := range a.Messages {
		calls += len(m.ToolCalls)
	}
	return auditResult(auditPairing, messages.AuditOK, "%s in the context, each with exactly one result", textfmt.Count(calls, "tool call"))
}

func (a *sessionAudit) fileTruth() messages.AuditCheck {
	if len(a.Files) == 0 {
		return auditResult(auditFileTruth, messages.AuditOK, "no file read or edited yet")
	}
	var problems []string
	for _, f := range a.Files {
		r := f.Record
		switch {
		case f.Err != "":
			problems = append(problems, fmt.Sprintf("%s cannot be read (%s)", r.Path, f.Err))
		case f.Missing && r.Status != tools.StatusStale:
			problems = append(problems, fmt.Sprintf("%s was deleted since it was last read (turn %d)", r.Path, r.Turn))
		case f.Missing:
			problems = append(problems, fmt.Sprintf("%s is deleted; the model was told", r.Path))
		case f.SHA256 != r.SHA256 && f.SHA256 != r.DiskSHA256:
			problems = append(problems, fmt.Sprintf("%s changed on disk since it was last read (turn %d)", r.Path, r.Turn))
		case f.SHA256 != r.SHA256 && r.Source == tools.SourceAgentCommand:
			problems = append(problems, fmt.Sprintf("%s was changed by the model's own command (turn %d); the model was told", r.Path, r.CommandTurn))
		case f.SHA256 != r.SHA256:
			problems = append(problems, fmt.Sprintf("%s changed outside the session; the model was told", r.Path))
		}
	}
	if len(problems) > 0 {
		return auditResult(auditFileTruth, messages.AuditWarn, "%s: read it again before editing", firstOf(problems))
	}
	return auditResult(auditFileTruth, messages.AuditOK, "%s tracked, matching the disk", textfmt.Count(len(a.Files), "file"))
}

// providerToolName is what every provider accepts as a function name.
var providerToolName = lazyre.New(`^[a-zA-Z0-9_-]{1,64}$`)

func (a *sessionAudit) registry() messages.AuditCheck {
	var fails, warns []string
	seen := map[string]bool{}
	for _, sp := range a.Offered {
		switch {
		case !providerToolName.MatchString(sp.Name):
			fails = append(fails, fmt.Sprintf("tool name %q is not a valid function name", sp.Name))
		case seen[sp.Name]:
			fails = append(fails, fmt.Sprintf("tool %s is offered twice", sp.Name))
		case !slices.Contains(a.Registered, sp.Name):
			fails = append(fails, fmt.Sprintf("tool %s is offered but not registered", sp.Name))
		}
		seen[sp.Name] = true
		if err := tools.CompileSchema(sp.Name, sp.Schema); err != nil {
			fails = append(fails, fmt.Sprintf("tool %s: %v", sp.Name, err))
		}
	}
	for _, w := range a.Wanted {
		if !seen[w] && !a.Withheld[w] {
			warns = append(warns, fmt.Sprintf("tool %s was asked for but is not offered", w))
		}
	}
	switch {
	case len(fails) > 0:
		return auditResult(auditRegistry, messages.AuditFail, "%s", firstOf(fails))
	case len(warns) > 0:
		return auditResult(auditRegistry, messages.AuditWarn, "%s", firstOf(warns))
	}
	return auditResult(auditRegistry, messages.AuditOK, "%s offered, each registered, every schema compiles", textfmt.Count(len(a.Offered), "tool"))
}

func (a *sessionAudit) goal() messages.AuditCheck {
	g := a.Goal
	if a.StoredErr != nil {
		return auditResult(auditGoal, messages.AuditFail, "the stored goal cannot be read: %v", a.StoredErr)
	}
	if g == nil {
		if a.Stored != nil && a.Stored.Status != messages.GoalCleared {
			return auditResult(auditGoal, messages.AuditFail, "the store holds goal %q (%s) the session does not", a.Stored.Objective, a.Stored.Status)
		}
		return auditResult(auditGoal, messages.AuditOK, "no goal set")
	}
	switch g.Status {
	case messages.GoalActive, messages.GoalPaused:
		if strings.TrimSpace(g.Objective) == "" {
			return auditResult(auditGoal, messages.AuditFail, "the goal is %s without an objective", g.Status)
		}
	case messages.GoalComplete:
		if strings.TrimSpace(g.Evidence) == "" {
			return auditResult(auditGoal, messages.AuditFail, "the goal %q is complete without evidence", g.Objective)
		}
	case messages.GoalCleared:
	default:
		return auditResult(auditGoal, messages.AuditFail, "the goal has an unknown status %q", g.Status)
	}
	if a.Stored == nil || a.Stored.Objective != g.Objective || a.Stored.Status != g.Status {
		stored := "nothing"
		if a.Stored != nil {
			stored = fmt.Sprintf("%q (%s)", a.Stored.Objective, a.Stored.Status)
		}
		return auditResult(auditGoal, messages.AuditFail, "the session holds %q (%s) but the store holds %s", g.Objective, g.Status, stored)
	}
	return auditResult(auditGoal, messages.AuditOK, "%q is %s, as stored", g.Objective, g.Status)
}

func (a *sessionAudit) store() messages.AuditCheck {
	l := a.Log
	switch {
	case l.Err != nil:
		return auditResult(auditStore, messages.AuditFail, "the log cannot be read back: %v", l.Err)
	case len(l.Damaged) > 0:
		return auditResult(auditStore, messages.AuditFail, "entry %d failed its checksum (%d damaged of %s); troupe doctor --repair salvages the rest",
			l.Damaged[0], len(l.Damaged), textfmt.Count(l.Count, "entry", "entries"))
	case len(l.Gaps) > 0:
		return auditResult(auditStore, messages.AuditFail, "the log's seqs are not contiguous: %s", firstOf(l.Gaps))
	case a.LastSeq > l.Last:
		return auditResult(auditStore, messages.AuditFail, "the session holds entry %d but the stored log ends at %d", a.LastSeq, l.Last)
	case l.Count == 0:
		return auditResult(auditStore, messages.AuditOK, "the log is empty (nothing said yet) and reads back")
	}
	return auditResult(auditStore, messages.AuditOK, "%s read back, seq 1..%d contiguous, checksums ok", textfmt.Count(l.Count, "entry", "entries"), l.Last)
}

func (a *sessionAudit) bus() messages.AuditCheck {
	b := a.Bus
	switch {
	case b.Absent:
		return auditResult(auditBus, messages.AuditWarn, "this session runs without a bus")
	case !b.Connected:
		return auditResult(auditBus, messages.AuditFail, "the node's NATS connection is %s", strings.ToLower(b.Status))
	case b.Err != nil:
		return auditResult(auditBus, messages.AuditFail, "no answer to a ping: %v", b.Err)
	case b.Dead > 0:
		return auditResult(auditBus, messages.AuditFail, "%d of the session's %s closed: clients cannot reach it", b.Dead, textfmt.Count(b.Subs, "subscription"))
	}
	return auditResult(auditBus, messages.AuditOK, "connected, ping round trip %s, %s live", b.RTT.Round(time.Microsecond), textfmt.Count(b.Subs, "subscription"))
}

// formatAudit is /audit for people: one line per check, then a summary.
func formatAudit(checks []messages.AuditCheck) string {
	var b strings.Builder
	worst := map[messages.AuditVerdict]int{}
	for _, c := range checks {
		fmt.Fprintf(&b, "%-4s %-10s %s\n", c.Verdict, c.Name, c.Evidence)
		worst[c.Verdict]++
	}
	fmt.Fprintf(&b, "%d ok, %d warn, %d fail", worst[messages.AuditOK], worst[messages.AuditWarn], worst[messages.AuditFail])
	return b.String()
}
