package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// Issue 25's scenario: a parent spawning many scripted subagents, each of whose results must
// reach it exactly once, seen whole by `troupe watch --json` from another process.

const scenarioAgents = 50

// spawnManyScript is a parent that spawns n subagents in one turn, reads their results, and
// answers; each child answers at once with its own name.
func spawnManyScript(n int) string {
	calls := make([]string, n)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"name": "spawn_agent", "args": {"task_name": "t%02d", "agent_type": "explorer", "message": "report %02d"}}`, i, i)
	}
	return `{"turns": [
		{"tool_calls": [` + strings.Join(calls, ",") + `]},
		{"expect": "Subagent results", "text": "all agents reported"}],
	"agents": {"*": {"turns": [{"text": "child reporting"}]}}}`
}

// agentResults are the agent.finished results in envelopes, by child session.
func agentResults(t *testing.T, envs []messages.Envelope) map[string][]*messages.AgentResult {
	t.Helper()
	out := map[string][]*messages.AgentResult{}
	for _, e := range envs {
		if e.Type != messages.EventAgentFinished {
			continue
		}
		v, err := e.DecodeData()
		if err != nil {
			t.Fatal(err)
		}
		r := v.(*messages.AgentResult)
		out[r.Session] = append(out[r.Session], r)
	}
	return out
}

// checkOncePerAgent asserts n children, each with exactly one done result.
func checkOncePerAgent(t *testing.T, results map[string][]*messages.AgentResult, n int) {
	t.Helper()
	if len(results) != n {
		t.Fatalf("%d children reported, want %d", len(results), n)
	}
	for s, rs := range results {
		if len(rs) != 1 {
			t.Errorf("child %s reported %d times", s, len(rs))
			continue
		}
		if rs[0].Status != messages.AgentDone || rs[0].Summary != "child reporting" {
			t.Errorf("child %s: %+v", s, rs[0])
		}
	}
}

// treeIn counts the distinct sessions among envelope lines that are root or its children.
func treeIn(lines []string, root string) map[string]bool {
	seen := map[string]bool{}
	for _, l := range lines {
		var e messages.Envelope
		if json.Unmarshal([]byte(l), &e) == nil && (e.Session == root || e.Parent == root) {
			seen[e.Session] = true
		}
	}
	return seen
}

// The scenario on the embedded server with local placement: every child is a protoactor child
// of the parent; all results reach it once, and a watcher in a third process sees every session.
func TestScenarioLocalPlacementOnEmbeddedServer(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	env := testEnv(t)
	model := writeScript(t, repo, spawnManyScript(scenarioAgents))
	_, sout, _ := startTroupe(t, repo, env, "serve", "--sandbox", "off")
	sout.waitFor(t, "troupe: serving", 60*time.Second)
	_, wout, _ := startTroupe(t, repo, env, "watch", "--json")
	// The watcher subscribes some time after it starts: short runs go until it shows one, so it
	// misses nothing of the scenario's run.
	warmModel := writeScript(t, repo, `{"turns": [{"text": "warm"}]}`)
	testwait.For(t, 60*time.Second, func() error {
		warm := troupe(t, repo, env, "run", "--json", "--model", warmModel, "warm up")
		if warm.code != 0 {
			t.Fatalf("warm-up run: exit %d\n%s", warm.code, warm.stderr)
		}
		id := envelopes(t, warm.stdout)[0].Session
		return waitLine(wout, id, time.Second)
	})
	r := troupe(t, repo, env, "run", "--json", "--mode", "yolo", "--sandbox", "off", "--placement", "local", "--model", model, "spawn the agents")
	if r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	envs := envelopes(t, r.stdout)
	if fin := finished(t, envs); fin.Final != "all agents reported" {
		t.Fatalf("final = %q", fin.Final)
	}
	checkOncePerAgent(t, agentResults(t, envs), scenarioAgents)
	waitSessions(t, wout, envs[0].Session, scenarioAgents+1)
}

// waitSessions waits until a watch --json has printed events of n distinct sessions of root's
// tree (and no more).
func waitSessions(t *testing.T, w *lineWatcher, root string, n int) {
	t.Helper()
	waitSessionsOr(t, w, root, n, nil)
}

// waitSessionsOr is waitSessions; explain, when given, says what else saw the sessions the
// watcher has not shown (in the failure).
func waitSessionsOr(t *testing.T, w *lineWatcher, root string, n int, explain func(seen map[string]bool) string) {
	t.Helper()
	testwait.For(t, 60*time.Second, func() error {
		w.mu.Lock()
		seen := treeIn(w.lines, root)
		w.mu.Unlock()
		if len(seen) > n {
			t.Fatalf("watch saw %d sessions, want %d", len(seen), n)
		}
		if len(seen) < n {
			if explain != nil {
				return fmt.Errorf("watch saw %d sessions, want %d; %s", len(seen), n, explain(seen))
			}
			return fmt.Errorf("watch saw %d sessions, want %d", len(seen), n)
		}
		return nil
	})
}

// waitLine reports whether w shows a line containing s within d (no test failure: a poll).
func waitLine(w *lineWatcher, s string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		w.mu.Lock()
		for _, l := range w.lines {
			if strings.Contains(l, s) {
				w.mu.Unlock()
				return nil
			}
		}
		w.mu.Unlock()
		if time.Now().After(deadline) {
			return fmt.Errorf("the watcher has not shown %s", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
