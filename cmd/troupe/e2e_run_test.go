package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/messages"
)

// The offline demo, end to end: the scripted model reads the test, fixes the code with
// edit_file, runs go test with bash, and finishes; the test then passes on disk.
func TestOfflineDemoFixesTheTest(t *testing.T) {
	src, _ := filepath.Abs("../../examples/demo/project")
	files := map[string]string{}
	for _, name := range []string{"go.mod", "calc.go", "calc_test.go"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(data)
	}
	repo := newRepo(t, files)
	script, _ := filepath.Abs("../../examples/demo/script.json")
	r := troupe(t, repo, testEnv(t), "run", "--json", "--mode", "yolo", "--sandbox", "off", "--model", "scripted:"+script, "Make the failing test pass.")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	envs := envelopes(t, r.stdout)
	checkEnvelopes(t, envs)
	fin := finished(t, envs)
	if fin.Status != messages.StatusDone || !strings.Contains(fin.Final, "passes") {
		t.Errorf("finished = %+v", fin)
	}
	var tools []string
	for _, res := range toolResults(t, envs) {
		tools = append(tools, res.Tool)
		if res.IsError {
			t.Errorf("%s failed: %s", res.Tool, res.Output)
		}
	}
	if want := []string{"read_file", "read_file", "edit_file", "bash"}; !slices.Equal(tools, want) {
		t.Errorf("tools = %v, want %v", tools, want)
	}
	test := exec.Command("go", "test", "./...")
	test.Dir = repo
	test.Env = testEnv(t)
	if out, err := test.CombinedOutput(); err != nil {
		t.Errorf("go test still fails after the demo: %v\n%s", err, out)
	}
}

func TestRunHumanOutputShowsAnswerAndToolLines(t *testing.T) {
	repo := newRepo(t, map[string]string{"README.md": "# hello\nMARKER-42\n"})
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "README.md"}}]},
		{"expect": "MARKER-42", "text": "The marker is MARKER-42."}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--model", model, "What is the marker?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "→ read_file README.md") || !strings.Contains(r.stdout, "✓") {
		t.Errorf("no tool line in:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "The marker is MARKER-42.") {
		t.Errorf("no answer in:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, `"seq"`) {
		t.Errorf("envelopes printed without --json:\n%s", r.stdout)
	}
}

// A malformed call and a call with a wrong argument type get error results that name the
// problem; the session goes on to finish.
func TestBadToolCallsAreResultsNotCrashes(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "read_file", "raw_args": "{\"path\": \"a.txt\", \"offset\": \"first\"}"}]},
		{"expect": "offset", "tool_calls": [{"name": "read_file", "raw_args": "{path: a.txt"}]},
		{"tool_calls": [{"name": "no_such_tool", "args": {}}]},
		{"expect": "read_file", "text": "done"}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--json", "--model", model, "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	envs := envelopes(t, r.stdout)
	checkEnvelopes(t, envs)
	res := toolResults(t, envs)
	if len(res) != 3 {
		t.Fatalf("want 3 tool results, got %d", len(res))
	}
	if !res[0].IsError || !strings.Contains(res[0].Output, "offset") {
		t.Errorf("wrong type: %+v", res[0])
	}
	if !res[2].IsError || !strings.Contains(res[2].Output, "no_such_tool") || !strings.Contains(res[2].Output, "read_file") {
		t.Errorf("unknown tool: %+v", res[2])
	}
}

// Setup mistakes are one clear line and exit 2, with no stack trace.
func TestSetupErrorsExit2WithOneLine(t *testing.T) {
	repo := newRepo(t, nil)
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"turns": [{"text": "ok"}, {"tool_calls": [{"args": {}}]}]}`), 0o644)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown provider", []string{"run", "--model", "nope/x", "hi"}, "nope"},
		{"missing key", []string{"run", "--model", "openai/gpt-4o-mini", "hi"}, "OPENAI_API_KEY"},
		{"missing anthropic key", []string{"run", "--model", "anthropic/claude-x", "hi"}, "ANTHROPIC_API_KEY"},
		{"malformed script", []string{"run", "--model", "scripted:" + bad, "hi"}, "turns[1].tool_calls[0]"},
		{"unknown flag", []string{"run", "--frobnicate", "hi"}, "frobnicate"},
		{"bad mode", []string{"run", "--mode", "reckless", "--model", "scripted:" + bad, "hi"}, "reckless"},
		{"no model", []string{"run", "hi"}, "--model"},
		{"unreachable base url", []string{"run", "--model", "openai/m", "--base-url", "http://127.0.0.1:1/v1", "hi"}, "127.0.0.1:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := troupe(t, repo, testEnv(t), c.args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2\nstderr: %s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, c.want) {
				t.Errorf("stderr does not name %q:\n%s", c.want, r.stderr)
			}
			if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
				t.Errorf("stack trace:\n%s", r.stderr)
			}
			if lines := strings.Count(strings.TrimSpace(lastTroupeLines(r.stderr)), "\n") + 1; lines > 1 {
				t.Errorf("want one error line, got %d:\n%s", lines, r.stderr)
			}
		})
	}
}

// lastTroupeLines keeps the "troupe: …" error lines (the session id line is informational).
func lastTroupeLines(stderr string) string {
	var keep []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "troupe: ") && !strings.HasPrefix(l, "troupe: session ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func TestSessionsAndLogShowTheStoredRun(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "echo from-bash"}}]},
		{"text": "all done"}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--json", "--model", model, "--mode", "yolo", "--sandbox", "off", "say hi")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	id := envelopes(t, r.stdout)[0].Session
	ls := troupe(t, repo, testEnv(t), "sessions")
	if ls.code != 0 || !strings.Contains(ls.stdout, id) || !strings.Contains(ls.stdout, "done") {
		t.Errorf("sessions: exit %d\n%s\n%s", ls.code, ls.stdout, ls.stderr)
	}
	lg := troupe(t, repo, testEnv(t), "log", id)
	if lg.code != 0 {
		t.Fatalf("log: exit %d: %s", lg.code, lg.stderr)
	}
	for _, want := range []string{"say hi", "[scripted]", "from-bash", "all done"} {
		if !strings.Contains(lg.stdout, want) {
			t.Errorf("log lacks %q:\n%s", want, lg.stdout)
		}
	}
	if r := troupe(t, repo, testEnv(t), "log", "no-such-session"); r.code != 2 {
		t.Errorf("log of unknown session: exit %d", r.code)
	}
}

func TestVersionAndDoctor(t *testing.T) {
	repo := newRepo(t, nil)
	v := troupe(t, repo, testEnv(t), "version")
	if v.code != 0 || !strings.HasPrefix(v.stdout, "troupe ") {
		t.Errorf("version: %d %q", v.code, v.stdout)
	}
	d := troupe(t, repo, testEnv(t, "OPENAI_API_KEY=sk-x"), "doctor")
	if d.code != 0 {
		t.Errorf("doctor: exit %d\n%s\n%s", d.code, d.stdout, d.stderr)
	}
	for _, want := range []string{"bus", "store", "OPENAI_API_KEY is set", "ANTHROPIC_API_KEY is not set", "sandbox"} {
		if !strings.Contains(d.stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, d.stdout)
		}
	}
	// Who may do what: the project id (from git, not the path), the embedded bus refusing a
	// watcher's forged publish, and one line per credential kind.
	ns := actors.ProjectNamespace(repo, "")
	for _, want := range []string{"project    id " + ns + " (from git root commit", "a watcher's forged publish is refused",
		"bus watcher publish: troupe." + ns + ".node.*.q · subscribe: troupe." + ns + ".evt.> _INBOX_watch.>", "bus node   publish: everything"} {
		if !strings.Contains(d.stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, d.stdout)
		}
	}
	if d := troupe(t, repo, testEnv(t, "TROUPE_NATS=nats://127.0.0.1:1"), "doctor"); d.code != 1 || !strings.Contains(d.stdout, "join the NATS server") {
		t.Errorf("doctor with an unreachable TROUPE_NATS: exit %d\n%s", d.code, d.stdout)
	}
}
