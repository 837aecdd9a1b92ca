package taskstate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// TestHostRedelivery runs one writing task through two workers: the first dies mid-task, the
// second resumes it (transcript and worktree), finishes it, and the parent merges its branch.
func TestHostRedelivery(t *testing.T) {
	r := newRig(t)
	parent := t.TempDir()
	git(t, parent, "init", "-q", "-b", "main")
	must(t, os.WriteFile(filepath.Join(parent, "a.txt"), []byte("one\n"), 0o644))
	git(t, parent, "add", "-A")
	git(t, parent, "commit", "-q", "-m", "first")
	must(t, os.WriteFile(filepath.Join(parent, "notes.txt"), []byte("uncommitted\n"), 0o644))
	repo, _, err := gitship.Prepare(r.ctx, parent, "job-1", r.objs, gitship.PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	task := &messages.SpawnTask{ID: "job-1", Project: "p1", Repo: *repo, Writes: true, Attempt: 1}

	// Worker A: a first delivery starts fresh; the child writes, then dies inside a call.
	stA := openStore(t)
	hostA, err := NewHost(r.ctx, r.js, "p1", t.TempDir(), stA, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	runA, err := hostA.Begin(r.ctx, task)
	if err != nil || runA.Plan != Fresh || runA.Dir == "" {
		t.Fatalf("first delivery: %+v, %v", runA, err)
	}
	if b, err := os.ReadFile(filepath.Join(runA.Dir, "notes.txt")); err != nil || string(b) != "uncommitted\n" {
		t.Fatalf("the parent's uncommitted file on the worker: %q, %v", b, err)
	}
	must(t, stA.PutMeta(&store.SessionMeta{ID: "job-1", Task: "add b.txt and c.txt"}))
	must(t, stA.Append("job-1", &store.Entry{Kind: store.KindUser, Text: "add b.txt and c.txt"}))
	must(t, stA.Append("job-1", &store.Entry{Kind: store.KindAssistant, Calls: []store.Call{{ID: "w1", Name: "write"}}}))
	must(t, os.WriteFile(filepath.Join(runA.Dir, "b.txt"), []byte("b\n"), 0o644))
	must(t, stA.Append("job-1", &store.Entry{Kind: store.KindToolResult, CallID: "w1", ToolName: "write", Text: "ok"}))
	must(t, stA.Append("job-1", &store.Entry{Kind: store.KindAssistant, Calls: []store.Call{{ID: "b1", Name: "bash"}}}))
	must(t, hostA.Mirror.Flush(r.ctx))
	hostA.Close() // SIGKILL stands here: no Finish, no Release, no Done

	// Worker B takes the redelivery.
	task.Attempt = 2
	stB := openStore(t)
	hostB, err := NewHost(r.ctx, r.js, "p1", t.TempDir(), stB, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hostB.Close()
	runB, err := hostB.Begin(r.ctx, task)
	if err != nil || runB.Plan != Resume || runB.Restored.LastSeq != 4 {
		t.Fatalf("redelivery: %+v, %v", runB, err)
	}
	if b, err := os.ReadFile(filepath.Join(runB.Dir, "b.txt")); err != nil || string(b) != "b\n" {
		t.Fatalf("b.txt on the second worker: %q, %v", b, err)
	}
	log, _ := stB.Log("job-1")
	if _, synthetic := store.Heal(log); len(synthetic) != 1 || synthetic[0].CallID != "b1" {
		t.Fatalf("the cut-off bash call is not answered as interrupted: %+v", synthetic)
	}
	// The resumed child finishes its work.
	must(t, os.WriteFile(filepath.Join(runB.Dir, "c.txt"), []byte("c\n"), 0o644))
	must(t, stB.Append("job-1", &store.Entry{Kind: store.KindAssistant, Text: "added both"}))
	res := &messages.AgentResult{Session: "job-1", Handle: "adder", Status: messages.AgentDone, Summary: "added both"}
	hostB.Finish(r.ctx, runB, res)
	if res.Error != "" || res.Branch == "" || res.Bundle == nil || !strings.Contains(res.DiffStat, "c.txt") {
		t.Fatalf("finished result: %+v", res)
	}
	must(t, hostB.Release(r.ctx, runB))
	must(t, hostB.Done(r.ctx, runB))
	if again, err := r.state.Restore(r.ctx, openStore(t), "job-1"); err != nil || again.Meta {
		t.Fatalf("state after Done: %+v, %v", again, err)
	}

	// The parent imports the branch and merges it like a local worktree result.
	git(t, parent, "add", "-A")
	git(t, parent, "commit", "-q", "-m", "notes")
	must(t, gitship.Import(r.ctx, parent, "adder", repo.Base, res, r.objs, ""))
	if _, err := worktree.Merge(parent, "adder"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"b.txt", "c.txt", "notes.txt"} {
		if _, err := os.Stat(filepath.Join(parent, name)); err != nil {
			t.Errorf("%s missing after the merge", name)
		}
	}
	must(t, r.objs.Forget(r.ctx, "job-1"))

	// A redelivery with nothing mirrored starts fresh.
	fresh := &messages.SpawnTask{ID: "job-2", Project: "p1", Repo: *repo, Attempt: 3}
	run, err := hostB.Begin(r.ctx, fresh)
	if err != nil || run.Plan != Fresh {
		t.Fatalf("redelivery with nothing mirrored: %+v, %v", run, err)
	}
	must(t, hostB.Release(r.ctx, run))
}

// TestMirroredStateResumesWhateverTheCount: a task whose transcript was mirrored resumes even
// when the server counts its delivery as the first (nats-server 2.9 did so now and then for a
// task redelivered after its holder was SIGKILLed); a start that mirrored no entry is cleared
// and begins afresh.
func TestMirroredStateResumesWhateverTheCount(t *testing.T) {
	r := newRig(t)
	put := func(key, val string) {
		if _, err := r.state.kv.Put(r.ctx, key, []byte(val)); err != nil {
			t.Fatal(err)
		}
	}
	put(metaKey("job-1"), `{"id":"job-1"}`)
	put(entryKey("job-1", 1), `{"seq":1,"kind":"user","text":"the task"}`)
	put(metaKey("job-2"), `{"id":"job-2"}`) // began, died before its first entry
	host, err := NewHost(r.ctx, r.js, "p1", t.TempDir(), openStore(t), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	run, err := host.Begin(r.ctx, &messages.SpawnTask{ID: "job-1", Project: "p1", Attempt: 1})
	if err != nil || run.Plan != Resume || run.Restored.LastSeq != 1 {
		t.Fatalf("mirrored task counted first: %+v, %v", run, err)
	}
	run, err = host.Begin(r.ctx, &messages.SpawnTask{ID: "job-2", Project: "p1", Attempt: 1})
	if err != nil || run.Plan != Fresh {
		t.Fatalf("task with no entry mirrored: %+v, %v", run, err)
	}
	if got, err := r.state.Restore(r.ctx, openStore(t), "job-2"); err != nil || got.Meta || got.LastSeq != 0 {
		t.Fatalf("partial state after a fresh start: %+v, %v", got, err)
	}
}
