package lessons

import (
	"os"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

func readRecording(t *testing.T, path string) []Recorded {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, err := ReadRecording(f)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// A recorded session with each kind of failure-then-fix teaches one lesson of each, saying
// what failed and what fixed it; the flaky and the unfixed teach nothing.
func TestCaptureLearnsEachFixFromARecordedSession(t *testing.T) {
	learnt, failures := Learn(readRecording(t, "testdata/cmd_fix.jsonl"), "openai/m", "s1")
	by := map[messages.LessonTrigger]messages.Lesson{}
	for _, l := range learnt {
		if _, dup := by[l.Trigger]; dup {
			t.Errorf("two lessons of trigger %s: %+v", l.Trigger, learnt)
		}
		by[l.Trigger] = l
	}
	want := map[messages.LessonTrigger][2]string{
		messages.LessonCommandFailed: {"Manifest has unsupported version", "WithExternalMagic(7)"},
		messages.LessonToolError:     {"docs/missing.md", "docs/ARCHITECTURE.md"},
		messages.LessonRepaired:      {"stray_text", `{"path":"a.go"}`},
		messages.LessonCheckFailed:   {"should have comment", "// Open opens the store."},
		messages.LessonLoop:          {"repeat", "grep"},
	}
	for trig, w := range want {
		l, ok := by[trig]
		if !ok {
			t.Errorf("no %s lesson in %+v", trig, learnt)
			continue
		}
		if !strings.Contains(l.Failed, w[0]) || !strings.Contains(l.Fixed, w[1]) {
			t.Errorf("%s lesson: failed %q fixed %q; want %q / %q", trig, l.Failed, l.Fixed, w[0], w[1])
		}
		if l.Model != "openai/m" || l.Session != "s1" || l.ID != idOf(l.Key) || l.Created.IsZero() {
			t.Errorf("%s lesson lacks its identity: %+v", trig, l)
		}
	}
	if got := by[messages.LessonCommandFailed].Files; len(got) != 1 || got[0] != "store/store.go" {
		t.Errorf("the command lesson's files = %v", got)
	}
	if len(learnt) != len(want) {
		t.Errorf("%d lessons, want %d: %+v", len(learnt), len(want), learnt)
	}
	if len(failures) != 5 {
		t.Errorf("%d failures seen, want 5 (command, read, repair, check, loop): %+v", len(failures), failures)
	}
}

// The same command failing and then passing with no change in between is flaky, not fixed.
func TestARetryThatPassesUnchangedTeachesNothing(t *testing.T) {
	c := Capture{}
	run := func(id string, fail bool) Seen {
		c.Observe(messages.EventToolStarted, &messages.ToolCallData{CallID: id, Tool: "bash", Args: `{"command":"npm test"}`})
		return c.Observe(messages.EventToolFinished, &messages.ToolFinishedData{CallID: id, Tool: "bash", IsError: fail, Output: "Error: ECONNRESET\n[exit code 1]"})
	}
	if s := run("a", true); s.Failure == nil {
		t.Fatal("a failed command is a failure")
	}
	if s := run("b", false); len(s.Lessons) != 0 {
		t.Fatalf("learnt %+v from a flaky pass", s.Lessons)
	}
}

// A command fixed by running it differently (an environment variable) is the same command: the
// lesson says what worked.
func TestACommandRunDifferentlyFixesTheFailure(t *testing.T) {
	c := Capture{}
	c.Observe(messages.EventToolStarted, &messages.ToolCallData{CallID: "a", Tool: "bash", Args: `{"command":"sh check.sh"}`})
	f := c.Observe(messages.EventToolFinished, &messages.ToolFinishedData{CallID: "a", Tool: "bash", IsError: true, Output: "check: TROUPE_FIXTURES must be set\n[exit code 2]"})
	if f.Failure == nil || !strings.Contains(f.Failure.Key, "sh check.sh") {
		t.Fatalf("failure = %+v", f.Failure)
	}
	c.Observe(messages.EventToolStarted, &messages.ToolCallData{CallID: "b", Tool: "bash", Args: `{"command":"TROUPE_FIXTURES=1 sh check.sh"}`})
	s := c.Observe(messages.EventToolFinished, &messages.ToolFinishedData{CallID: "b", Tool: "bash", Output: "ok\n[exit code 0]"})
	if len(s.Lessons) != 1 || !strings.Contains(s.Lessons[0].Fixed, "TROUPE_FIXTURES=1 sh check.sh") || !strings.Contains(s.Lessons[0].Failed, "must be set") {
		t.Fatalf("lessons = %+v", s.Lessons)
	}
}

func TestErrorLineAndCommandHead(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{"building\nmain.go:3: undefined: Foo\n[exit code 1]", "main.go:3: undefined: Foo"},
		{"all quiet\nlast words\n[exit code 1]", "last words"},
		{"[exit code 1]", "(no output)"},
	} {
		if got := errorLine(c.out); got != c.want {
			t.Errorf("errorLine(%q) = %q, want %q", c.out, got, c.want)
		}
	}
	for cmd, want := range map[string]string{
		"go test ./...":                  "go test",
		"cd web && FOO=1 npm run build":  "npm run",
		"pytest -x tests/":               "pytest",
		"  A=1 B=2 ./scripts/check.sh x": "./scripts/check.sh x",
	} {
		if got := commandHead(cmd); got != want {
			t.Errorf("commandHead(%q) = %q, want %q", cmd, got, want)
		}
	}
}
