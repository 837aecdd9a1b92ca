package actors

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// An external edit between turns reaches the next prompt and the bus; the stale baseline
// rejects the edit until the file is read again.
func TestExternalEditReachesTheNextPrompt(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"tool_calls": [{"name": "outside_write"}]},
		{"tool_calls": [{"name": "edit_file", "args": {"path": "a.txt", "old_string": "alpha", "new_string": "gamma"}}]},
		{"text": "done"}]}`, outsideWrite{})
	fin := tn.run(t, "f1", "go")
	if fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	ch := tn.waitEvent(t, "f1", messages.EventFileChanged).(*messages.FileChangedData)
	if ch.Path != "a.txt" || ch.Kind != "changed" || !strings.Contains(ch.Diff, "+beta") {
		t.Errorf("file.changed_externally = %+v", ch)
	}
	reqs := tn.provider.all()
	var noted bool
	for _, m := range reqs[2].Messages {
		noted = noted || (m.Role == llm.RoleUser && strings.Contains(m.Content, "a.txt was changed outside"))
	}
	if !noted {
		t.Error("the third request does not carry the external change")
	}
	res := tn.lastToolResults()
	if !res[0].IsError || !strings.Contains(res[0].Content, "read_file it again") {
		t.Errorf("edit against a stale baseline: %+v", res[0])
	}
	if data, _ := os.ReadFile(filepath.Join(tn.Root, "a.txt")); strings.Contains(string(data), "gamma") {
		t.Error("the stale edit was applied")
	}
}

// File records survive a restart of the node: a resumed session can edit what it read before.
func TestFileRecordsAreRestoredOnResume(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "read it"},
		{"tool_calls": [{"name": "edit_file", "args": {"path": "a.txt", "old_string": "alpha", "new_string": "omega"}}]},
		{"text": "edited"}]}`)
	if fin := tn.run(t, "r1", "read"); fin.Final != "read it" {
		t.Fatalf("first run: %+v", fin)
	}
	// A fresh executor and tracker: only the store remembers the read.
	if err := tn.client.StartSession(&messages.StartSession{ID: "r1", Resume: true, Task: "edit", Model: "scripted",
		Mode: "yolo", Workspace: tn.Root}); err != nil {
		t.Fatal(err)
	}
	checkFor(t, 30*time.Second, func() error {
		if n := tn.count("r1", messages.EventSessionFinished); n < 2 {
			return errors.New("resumed run not finished")
		}
		return nil
	})
	if data, _ := os.ReadFile(filepath.Join(tn.Root, "a.txt")); string(data) != "omega\n" {
		t.Fatalf("a.txt = %q; results %+v", data, tn.lastToolResults())
	}
}

// A result over its budget is kept whole as an artifact the model can page through.
func TestLargeOutputBecomesAnArtifact(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "seq 1 200000"}}]},
		{"text": "saw it"}]}`)
	if fin := tn.run(t, "art", "count"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	res := tn.lastToolResults()[0]
	if len(res.Content) > 64<<10 {
		t.Errorf("bash result is %d bytes: not bounded", len(res.Content))
	}
	ref := regexp.MustCompile(`sha256:[0-9a-f]{64}`).FindString(res.Content)
	if ref == "" {
		t.Fatalf("no artifact ref in %q", res.Content[len(res.Content)-300:])
	}
	data, err := tn.store.Artifact(ref)
	if err != nil || strings.Count(string(data), "\n") != 200000 {
		t.Fatalf("artifact %s: %d lines, %v", ref, strings.Count(string(data), "\n"), err)
	}
}
