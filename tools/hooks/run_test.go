package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

func execHook(t *testing.T, command string, timeoutS int) Run {
	t.Helper()
	return Exec(context.Background(), Hook{Event: PreToolUse, Command: command, TimeoutS: timeoutS}, t.TempDir(), os.Environ(), []byte(`{"x":1}`))
}

func TestExecReadsStdinAndReportsExit(t *testing.T) {
	r := execHook(t, `cat; echo err >&2; exit 2`, 10)
	if r.Exit != 2 || r.Stdout != `{"x":1}` || strings.TrimSpace(r.Stderr) != "err" || r.Failure != "" {
		t.Errorf("%+v", r)
	}
}

// The bad-input list: each is a clear error, never a hang or a crash.
func TestExecBadHooks(t *testing.T) {
	start := time.Now()
	hang := execHook(t, `sleep 30`, 1)
	if hang.Failure == "" || !strings.Contains(hang.Failure, "timed out") {
		t.Errorf("hang: %+v", hang)
	}
	if took := time.Since(start); took > testwait.Scale(20*time.Second) {
		t.Errorf("a 1 s timeout took %s", took)
	}
	loop := execHook(t, `while :; do :; done & wait`, 1)
	if !strings.Contains(loop.Failure, "timed out") {
		t.Errorf("loop: %+v", loop)
	}
	big := execHook(t, `head -c 52428800 /dev/zero | tr '\0' a`, 30)
	if !strings.Contains(big.Failure, "more than") || len(big.Stdout) != MaxOutput {
		t.Errorf("50 MB: failure %q, kept %d bytes", big.Failure, len(big.Stdout))
	}
	missing := execHook(t, `./no-such-hook.sh`, 10)
	if !strings.Contains(missing.Failure, "not found") {
		t.Errorf("missing: %+v", missing)
	}
	if v := Judge(PreToolUse, missing); v.Decision != DecisionError {
		t.Errorf("missing judged %+v", v)
	}
	// A hook that leaves a child holding its output is not waited for.
	start = time.Now()
	bg := execHook(t, `sleep 30 & echo done`, 20)
	if bg.Exit != 0 || strings.TrimSpace(bg.Stdout) != "done" {
		t.Errorf("background child: %+v", bg)
	}
	if took := time.Since(start); took > testwait.Scale(15*time.Second) {
		t.Errorf("a hook with a background child took %s", took)
	}
}

func TestExecKillsTheWholeGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	r := Exec(context.Background(), Hook{Event: Stop, Command: `sh -c 'echo $$ > ` + pidFile + `; sleep 60' & wait`, TimeoutS: 1}, dir, os.Environ(), nil)
	if !strings.Contains(r.Failure, "timed out") {
		t.Fatalf("%+v", r)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(data))
	testwait.Until(t, 10*time.Second, func() bool {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		return err != nil || strings.Contains(string(stat), ") Z ") // gone, or a zombie nobody reaps
	}, "the hook's grandchild "+pid+" to die with it")
}
