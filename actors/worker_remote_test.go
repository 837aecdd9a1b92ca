package actors

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/natstest"
	"github.com/troupe-dev/troupe/messages"
)

// With a shared remote (a real bare repository, the parent's origin), a writing child on a
// worker gets its base from the remote and pushes its work back there as refs/troupe/<task>;
// the parent fetches it as troupe/<name> (troupe worktree merge) and deletes the ref, so the
// remote ends as it began, and no bundle crosses the object store. A base the remote lacks (an
// unpushed commit) goes as a bundle, with one event saying so, and nothing is pushed.
func TestWorkerWithASharedRemote(t *testing.T) {
	cluster := natstest.Start(t, natstest.Options{})
	tn := &testNode{}
	root := gitRoot(t)
	remote := t.TempDir()
	gitIn(t, remote, "init", "-q", "--bare")
	gitIn(t, root, "remote", "add", "origin", remote)
	gitIn(t, root, "push", "-q", "origin", "HEAD:refs/heads/main")
	mainBefore := strings.TrimSpace(gitOut(t, remote, "rev-parse", "main"))
	spawn := func(name string) map[string]any {
		return map[string]any{"tool_calls": []any{map[string]any{"name": "spawn_agent", "args": map[string]any{
			"task_name": name, "agent_type": "worker", "message": "write c.txt", "worktree": true}}}}
	}
	script := func(v any) string { return mustJSON(t, v) }
	node, err := StartNode(dispatchNodeOptions(t, root, cluster.URL(), script(map[string]any{"turns": []any{
		spawn("w"), map[string]any{"text": "done"}}}), time.Minute, tn))
	if err != nil {
		t.Fatal(err)
	}
	tn.attach(t, node)
	startRealWorker(t, tn, cluster, "w1", script(map[string]any{"turns": []any{map[string]any{"text": "unused"}},
		"agents": map[string]any{"*": map[string]any{"turns": []any{
			map[string]any{"tool_calls": []any{map[string]any{"name": "write_file", "args": map[string]any{"path": "c.txt", "content": "made on the worker\n"}}}},
			map[string]any{"text": "wrote c.txt"}}}}}))

	// The base is on the remote: it travels from there, and the work goes back there.
	id := tn.startWith(t, messages.StartSession{ID: "p1", Task: "go", Mode: messages.ModeYolo, Placement: "workers"})
	if fin := tn.waitFinishedWithin(t, id, 2*time.Minute); fin.Status != messages.StatusDone {
		t.Fatalf("parent finished: %+v", fin)
	}
	r := tn.agentResults(id)["root/w"]
	if r == nil || r.Status != messages.AgentDone || r.Worker != "w1" || r.Branch != "troupe/w" || r.Bundle != nil || r.Error != "" {
		t.Fatalf("result: %+v", r)
	}
	if got := gitOut(t, root, "show", "troupe/w:c.txt"); got != "made on the worker\n" {
		t.Fatalf("c.txt on troupe/w = %q", got)
	}
	if refs := strings.TrimSpace(gitOut(t, remote, "for-each-ref", "--format=%(refname)")); refs != "refs/heads/main" {
		t.Errorf("the remote's refs after the parent took the work:\n%s", refs)
	}
	for _, n := range objectNames(t, cluster.URL(), tn.NS) {
		t.Errorf("%s went through the object store with a shared remote", n)
	}
	if evs := tn.eventsOfType(id, messages.EventError); len(evs) != 0 {
		t.Errorf("warnings with the base on the remote: %+v", evs[0])
	}

	// An unpushed commit: the base goes as a bundle, with one event saying so. (The first
	// child's work is dropped, as troupe worktree drop w would, so the name is free again.)
	gitIn(t, root, "worktree", "remove", "--force", ".troupe/worktrees/w")
	gitIn(t, root, "branch", "-D", "troupe/w")
	gitIn(t, root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "unpushed")
	id = tn.startWith(t, messages.StartSession{ID: "p2", Task: "go", Mode: messages.ModeYolo, Placement: "workers"})
	if fin := tn.waitFinishedWithin(t, id, 2*time.Minute); fin.Status != messages.StatusDone {
		t.Fatalf("second parent finished: %+v", fin)
	}
	if r := tn.agentResults(id)["root/w"]; r == nil || r.Status != messages.AgentDone || r.Branch != "troupe/w" || r.Bundle == nil || r.Error != "" {
		t.Fatalf("result with an unpushed base: %+v (%v)", r, tn.agentResults(id))
	}
	var warnings []string
	for _, v := range tn.eventsOfType(id, messages.EventError) {
		warnings = append(warnings, v.(*messages.ErrorData).Message)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "does not have commit") || !strings.Contains(warnings[0], remote) {
		t.Errorf("warnings = %q; want one saying the remote lacks the base", warnings)
	}
	if strings.TrimSpace(gitOut(t, remote, "rev-parse", "main")) != mainBefore ||
		strings.TrimSpace(gitOut(t, remote, "for-each-ref", "--format=%(refname)")) != "refs/heads/main" {
		t.Error("the remote changed: troupe pushed the unpushed commit")
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}
