package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/starttrace"
)

// tracePhases parses the start-up trace lines of stderr into phase → timestamp, in order seen.
func tracePhases(t *testing.T, stderr string) (order []string, at map[string]int64) {
	t.Helper()
	at = map[string]int64{}
	for _, line := range strings.Split(stderr, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "troupe-start" {
			continue
		}
		ns, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			t.Fatalf("trace line %q: %v", line, err)
		}
		if _, dup := at[f[1]]; dup {
			t.Errorf("phase %s traced twice", f[1])
		}
		order = append(order, f[1])
		at[f[1]] = ns
	}
	return order, at
}

// A one-shot run with the trace on reports every phase of its start, in the order they happen,
// from a subdirectory of the repository: the project root (where the state lives) is found by
// walking up to .git, not from the working directory.
func TestRunTracesItsStartPhasesInOrder(t *testing.T) {
	repo := newRepo(t, map[string]string{"sub/dir/file.txt": "x\n"})
	model := writeScript(t, repo, `{"turns": [{"text": "hello"}]}`)
	sub := filepath.Join(repo, "sub", "dir")
	r := troupe(t, sub, testEnv(t, starttrace.Env+"=1"), "run", "--sandbox", "off", "--model", model, "say hello")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	order, at := tracePhases(t, r.stderr)
	// The node starts in a process of its own: this one traces its start (spawned) in place of
	// the store and the bus, and the model request happens there.
	want := []string{starttrace.Main, starttrace.Config, starttrace.Spawned, starttrace.Attached, starttrace.Event, starttrace.Finished, starttrace.Exit}
	for i := 1; i < len(want); i++ {
		a, okA := at[want[i-1]]
		b, okB := at[want[i]]
		if !okA || !okB || b < a {
			t.Errorf("phase %s (%v) should follow %s (%v); traced: %v", want[i], okB, want[i-1], okA, order)
		}
	}
	if _, ok := at[starttrace.Store]; ok {
		t.Errorf("the client opened the store itself: %v", order)
	}
	if _, err := os.Stat(filepath.Join(repo, ".troupe")); err != nil {
		t.Errorf("state not at the repository root: %v", err)
	}
	if _, err := os.Stat(filepath.Join(sub, ".troupe")); err == nil {
		t.Errorf("state created in the subdirectory %s, not the repository root", sub)
	}

	quiet := troupe(t, sub, testEnv(t), "run", "--sandbox", "off", "--model", model, "say hello")
	if quiet.code != 0 || strings.Contains(quiet.stderr, "troupe-start") {
		t.Errorf("without %s: exit %d, stderr %q", starttrace.Env, quiet.code, quiet.stderr)
	}
}

// A one-shot run leaves the store synced but not closed (the next open replays its memtable log,
// as after a crash): run after run in one project, every run's transcript must still be there.
func TestRunsThatExitWithoutClosingTheStoreLoseNothing(t *testing.T) {
	repo := newRepo(t, nil)
	var ids []string
	for i := range 4 {
		model := writeScript(t, repo, `{"turns": [{"text": "answer-`+strconv.Itoa(i)+`"}]}`)
		r := troupe(t, repo, testEnv(t), "run", "--json", "--sandbox", "off", "--model", model, "task-"+strconv.Itoa(i))
		if r.code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, r.code, r.stderr)
		}
		ids = append(ids, envelopes(t, r.stdout)[0].Session)
	}
	for i, id := range ids {
		lg := troupe(t, repo, testEnv(t), "log", id)
		for _, want := range []string{"task-" + strconv.Itoa(i), "answer-" + strconv.Itoa(i)} {
			if lg.code != 0 || !strings.Contains(lg.stdout, want) {
				t.Errorf("log %s (run %d): exit %d, lacks %q:\n%s%s", id, i, lg.code, want, lg.stdout, lg.stderr)
			}
		}
	}
}
