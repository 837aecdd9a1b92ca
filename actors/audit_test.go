package actors

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// healthyAudit is a snapshot every check passes; each test breaks one thing in it.
func healthyAudit() *sessionAudit {
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
	goal := &messages.Goal{Objective: "ship it", Status: messages.GoalActive, By: "user"}
	stored := *goal
	return &sessionAudit{
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "go"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Args: `{}`}}},
			{Role: llm.RoleTool, ToolCallID: "c1", Content: "alpha"},
			{Role: llm.RoleAssistant, Content: "done"},
		},
		Offered:    []tools.Spec{{Name: "read_file", Schema: schema}},
		Registered: []string{"read_file"},
		Goal:       goal, Stored: &stored,
		Files: []fileObservation{{Record: tools.FileRecord{Path: "a.txt", SHA256: "aaa", Status: tools.StatusFresh, Turn: 1}, SHA256: "aaa"}},
		Log:   logScan{Count: 4, Last: 4}, LastSeq: 4,
		Bus: busObservation{Connected: true, Status: "CONNECTED", Subs: 2},
	}
}

// verdictOf returns the named check of a.
func checkNamed(t *testing.T, a *sessionAudit, name string) messages.AuditCheck {
	t.Helper()
	checks := a.Checks()
	if len(checks) != 6 {
		t.Fatalf("%d checks, want 6: %+v", len(checks), checks)
	}
	for _, c := range checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no %s check in %+v", name, checks)
	return messages.AuditCheck{}
}

func TestAuditOfAHealthySessionIsAllOK(t *testing.T) {
	for _, c := range healthyAudit().Checks() {
		if c.Verdict != messages.AuditOK || c.Evidence == "" {
			t.Errorf("%s: %s %q", c.Name, c.Verdict, c.Evidence)
		}
	}
}

func TestAuditFindsEachBrokenInvariant(t *testing.T) {
	cases := []struct {
		name, check string
		want        messages.AuditVerdict
		evidence    string
		breakIt     func(a *sessionAudit)
	}{
		{"unpaired call", auditPairing, messages.AuditFail, `call "c2" (bash) has no result`, func(a *sessionAudit) {
			a.Messages = append(a.Messages, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c2", Name: "bash"}}})
		}},
		{"orphan result", auditPairing, messages.AuditFail, `"c9" answers no call`, func(a *sessionAudit) {
			a.Messages = append(a.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: "c9", Content: "?"})
		}},
		{"two results for one call", auditPairing, messages.AuditFail, `duplicate result for call "c1"`, func(a *sessionAudit) {
			a.Messages = append(a.Messages[:3:3], llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: "again"})
		}},
		{"changed file", auditFileTruth, messages.AuditWarn, "a.txt changed on disk since it was last read (turn 1)", func(a *sessionAudit) {
			a.Files[0].SHA256 = "bbb"
		}},
		{"file the model's own command changed", auditFileTruth, messages.AuditWarn, "a.txt was changed by the model's own command (turn 2); the model was told", func(a *sessionAudit) {
			a.Files[0].SHA256 = "bbb"
			a.Files[0].Record.DiskSHA256, a.Files[0].Record.Source, a.Files[0].Record.CommandTurn = "bbb", tools.SourceAgentCommand, 2
		}},
		{"deleted file", auditFileTruth, messages.AuditWarn, "a.txt was deleted since it was last read", func(a *sessionAudit) {
			a.Files[0].SHA256, a.Files[0].Missing = "", true
		}},
		{"unreadable file", auditFileTruth, messages.AuditWarn, "a.txt cannot be read (permission denied)", func(a *sessionAudit) {
			a.Files[0].Err = "permission denied"
		}},
		{"schema that does not compile", auditRegistry, messages.AuditFail, "tool read_file", func(a *sessionAudit) {
			a.Offered[0].Schema = json.RawMessage(`{"type":"object","properties":{"path":{"type":7}}}`)
		}},
		{"tool offered but not registered", auditRegistry, messages.AuditFail, "grep is offered but not registered", func(a *sessionAudit) {
			a.Offered = append(a.Offered, tools.Spec{Name: "grep", Schema: a.Offered[0].Schema})
		}},
		{"tool asked for but missing", auditRegistry, messages.AuditWarn, "tool bash was asked for but is not offered", func(a *sessionAudit) {
			a.Wanted = []string{"read_file", "bash"}
		}},
		{"tool withheld on purpose is not a warning", auditRegistry, messages.AuditOK, "1 tool offered", func(a *sessionAudit) {
			a.Wanted, a.Withheld = []string{"read_file", "write_file"}, map[string]bool{"write_file": true}
		}},
		{"active goal without objective", auditGoal, messages.AuditFail, "active without an objective", func(a *sessionAudit) {
			a.Goal.Objective, a.Stored.Objective = " ", " "
		}},
		{"complete goal without evidence", auditGoal, messages.AuditFail, "complete without evidence", func(a *sessionAudit) {
			a.Goal.Status = messages.GoalComplete
		}},
		{"goal differs from the store", auditGoal, messages.AuditFail, `the store holds "ship it" (paused)`, func(a *sessionAudit) {
			a.Stored.Status = messages.GoalPaused
		}},
		{"gap in the log", auditStore, messages.AuditFail, "seq 4 follows 2", func(a *sessionAudit) {
			a.Log = logScan{}
			for _, seq := range []uint64{1, 2, 4} {
				a.Log.add(&store.Entry{Seq: seq, Kind: store.KindUser})
			}
		}},
		{"damaged entry", auditStore, messages.AuditFail, "entry 2 failed its checksum", func(a *sessionAudit) {
			a.Log = logScan{}
			a.Log.add(&store.Entry{Seq: 1, Kind: store.KindUser})
			a.Log.add(&store.Entry{Seq: 2, Kind: store.KindSystem, Event: store.DamagedEntryEvent})
		}},
		{"log behind memory", auditStore, messages.AuditFail, "holds entry 9 but the stored log ends at 4", func(a *sessionAudit) {
			a.LastSeq = 9
		}},
		{"log unreadable", auditStore, messages.AuditFail, "cannot be read back: boom", func(a *sessionAudit) {
			a.Log.Err = errors.New("boom")
		}},
		{"bus down", auditBus, messages.AuditFail, "connection is closed", func(a *sessionAudit) {
			a.Bus = busObservation{Status: "CLOSED"}
		}},
		{"closed subscription", auditBus, messages.AuditFail, "1 of the session's 2 subscriptions closed", func(a *sessionAudit) {
			a.Bus.Dead = 1
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := healthyAudit()
			tc.breakIt(a)
			c := checkNamed(t, a, tc.check)
			if c.Verdict != tc.want || !strings.Contains(c.Evidence, tc.evidence) {
				t.Errorf("%s: %s %q, want %s with %q", tc.check, c.Verdict, c.Evidence, tc.want, tc.evidence)
			}
			for _, other := range a.Checks() {
				if other.Name != tc.check && other.Verdict != messages.AuditOK {
					t.Errorf("breaking %s also broke %s: %q", tc.check, other.Name, other.Evidence)
				}
			}
		})
	}
}

func TestFormatAuditCountsVerdicts(t *testing.T) {
	a := healthyAudit()
	a.Files[0].SHA256 = "bbb"
	a.LastSeq = 9
	out := formatAudit(a.Checks())
	if !strings.Contains(out, "warn file truth a.txt changed") || !strings.HasSuffix(out, "4 ok, 1 warn, 1 fail") {
		t.Errorf("report:\n%s", out)
	}
}

func sha256Of(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil))
}

func TestObserveFilesSeesAChangedAndADeletedFile(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"same.txt", "edited.txt", "gone.txt"} {
		os.WriteFile(filepath.Join(root, name), []byte(name+"\n"), 0o644)
	}
	var recs []*tools.FileRecord
	for _, name := range []string{"edited.txt", "gone.txt", "same.txt"} {
		recs = append(recs, &tools.FileRecord{Path: name, SHA256: sha256Of(t, filepath.Join(root, name)), Status: tools.StatusFresh, Turn: 2})
	}
	os.WriteFile(filepath.Join(root, "edited.txt"), []byte("changed behind the session's back\n"), 0o644)
	os.Remove(filepath.Join(root, "gone.txt"))
	// A FIFO where a read file was: looked at, never opened for a read that could hang.
	os.Remove(filepath.Join(root, "pipe.txt"))
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	recs = append(recs, &tools.FileRecord{Path: "pipe.txt", SHA256: "x"})
	obs := observeFiles(root, recs)
	if len(obs) != 4 || obs[0].SHA256 == recs[0].SHA256 || !obs[1].Missing || obs[2].SHA256 != recs[2].SHA256 ||
		obs[3].Err != "it is no longer a regular file" {
		t.Fatalf("observations: %+v", obs)
	}
	a := healthyAudit()
	a.Files = obs
	c := checkNamed(t, a, auditFileTruth)
	if c.Verdict != messages.AuditWarn || !strings.Contains(c.Evidence, "edited.txt changed on disk") || !strings.Contains(c.Evidence, "and 2 more") {
		t.Errorf("file truth: %+v", c)
	}
}

func TestScanLogReadsBackAStoredLogInPages(t *testing.T) {
	st, err := store.Open(t.TempDir(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	big := strings.Repeat("x", auditLogPage/2)
	for i := range 5 {
		if err := st.Append("s1", &store.Entry{Kind: store.KindUser, Text: big + string(rune('a'+i))}); err != nil {
			t.Fatal(err)
		}
	}
	l := scanLog(st, "s1")
	if l.Err != nil || l.Count != 5 || l.Last != 5 || len(l.Gaps) != 0 || len(l.Damaged) != 0 {
		t.Fatalf("scan: %+v", l)
	}
	if l := scanLog(st, "nobody"); l.Count != 0 || l.Err != nil {
		t.Errorf("an empty log: %+v", l)
	}
	if g, err := storedGoal(st, "s1"); g != nil || err != nil {
		t.Errorf("no stored goal: %+v %v", g, err)
	}
}

func TestProbeBusPingsAndSeesAClosedConnection(t *testing.T) {
	bus, err := StartBus(slog.New(slog.DiscardHandler), "test", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer bus.Shutdown()
	nc, err := bus.Connect("audit-test")
	if err != nil {
		t.Fatal(err)
	}
	sub, err := nc.SubscribeSync("audit.test")
	if err != nil {
		t.Fatal(err)
	}
	b := probeBus(nc, []*nats.Subscription{sub})
	if !b.Connected || b.Err != nil || b.RTT <= 0 || b.Subs != 1 || b.Dead != 0 {
		t.Fatalf("live bus: %+v", b)
	}
	nc.Close()
	a := healthyAudit()
	a.Bus = probeBus(nc, []*nats.Subscription{sub})
	if c := checkNamed(t, a, auditBus); c.Verdict != messages.AuditFail || !strings.Contains(c.Evidence, "closed") {
		t.Errorf("closed bus: %+v", c)
	}
	if b := probeBus(nil, nil); !b.Absent {
		t.Errorf("no connection: %+v", b)
	}
}
