package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// End-to-end tests of the long horizon with the real binary: goals, the definition of done
// (goal evidence, the check command, refusals), /goal and /status in the chat, the context
// window check, [done]/[context] configuration, and troupe loop.

// ofType returns the decoded payloads of the envelopes of type typ, in order.
func ofType[T any](t *testing.T, envs []messages.Envelope, typ messages.EventType) []T {
	t.Helper()
	var out []T
	for _, e := range envs {
		if e.Type != typ {
			continue
		}
		v, err := e.DecodeData()
		if err != nil {
			t.Fatalf("decode %s: %v", typ, err)
		}
		out = append(out, *v.(*T))
	}
	return out
}

// A final answer while the goal is open is refused and the model is told why; it then
// completes the goal with evidence and the run is done.
func TestGoalRefusesAFinalAnswerUntilCompleted(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [
		{"text": "All done, I think."},
		{"expect": "You may not stop yet", "tool_calls": [{"name": "get_goal", "args": {}}]},
		{"expect": "make the greeting", "tool_calls": [{"name": "update_goal", "args": {"status": "complete", "evidence": "wrote nothing; ran echo hello and saw hello"}}]},
		{"text": "The goal is complete."}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--json", "--sandbox", "off", "--model", model, "--goal", "make the greeting", "greet")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	envs := envelopes(t, r.stdout)
	checkEnvelopes(t, envs)
	fin := finished(t, envs)
	if fin.Status != messages.StatusDone || fin.Goal != messages.GoalComplete || fin.Final != "The goal is complete." {
		t.Errorf("finished = %+v", fin)
	}
	checks := ofType[messages.DoneCheckData](t, envs, messages.EventDoneCheck)
	if len(checks) != 1 || checks[0].Kind != "goal" || checks[0].Passed || checks[0].Refusals != 1 || checks[0].Max != 3 {
		t.Errorf("done.check = %+v, want one refused goal check of 3", checks)
	}
	goals := ofType[messages.GoalUpdatedData](t, envs, messages.EventGoalUpdated)
	if len(goals) != 2 || goals[0].Status != messages.GoalActive || goals[0].By != "user" ||
		goals[1].Status != messages.GoalComplete || goals[1].By != "model" || !strings.Contains(goals[1].Evidence, "echo hello") {
		t.Errorf("goal.updated = %+v, want set by the user, then completed by the model with evidence", goals)
	}
}

// update_goal without real evidence is refused, and the tool result says evidence is required.
func TestGoalCompletionNeedsEvidence(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "update_goal", "args": {"status": "complete", "evidence": ""}}]},
		{"expect": "evidence is required", "tool_calls": [{"name": "update_goal", "args": {"status": "complete", "evidence": "done"}}]},
		{"expect": "evidence is required", "tool_calls": [{"name": "update_goal", "args": {"status": "paused", "evidence": "I would like a break now"}}]},
		{"expect": "must be 'complete'", "tool_calls": [{"name": "update_goal", "args": {"status": "complete", "evidence": "ran true: exit 0; nothing else to change"}}]},
		{"text": "complete"}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--json", "--sandbox", "off", "--model", model, "--goal", "say hello", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	envs := envelopes(t, r.stdout)
	res := toolResults(t, envs)
	if len(res) != 4 {
		t.Fatalf("want 4 tool results, got %d", len(res))
	}
	for i, want := range []string{"evidence is required", "evidence is required", "must be 'complete'"} {
		if !res[i].IsError || !strings.Contains(res[i].Output, want) {
			t.Errorf("update_goal %d: %+v, want an error saying %q", i+1, res[i], want)
		}
	}
	if res[3].IsError {
		t.Errorf("update_goal with evidence: %+v", res[3])
	}
	if fin := finished(t, envs); fin.Status != messages.StatusDone || fin.Goal != messages.GoalComplete {
		t.Errorf("finished = %+v", fin)
	}
}

// --check: the first final answer is refused because the check fails; the model writes the
// file the check wants, and the second final answer is accepted.
func TestCheckRefusesUntilItPasses(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [
		{"text": "Finished."},
		{"expect": "test -f done.txt", "tool_calls": [{"name": "write_file", "args": {"path": "done.txt", "content": "yes\n"}}]},
		{"text": "Finished, and the check passes."}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--json", "--mode", "auto-edit", "--sandbox", "off", "--model", model, "--check", "test -f done.txt", "finish")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	envs := envelopes(t, r.stdout)
	checks := ofType[messages.DoneCheckData](t, envs, messages.EventDoneCheck)
	if len(checks) != 2 || checks[0].Passed || checks[0].Kind != "command" || checks[0].Command != "test -f done.txt" || !checks[1].Passed {
		t.Errorf("done.check = %+v, want a failed then a passed check", checks)
	}
	if fin := finished(t, envs); fin.Status != messages.StatusDone || fin.Final != "Finished, and the check passes." {
		t.Errorf("finished = %+v", fin)
	}
}

// A check that never passes: after max_refusals refused answers ([done] in troupe.toml) the
// run fails with exit 1 and says why on stderr.
func TestCheckThatNeverPassesFailsTheRun(t *testing.T) {
	repo := newRepo(t, map[string]string{"troupe.toml": "[done]\ncheck = \"echo NOT-THERE-YET >&2; test -f never.txt\"\nmax_refusals = 2\n"})
	model := writeScript(t, repo, `{"turns": [
		{"text": "Finished."},
		{"expect": "NOT-THERE-YET", "text": "Finished, really."},
		{"expect": "NOT-THERE-YET", "text": "Finished, I insist."}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--sandbox", "off", "--model", model, "finish")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	for _, want := range []string{"not done after 2 refused final answers", "test -f never.txt", "NOT-THERE-YET"} {
		if !strings.Contains(lastTroupeLines(r.stderr), want) {
			t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(r.stdout, "not done yet (command check, refusal 2 of 2)") {
		t.Errorf("stdout shows no refusals:\n%s", r.stdout)
	}
}

// /goal and /status in the chat are answered by the session without a model call (the script's
// only turn would fail the session if it were asked for).
func TestGoalAndStatusInTheChat(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"expect": "NEVER-SENT", "text": "a model call"}]}`)
	cmd, stdin, out, stderr := startChat(t, repo, "--sandbox", "off", "--model", model, "--context-window", "64000")
	say := func(line, want string) string {
		t.Helper()
		io.WriteString(stdin, line+"\n")
		return out.waitFor(t, want, 30*time.Second)
	}
	say("/status", "agents      0 running")
	status := out.text()
	for _, want := range []string{"model       scripted", "mode        ask", "of 64000 tokens", "compactions 0", "goal        none"} {
		if !strings.Contains(status, want) {
			t.Errorf("/status lacks %q:\n%s", want, status)
		}
	}
	if !regexp.MustCompile(`context     \d+% \(\d+ of 64000 tokens\)`).MatchString(status) {
		t.Errorf("/status shows no context percentage:\n%s", status)
	}
	say("/goal make the build green", "goal active: make the build green")
	say("/goal pause", "goal paused: make the build green")
	say("/goal", "status: paused")
	say("/goal resume", "goal active: make the build green")
	say("/status", "goal        make the build green (active)")
	say("/goal clear", "goal cleared: make the build green")
	say("/goal pause", "no goal is set")
	io.WriteString(stdin, "/exit\n")
	if code := waitExit(t, cmd, 30*time.Second); code != 0 {
		t.Fatalf("chat exit %d\nstdout:\n%s\nstderr:\n%s", code, out.text(), stderr.String())
	}
	id := regexp.MustCompile(`session (\S+)`).FindStringSubmatch(stderr.String())
	if id == nil {
		t.Fatalf("no session id in %q", stderr.String())
	}
	lg := troupe(t, repo, testEnv(t), "log", id[1])
	if strings.Contains(lg.stdout, "[scripted]") {
		t.Errorf("the model was called:\n%s", lg.stdout)
	}
}

// A window the stable prefix alone fills is a setup error (exit 2) that says so, in run and chat.
func TestWindowTooSmallForThePrefix(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"text": "never"}]}`)
	const want = "too small for the stable prefix"
	r := troupe(t, repo, testEnv(t), "run", "--sandbox", "off", "--model", model, "--context-window", "2000", "hi")
	if r.code != 2 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "--context-window") {
		t.Errorf("run: exit %d, want 2 saying %q\n%s", r.code, want, r.stderr)
	}
	if lines := strings.Count(strings.TrimSpace(lastTroupeLines(r.stderr)), "\n") + 1; lines != 1 {
		t.Errorf("want one error line, got %d:\n%s", lines, r.stderr)
	}
	cmd, _, _, stderr := startChat(t, repo, "--sandbox", "off", "--model", model, "--context-window", "2000")
	if code := waitExit(t, cmd, 30*time.Second); code != 2 || !strings.Contains(stderr.String(), want) {
		t.Errorf("chat: exit %d, want 2 saying %q\n%s", code, want, stderr.String())
	}
}

// Bad [done]/[context] values and flags are setup errors naming the file and key, or the flag.
func TestLongHorizonConfigErrors(t *testing.T) {
	model := "scripted:" + filepath.Join(t.TempDir(), "unused.json") // never opened: config fails first
	cases := []struct {
		name, toml string
		args       []string
		want       []string
	}{
		{"idle gap", "[context]\nidle_gap = \"soon\"\n", nil, []string{"troupe.toml", "context.idle_gap", `"soon" is not a duration`}},
		{"old key", "context_window = 8000\n", nil, []string{"troupe.toml:1:", `did you mean "context.window"?`}},
		{"refusals", "[done]\nmax_refusals = 0\n", nil, []string{"troupe.toml", "done.max_refusals", "at least 1"}},
		{"flag", "", []string{"--context-window", "-5"}, []string{"context.window (from flag --context-window): -5 is negative"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			repo := newRepo(t, map[string]string{"troupe.toml": c.toml})
			args := append([]string{"run", "--model", model}, c.args...)
			r := troupe(t, repo, testEnv(t), append(args, "hi")...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2\n%s", r.code, r.stderr)
			}
			for _, want := range c.want {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
		})
	}
}

// troupe loop: iteration 1 writes the plan and does a step, iteration 2 finishes it and
// completes the goal; the configured check passes, and the loop exits 0 after two iterations.
// With --json every iteration's envelopes are printed, each iteration a session under the loop.
func TestLoopCompletesInTheSecondIteration(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"text": "the root script is not used"}], "agents": {
		"iter_1": {"turns": [
			{"expect": "Loop iteration 1 of at most 10", "tool_calls": [{"name": "read_file", "args": {"path": "PLAN.md"}}]},
			{"tool_calls": [{"name": "write_file", "args": {"path": "PLAN.md", "content": "- [x] write a.txt\n- [ ] write b.txt\n\n## Notes\nwrote a.txt; next: b.txt\n"}},
			                {"name": "write_file", "args": {"path": "a.txt", "content": "a\n"}}]},
			{"text": "Wrote a.txt. Next: b.txt."}]},
		"iter_2": {"turns": [
			{"expect": "Loop iteration 2 of at most 10", "tool_calls": [{"name": "read_file", "args": {"path": "PLAN.md"}}]},
			{"expect": "next: b.txt", "tool_calls": [{"name": "write_file", "args": {"path": "b.txt", "content": "b\n"}}]},
			{"tool_calls": [{"name": "update_goal", "args": {"status": "complete", "evidence": "a.txt and b.txt written; test -f a.txt -a -f b.txt passes"}}]},
			{"text": "Wrote b.txt: the plan is done."}]}}}`)
	r := troupe(t, repo, testEnv(t), "loop", "--json", "--mode", "auto-edit", "--sandbox", "off", "--model", model,
		"--check", "test -f a.txt -a -f b.txt", "--goal", "write a.txt and b.txt")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	for _, want := range []string{"iteration 1/10: done — Wrote a.txt. Next: b.txt.", "iteration 2/10: goal complete — Wrote b.txt: the plan is done.",
		"objective complete after 2 iteration(s); evidence: a.txt and b.txt written"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	envs := envelopes(t, r.stdout)
	checkEnvelopes(t, envs)
	var loopID string
	iterations := map[string]*messages.SessionFinishedData{}
	for _, e := range envs {
		switch {
		case e.Agent == "loop":
			loopID = e.Session
		case e.Type == messages.EventSessionFinished:
			v, _ := e.DecodeData()
			iterations[e.Agent] = v.(*messages.SessionFinishedData)
			if e.Parent == "" || !strings.HasSuffix(e.Session, "-"+strings.TrimPrefix(e.Agent, "loop/")) {
				t.Errorf("iteration envelope %s/%s has parent %q", e.Session, e.Agent, e.Parent)
			}
		}
	}
	if loopID == "" {
		t.Fatalf("no envelopes of the loop itself in %v", types(envs))
	}
	for _, e := range envs {
		if e.Agent != "loop" && e.Parent != loopID {
			t.Errorf("%s of %s: parent %q, want the loop %s", e.Type, e.Agent, e.Parent, loopID)
		}
	}
	if len(iterations) != 2 || iterations["loop/iter_1"].Goal != messages.GoalActive || iterations["loop/iter_2"].Goal != messages.GoalComplete {
		t.Errorf("iterations = %+v", iterations)
	}
	checks := ofType[messages.DoneCheckData](t, envs, messages.EventDoneCheck)
	if len(checks) != 1 || !checks[0].Passed {
		t.Errorf("done.check = %+v, want the check run once, at the completion, and passed", checks)
	}
	if data, err := os.ReadFile(filepath.Join(repo, "PLAN.md")); err != nil || !strings.Contains(string(data), "- [x] write a.txt") {
		t.Errorf("PLAN.md = %q, %v", data, err)
	}
}

// A loop whose check never passes stops at --max-iterations with exit 1 and says why.
func TestLoopStopsAtMaxIterations(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"text": "unused"}], "agents": {"*": {"turns": [
		{"tool_calls": [{"name": "update_goal", "args": {"status": "complete", "evidence": "I believe it is all done now"}}]},
		{"text": "Done."},
		{"expect": "STILL-FAILING", "text": "Done, really."}]}}}`)
	r := troupe(t, repo, testEnv(t), "loop", "--sandbox", "off", "--model", model, "--max-iterations", "2", "--max-refusals", "1",
		"--check", "echo STILL-FAILING; exit 3", "--goal", "make it pass")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	for _, want := range []string{"iteration 1/2: failed (done) — not done after 1 refused final answers", "iteration 2/2: failed (done)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, want := range []string{"stopped after 2 iteration(s) without completing the objective", "echo STILL-FAILING; exit 3", "the last check output", "STILL-FAILING"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stdout, "iteration 3/") {
		t.Errorf("ran past --max-iterations:\n%s", r.stdout)
	}
}

// Ctrl-C during an iteration cancels it and the loop exits 130.
func TestLoopInterruptExits130(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"text": "unused"}], "agents": {"*": {"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "sleep 60"}}]},
		{"text": "never"}]}}}`)
	cmd, out, stderr := startTroupe(t, repo, testEnv(t), "loop", "--mode", "yolo", "--sandbox", "off", "--model", model, "--goal", "wait")
	out.waitFor(t, "→ bash", 30*time.Second)
	cmd.Process.Signal(os.Interrupt)
	if code := waitExit(t, cmd, 30*time.Second); code != 130 {
		t.Errorf("exit %d, want 130\n%s", code, stderr.String())
	}
	if strings.Contains(out.text(), "iteration 2/") {
		t.Errorf("the loop went on after Ctrl-C:\n%s", out.text())
	}
}

// The loop's own usage errors: no objective, a plan outside the project.
func TestLoopUsageErrors(t *testing.T) {
	repo := newRepo(t, nil)
	model := writeScript(t, repo, `{"turns": [{"text": "unused"}]}`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"loop", "--model", model}, "--goal"},
		{[]string{"loop", "--model", model, "--goal", "x", "--plan", "../PLAN.md"}, "outside the project"},
		{[]string{"loop", "--model", model, "--goal", "x", "--max-iterations", "0"}, "--max-iterations"},
	} {
		if r := troupe(t, repo, testEnv(t), c.args...); r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, want 2 naming %q\n%s", c.args, r.code, c.want, r.stderr)
		}
	}
}
