package store

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// exitChildEnv names the store directory and session when the test binary runs as a one-shot
// run that exits without closing the store (as `troupe run` does: Node.CloseForExit).
const exitChildEnv = "TROUPE_STORE_EXIT_CHILD"

// writeOneShotSession writes what a short `troupe run` session writes, syncing at each turn.
func writeOneShotSession(s *Store, session string) error {
	meta := &SessionMeta{ID: session, Status: "running", Task: "task " + session}
	if err := s.PutMeta(meta); err != nil {
		return err
	}
	for turn := range 3 {
		call := &Entry{Kind: KindAssistant, Calls: []Call{{ID: fmt.Sprint(turn), Name: "bash"}}}
		result := &Entry{Kind: KindToolResult, CallID: fmt.Sprint(turn), ToolName: "bash", Text: session + strings.Repeat(" out", 500)}
		if err := s.AppendWithMeta(meta, call, result); err != nil {
			return err
		}
		if err := s.Sync(); err != nil {
			return err
		}
	}
	meta.Status = "done"
	return s.PutMeta(meta)
}

// oneShotRun opens the store, writes a short session and closes it.
func oneShotRun(t *testing.T, dir, session string) {
	t.Helper()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open before %s: %v", session, err)
	}
	if err := writeOneShotSession(s, session); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close after %s: %v", session, err)
	}
}

// TestExitChild is not a test on its own: TestOneShotExitsKeepTheTableCountBounded re-executes
// the test binary to run it as a one-shot run that syncs and exits without closing.
func TestExitChild(t *testing.T) {
	dir, session, ok := strings.Cut(os.Getenv(exitChildEnv), "|")
	if !ok {
		t.Skip("runs only as TestOneShotExitsKeepTheTableCountBounded's child")
	}
	s, err := Open(dir, nil)
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	if err := writeOneShotSession(s, session); err != nil {
		fmt.Println("write:", err)
		os.Exit(1)
	}
	if err := s.Sync(); err != nil {
		fmt.Println("sync:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// TestOneShotRunsKeepTheTableCountBounded: each one-shot run flushes a table at Close; without
// the write stamp and the level-0 compaction they piled up, one per run, forever.
func TestOneShotRunsKeepTheTableCountBounded(t *testing.T) {
	dir := t.TempDir()
	const runs = 40
	most := 0
	for i := range runs {
		oneShotRun(t, dir, fmt.Sprintf("20260101-0000%02d-aaaaaa", i))
		most = max(most, len(storeFilesWithSuffix(t, dir, ".sst")))
	}
	checkTablesAndSessions(t, dir, most, runs)
}

// TestOneShotExitsKeepTheTableCountBounded: a run that syncs and exits without closing leaves
// its log for the next open to flush; those tables must stay bounded too, and no exit may leave
// the store unopenable.
func TestOneShotExitsKeepTheTableCountBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process per run")
	}
	dir := t.TempDir()
	const runs = 25
	most := 0
	for i := range runs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestExitChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|20260101-0000%02d-bbbbbb", exitChildEnv, dir, i))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("run %d: %v: %s", i, err, out)
		}
		most = max(most, len(storeFilesWithSuffix(t, dir, ".sst")))
	}
	checkTablesAndSessions(t, dir, most, runs)
}

// checkTablesAndSessions asserts at most a handful of tables were seen (level0CompactAt level-0
// tables, the newest lower one and the run's own) and that every run's session is whole.
func checkTablesAndSessions(t *testing.T, dir string, most, runs int) {
	t.Helper()
	// A handful: level0CompactAt level-0 tables, the newest lower table and the run's own.
	if most > 8 {
		t.Fatalf("%d table files after %d one-shot runs; want at most 8", most, runs)
	}

	s, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sessions, err := s.Sessions()
	if err != nil || len(sessions) != runs {
		t.Fatalf("%d sessions after compactions, want %d: %v", len(sessions), runs, err)
	}
	for _, m := range sessions {
		log, err := s.Log(m.ID)
		if err != nil || len(log) != 6 || m.Status != "done" {
			t.Fatalf("session %s: %d entries, status %q, %v; want 6, done", m.ID, len(log), m.Status, err)
		}
		if !strings.HasPrefix(log[5].Text, m.ID+" out") {
			t.Fatalf("session %s: last result %.40q belongs elsewhere", m.ID, log[5].Text)
		}
	}
}

// TestReadOnlyOpenAddsNoTable: a run that only reads (troupe sessions, troupe log) must not stamp
// the store, or every read would flush a table of its own.
func TestReadOnlyOpenAddsNoTable(t *testing.T) {
	dir := t.TempDir()
	oneShotRun(t, dir, "s1")
	before := storeFilesWithSuffix(t, dir, ".sst")
	for range 3 {
		s, err := Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Log("s1"); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if after := storeFilesWithSuffix(t, dir, ".sst"); len(after) != len(before) {
		t.Fatalf("read-only opens left %d tables, were %d", len(after), len(before))
	}
}

func TestCloseTwiceIsHarmless(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.Append("s1", &Entry{Kind: KindUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("first Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// TestClosedRunsLeaveNoCompactionToTheNextOpen: runs that close the store whole (a node's exit)
// merge level 0 as they close, so no later open finds level0CompactAt level-0 tables and pays
// the merge before its first read (a cold start's path).
func TestClosedRunsLeaveNoCompactionToTheNextOpen(t *testing.T) {
	dir := t.TempDir()
	for i := range 3 * level0CompactAt {
		oneShotRun(t, dir, fmt.Sprintf("20260101-0001%02d-cccccc", i))
		mf, _, err := readManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		level0 := 0
		for _, tm := range mf.Tables {
			if tm.Level == 0 {
				level0++
			}
		}
		if level0 >= level0CompactAt {
			t.Fatalf("after closed run %d: %d level-0 tables: the next open compacts before it serves", i+1, level0)
		}
	}
	checkTablesAndSessions(t, dir, len(storeFilesWithSuffix(t, dir, ".sst")), 3*level0CompactAt)
}

func TestCompactAtClose(t *testing.T) {
	for level0, want := range map[int]bool{0: false, level0CompactAt - 2: false, level0CompactAt - 1: true, level0CompactAt: true} {
		if got := compactAtClose(level0); got != want {
			t.Errorf("compactAtClose(%d) = %v, want %v", level0, got, want)
		}
	}
}
