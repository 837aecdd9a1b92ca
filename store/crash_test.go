package store

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// crashChildEnv names the store directory when the test binary runs as the crash child.
const crashChildEnv = "TROUPE_STORE_CRASH_CHILD_DIR"

// TestCrashChild is not a test on its own: TestCrashSafety re-executes the test binary to run
// it as a child that appends until it is killed, printing each seq once Append has returned.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashChildEnv)
	if dir == "" {
		t.Skip("runs only as TestCrashSafety's child")
	}
	s, err := Open(dir, nil)
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	for i := 0; ; i++ {
		// A turn-shaped batch: an assistant call and its result, sometimes large.
		text := strings.Repeat("r", (i%7)*9000)
		call := &Entry{Kind: KindAssistant, Calls: []Call{{ID: strconv.Itoa(i), Name: "bash"}}}
		result := &Entry{Kind: KindToolResult, CallID: strconv.Itoa(i), ToolName: "bash", Text: text}
		if err := s.Append("crash", call, result); err != nil {
			fmt.Println("append:", err)
			os.Exit(1)
		}
		fmt.Println(result.Seq) // acknowledged
	}
}

// TestCrashSafety SIGKILLs a process mid-append and checks every acknowledged entry survived,
// the log is gap-free, and appending continues where it stopped.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start child: %v", err)
	}

	var acked uint64
	lines := bufio.NewScanner(stdout)
	for acked < 400 && lines.Scan() {
		seq, err := strconv.ParseUint(lines.Text(), 10, 64)
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child said %q", lines.Text())
		}
		acked = seq
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill child: %v", err)
	}
	// Acknowledgements already in the pipe when the kill landed count too.
	for lines.Scan() {
		if seq, err := strconv.ParseUint(lines.Text(), 10, 64); err == nil {
			acked = seq
		}
	}
	cmd.Wait()
	if acked < 400 {
		t.Fatalf("child stopped early after seq %d", acked)
	}

	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer s.Close()
	log, err := s.Log("crash")
	if err != nil {
		t.Fatalf("Log after kill: %v", err)
	}
	if uint64(len(log)) < acked {
		t.Fatalf("%d entries survived, but seq %d was acknowledged", len(log), acked)
	}
	for i, e := range log {
		if e.Seq != uint64(i+1) {
			t.Fatalf("gap: entry %d has seq %d", i, e.Seq)
		}
	}
	// The kill may land between two appends only: each Append is one transaction.
	if len(log)%2 != 0 {
		t.Fatalf("%d entries: a call/result batch was torn", len(log))
	}
	next := &Entry{Kind: KindUser}
	if err := s.Append("crash", next); err != nil || next.Seq != uint64(len(log))+1 {
		t.Fatalf("Append after crash: seq %d, %v; want %d", next.Seq, err, len(log)+1)
	}
	if _, synthetic := Heal(log); len(synthetic) != 0 {
		t.Errorf("whole batches survived, yet Heal made %d synthetic results", len(synthetic))
	}
}
