package main

import (
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm/llmtest"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// The trap: check.sh fails unless TROUPE_FIXTURES is set, and says nothing of how to fix it.
const lessonTrapScript = "#!/bin/sh\nif [ -z \"$TROUPE_FIXTURES\" ]; then echo 'check: fixtures are missing'; exit 1; fi\necho 'check: all good'\n"

// trapModel plays a model that, given the fix in its request, runs the check the right way at
// once; without it, it runs the check plainly first, and runs it the right way only after the
// failure (as if it had found out by reading the script).
func trapModel(body string, n int, sawFailure bool) llmtest.Reply {
	fixed := llmtest.Reply{Calls: []llmtest.Call{{Name: "bash", Args: `{"command":"TROUPE_FIXTURES=1 sh check.sh"}`}}}
	switch {
	case strings.Contains(body, "check: all good"):
		return llmtest.Reply{Text: "DONE"}
	case strings.Contains(body, "TROUPE_FIXTURES=1 sh check.sh") || sawFailure:
		return fixed
	}
	return llmtest.Reply{Calls: []llmtest.Call{{Name: "bash", Args: `{"command":"sh check.sh"}`}}}
}

// Two real runs of the binary: the first meets the trap and fixes it, and a lesson is stored
// (lesson.stored); the second run's first request carries that lesson in its state block, so
// it goes straight to the fix. troupe lessons lists, shows and forgets it; a damaged record is
// skipped with one line and the others stay.
func TestLessonsCarryAFixToTheNextRun(t *testing.T) {
	repo := newRepo(t, map[string]string{"check.sh": lessonTrapScript})
	env := testEnv(t, "OPENAI_API_KEY=sk-test")
	run := func() (*llmtest.OpenAIServer, []messages.Envelope) {
		srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply {
			raw := requestText(body)
			return trapModel(raw, n, strings.Contains(raw, "fixtures are missing"))
		})
		t.Cleanup(srv.Close)
		r := troupe(t, repo, env, "run", "--json", "--model", "openai/fake", "--base-url", srv.URL(), "--mode", "yolo", "run the checks")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		return srv, envelopes(t, r.stdout)
	}

	srv1, envs1 := run()
	if n := len(srv1.Requests()); n != 3 {
		t.Fatalf("run 1 made %d requests, want 3 (fail, fix, done)", n)
	}
	var stored *messages.LessonStoredData
	for _, e := range envs1 {
		if e.Type == messages.EventLessonStored {
			v, _ := e.DecodeData()
			stored = v.(*messages.LessonStoredData)
		}
	}
	if stored == nil || stored.Trigger != messages.LessonCommandFailed || !strings.Contains(stored.Fixed, "TROUPE_FIXTURES=1 sh check.sh") {
		t.Fatalf("run 1 stored no lesson about the fix: %+v (events %v)", stored, types(envs1))
	}

	srv2, envs2 := run()
	reqs := srv2.Requests()
	if len(reqs) != 2 {
		t.Fatalf("run 2 made %d requests, want 2 (the fix at once, then done)", len(reqs))
	}
	first := string(reqs[0].Body)
	if !strings.Contains(first, "Past experience") || !strings.Contains(first, stored.ID) || !strings.Contains(first, "TROUPE_FIXTURES=1 sh check.sh") {
		t.Fatalf("run 2's first request does not carry run 1's lesson:\n%s", first)
	}
	given := false
	for _, e := range envs2 {
		given = given || e.Type == messages.EventLessonsGiven
	}
	if !given {
		t.Errorf("run 2 emitted no lessons.given: %v", types(envs2))
	}

	srv3 := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply {
		raw := requestText(body)
		return trapModel(raw, n, strings.Contains(raw, "fixtures are missing"))
	})
	t.Cleanup(srv3.Close)
	human := troupe(t, repo, env, "run", "--model", "openai/fake", "--base-url", srv3.URL(), "--mode", "yolo", "run the checks")
	if out := human.stdout + human.stderr; human.code != 0 || !strings.Contains(out, "1 lesson from earlier sessions given (task): "+stored.ID) {
		t.Errorf("the printer does not say a lesson was given: exit %d\n%s", human.code, out)
	}

	list := troupe(t, repo, env, "lessons")
	if list.code != 0 || !strings.Contains(list.stdout, stored.ID) || !strings.Contains(list.stdout, "helped 2/2") {
		t.Fatalf("troupe lessons: exit %d\n%s%s", list.code, list.stdout, list.stderr)
	}
	show := troupe(t, repo, env, "lessons", "show", stored.ID[:4])
	if show.code != 0 || !strings.Contains(show.stdout, "TROUPE_FIXTURES=1 sh check.sh") {
		t.Fatalf("troupe lessons show: exit %d\n%s%s", show.code, show.stdout, show.stderr)
	}
	if r := troupe(t, repo, env, "lessons", "show"); r.code != 2 {
		t.Errorf("lessons show without an id: exit %d, want 2", r.code)
	}
	if r := troupe(t, repo, env, "lessons", "show", "nope"); r.code != 2 || !strings.Contains(r.stderr, `no lesson "nope"`) {
		t.Errorf("lessons show of an unknown id: exit %d %s, want 2 and the id named", r.code, r.stderr)
	}

	if r := troupe(t, repo, env, "stop"); r.code != 0 {
		t.Fatalf("stop the node: exit %d %s", r.code, r.stderr)
	}
	damage(t, repo, "deadbeef", []byte("{not json"))
	list = troupe(t, repo, env, "lessons")
	if list.code != 0 || !strings.Contains(list.stdout, stored.ID) || strings.Count(strings.TrimSpace(list.stderr), "\n") != 0 || !strings.Contains(list.stderr, "deadbeef") || !strings.Contains(list.stderr, "skipped") {
		t.Fatalf("a damaged record must be skipped with one line, the others listed: exit %d\n%s%s", list.code, list.stdout, list.stderr)
	}
	for _, id := range []string{stored.ID, "deadbeef"} {
		if r := troupe(t, repo, env, "lessons", "forget", id); r.code != 0 {
			t.Fatalf("forget %s: exit %d %s", id, r.code, r.stderr)
		}
	}
	if r := troupe(t, repo, env, "lessons", "forget", stored.ID); r.code != 2 || !strings.Contains(r.stderr, "no lesson") {
		t.Errorf("forgetting it twice: exit %d %s", r.code, r.stderr)
	}
}

// A lesson learnt again in a later run (same trap, same key) is the stored one met again: the
// run says so rather than announcing a new lesson, and the project still holds one lesson,
// seen twice.
func TestALessonLearntAgainIsNotAnnouncedAsNew(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"file_path": "a.txt"}}]},
		{"expect": "alpha", "text": "it says alpha"}]}`)
	env := testEnv(t)
	first := troupe(t, repo, env, "run", "--model", model, "read")
	if first.code != 0 || strings.Count(first.stdout, "learnt lesson ") != 1 {
		t.Fatalf("run 1 learnt no lesson: exit %d\n%s%s", first.code, first.stdout, first.stderr)
	}
	id := strings.Fields(first.stdout[strings.Index(first.stdout, "learnt lesson ")+len("learnt lesson "):])[0]
	id = strings.TrimSuffix(id, ":")
	second := troupe(t, repo, env, "run", "--model", model, "read")
	if second.code != 0 || strings.Contains(second.stdout, "learnt lesson") || !strings.Contains(second.stdout, "lesson "+id+" met again") {
		t.Fatalf("run 2 announced the known lesson %s as new: exit %d\n%s%s", id, second.code, second.stdout, second.stderr)
	}
	list := troupe(t, repo, env, "lessons", "--json")
	if list.code != 0 || strings.Count(list.stdout, `"id":`) != 1 || !strings.Contains(list.stdout, `"seen":2`) {
		t.Fatalf("the project must hold the one lesson, seen twice: exit %d\n%s%s", list.code, list.stdout, list.stderr)
	}
}

// damage writes a raw record under a lesson id, as a damaged store would hold it, once the
// stopped node has let go of the store.
func damage(t *testing.T, repo, id string, data []byte) {
	t.Helper()
	deadline := time.Now().Add(testwait.Scale(30 * time.Second))
	st, err := store.Open(filepath.Join(actors.StateDir(repo), "db"), slog.New(slog.DiscardHandler))
	for errors.Is(err, store.ErrLocked) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond) // polling for the node's exit
		st, err = store.Open(filepath.Join(actors.StateDir(repo), "db"), slog.New(slog.DiscardHandler))
	}
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.UpdateLesson(id, func([]byte) ([]byte, error) { return data, nil }); err != nil {
		t.Fatal(err)
	}
}

// requestText is an OpenAI request body's messages as text.
func requestText(body map[string]any) string {
	var b strings.Builder
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		if mm, ok := m.(map[string]any); ok {
			if c, ok := mm["content"].(string); ok {
				b.WriteString(c + "\n")
			}
		}
	}
	return b.String()
}
