package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/internal/natstest"
	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// The parent's troupe serve is SIGKILLed while a worker runs its child; the child finishes
// while no Node listens; serve is started again and the session resumed: the child's result,
// kept on the bus by the worker, reaches the parent exactly once, and the bus forgets it then
// (docs/WORKERS.md "Durable results").
func TestResultFinishedWhileServeWasKilledReachesTheResumedParentOnce(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	ns := actors.ProjectNamespace(repo, "")
	c := natstest.Start(t, natstest.Options{})
	gate := filepath.Join(t.TempDir(), "go")
	env := testEnv(t, "TROUPE_PLACEMENT=workers")
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "spawn_agent", "args": {"task_name": "far", "agent_type": "worker", "message": "build it"}}]},
		{"expect": "child reporting", "text": "the parent has it"}],
	"agents": {"*": {"turns": [
		{"tool_calls": [{"name": "bash", "args": {"command": "while [ ! -f `+gate+` ]; do sleep 0.1; done"}}]},
		{"text": "child reporting"}]}}}`)
	bus, err := nats.Connect(c.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer bus.Close()
	leases := make(chan *nats.Msg, 64)
	if _, err := bus.ChanSubscribe(messages.AllWorkerResultsSubject(ns), leases); err != nil {
		t.Fatal(err)
	}
	_, wout, _ := startTroupe(t, repo, env, "worker", "--nats", c.URL(), "--name", "w1", "--repo-cache", t.TempDir(), "--sandbox", "off")
	wout.waitFor(t, "troupe: worker w1 serving", 60*time.Second)
	serve, sout, serr := startTroupe(t, repo, env, "serve", "--nats", c.URL(), "--sandbox", "off")
	sout.waitFor(t, "troupe: serving", 60*time.Second)
	run, rout, _ := startTroupe(t, repo, env, "run", "--json", "--mode", "yolo", "--model", model, "go")

	// The worker took the child and runs it: kill the parent's Node.
	task := ""
	testwait.For(t, 60*time.Second, func() error {
		select {
		case m := <-leases:
			if v, err := messages.Decode(m.Data); err == nil {
				if l, ok := v.(*messages.TaskLease); ok {
					task = l.Task
					return nil
				}
			}
		default:
		}
		return fmt.Errorf("no lease yet; serve said:\n%s", serr.String())
	})
	if err := serve.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitExit(t, serve, 30*time.Second)
	if code := waitExit(t, run, 60*time.Second); code == 0 {
		t.Fatalf("the run went on without its node:\n%s", rout.text())
	}
	first := envelopes(t, rout.text())
	session := first[0].Session
	if n := len(agentResults(t, first)); n != 0 {
		t.Fatalf("the child reported before its parent's node was killed (%d)", n)
	}

	// The child finishes while no Node listens; its result waits in the bucket.
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	js, _ := jetstream.New(bus)
	kept, err := taskqueue.OpenResults(context.Background(), js, ns, 1)
	if err != nil {
		t.Fatal(err)
	}
	testwait.For(t, 60*time.Second, func() error {
		v, err := kept.Get(context.Background(), task)
		if r, ok := v.(*messages.AgentResult); ok && r.Summary == "child reporting" {
			return nil
		}
		return fmt.Errorf("no kept result for %s yet (%v, %v)", task, v, err)
	})

	_, sout2, _ := startTroupe(t, repo, env, "serve", "--nats", c.URL(), "--sandbox", "off")
	sout2.waitFor(t, "troupe: serving", 60*time.Second)
	r := troupe(t, repo, env, "resume", "--json", "--yes", "--mode", "yolo", "--model", model, session)
	if r.code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", r.code, r.stderr, r.stdout)
	}
	envs := envelopes(t, r.stdout)
	if fin := finished(t, envs); fin.Final != "the parent has it" {
		t.Fatalf("final = %q", fin.Final)
	}
	results := agentResults(t, envs)
	if rs := results[task]; len(rs) != 1 || rs[0].Status != messages.AgentDone || rs[0].Summary != "child reporting" || rs[0].Worker != "w1" {
		t.Fatalf("the child's results on resume: %+v", results)
	}
	testwait.For(t, 30*time.Second, func() error {
		if v, err := kept.Get(context.Background(), task); v != nil || err != nil {
			return fmt.Errorf("the bus still keeps %v (%v)", v, err)
		}
		return nil
	})
}

// A second client holding the project's client credential cannot steer a session it neither
// started nor attached to: the Node refuses it in one line; the watcher credential may not even
// ask to attach; troupe mode, which attaches, may; the starting client still cancels its own.
func TestOnlyTheStartingOrAttachedClientSteers(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	env := testEnv(t)
	model := writeScript(t, repo, `{"turns": [{"delay_ms": 600000, "text": "never"}]}`)
	_, sout, _ := startTroupe(t, repo, env, "serve", "--sandbox", "off")
	sout.waitFor(t, "troupe: serving", 60*time.Second)
	run, rout, _ := startTroupe(t, repo, env, "run", "--json", "--model", model, "wait")
	rout.waitFor(t, `"session.started"`, 60*time.Second)
	session := envelopes(t, rout.text())[0].Session

	data, err := os.ReadFile(filepath.Join(repo, ".troupe", "node.json"))
	if err != nil {
		t.Fatal(err)
	}
	var info actors.NodeInfo
	if err := json.Unmarshal(data, &info); err != nil {
		t.Fatal(err)
	}
	other, err := actors.Dial(&info, actors.KindClient, actors.BusCredentials{}, "second client")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	cancel, _ := messages.Encode(&messages.Cancel{Reason: "not yours"})
	reply, err := other.Request(messages.ControlSubject(info.NS, session), cancel, testwait.Scale(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := messages.Decode(reply.Data)
	if e, ok := v.(*messages.ErrorReply); !ok || !strings.Contains(e.Error, "neither started nor attached") || strings.Contains(e.Error, "\n") {
		t.Fatalf("the second client's cancel got %#v", v)
	}

	violations := make(chan error, 4)
	watcher, err := nats.Connect(info.URL, watcherAuth(t, info.Creds), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		violations <- err
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	attach, _ := messages.Encode(&messages.AttachSession{Session: session})
	if _, err := watcher.Request(messages.NodeSubject(info.NS, info.Node), attach, testwait.Scale(2*time.Second)); err == nil {
		t.Fatal("the watcher credential was given a steer token")
	}
	select {
	case err := <-violations:
		if !strings.Contains(err.Error(), "Permissions Violation") {
			t.Fatalf("watcher's attach: %v", err)
		}
	case <-time.After(testwait.Scale(10 * time.Second)):
		t.Fatal("the server did not refuse the watcher's attach")
	}

	if m := troupe(t, repo, env, "mode", session, "plan"); m.code != 0 || !strings.Contains(m.stdout, "mode plan") {
		t.Fatalf("troupe mode (attaching): exit %d\n%s%s", m.code, m.stdout, m.stderr)
	}
	if err := run.Process.Signal(os.Interrupt); err != nil { // its own client cancels the turn
		t.Fatal(err)
	}
	if code := waitExit(t, run, 60*time.Second); code != 130 {
		t.Fatalf("the starting client's Ctrl-C: exit %d", code)
	}
	// The session stopped because its own client cancelled it, not the second one.
	if !strings.Contains(rout.text(), "interrupted") || strings.Contains(rout.text(), "not yours") {
		t.Fatalf("run output:\n%s", rout.text())
	}
}

// watcherAuth is the watcher credential of an embedded bus.
func watcherAuth(t *testing.T, creds string) nats.Option {
	t.Helper()
	o, err := nats.NkeyOptionFromSeed(actors.BusKeyFile(creds, actors.KindWatcher))
	if err != nil {
		t.Fatal(err)
	}
	return o
}
