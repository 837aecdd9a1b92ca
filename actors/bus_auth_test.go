package actors

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/internal/taskstate"
	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// The embedded bus gives each kind of client only its subjects: the server itself refuses the
// rest (a watcher's forged AgentResult, a client's publish to an inbox, a worker's to the task
// queue), a connection without credentials is refused, and what a kind may do gets through.
func TestEmbeddedBusEnforcesEachKind(t *testing.T) {
	const ns = "p1"
	dir := t.TempDir()
	bus, err := StartBus(slog.New(slog.DiscardHandler), ns, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer bus.Shutdown()
	info := &NodeInfo{URL: bus.URL(), Creds: dir, NS: ns}
	if nc, err := nats.Connect(bus.URL(), nats.NoReconnect()); err == nil {
		nc.Close()
		t.Fatal("a connection without credentials was accepted")
	} else if !strings.Contains(strings.ToLower(err.Error()), "authorization") {
		t.Fatalf("no credentials: %v, want an authorization violation", err)
	}
	if nc, err := nats.Connect(bus.URL(), nats.Token("guess"), nats.NoReconnect()); err == nil {
		nc.Close()
		t.Fatal("a guessed token was accepted")
	}
	if err := bus.CheckGrants(ns); err != nil {
		t.Fatalf("CheckGrants: %v", err)
	}
	forged, _ := messages.Encode(&messages.AgentResult{Handle: "h", Session: "s1", Status: messages.AgentDone, Summary: "forged"})
	for _, c := range []struct {
		kind    CredKind
		subject string
	}{
		{KindWatcher, messages.InboxSubject(ns, "s1")},
		{KindWatcher, messages.ControlSubject(ns, "s1")},
		{KindWatcher, messages.NodeSubject(ns, "n1")},
		{KindWatcher, messages.EventSubject(ns, "s1", messages.EventSessionFinished)},
		{KindClient, messages.InboxSubject(ns, "s1")},
		{KindClient, messages.WorkerResultsSubject(ns, "w1")},
		{KindClient, messages.TasksSubject(ns)},
		{KindClient, messages.EventSubject(ns, "s1", messages.EventSessionFinished)},
		{KindWorker, messages.InboxSubject(ns, "s1")},
		{KindWorker, messages.TasksSubject(ns)},
		{KindWorker, messages.NodeSubject(ns, "n1")},
		{KindWorker, messages.ControlSubject(ns, "s1")},
		{KindWorker, "$JS.API.STREAM.DELETE.troupe_p1_tasks"},
		{KindClient, "troupe.other.ctl.s1"},
	} {
		if err := PublishRefused(info, c.kind, c.subject, forged); err != nil {
			t.Errorf("%s → %s: %v", c.kind, c.subject, err)
		}
	}
	node, err := bus.Connect("node")
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	for _, c := range []struct {
		kind    CredKind
		subject string
	}{
		{KindClient, messages.ControlSubject(ns, "s1")},
		{KindClient, messages.NodeSubject(ns, "n1")},
		{KindWatcher, messages.NodeQuerySubject(ns, "n1")},
		{KindWorker, messages.WorkerResultsSubject(ns, "w1")},
		{KindWorker, messages.EventSubject(ns, "c1", messages.EventSessionStarted)},
	} {
		sub, err := node.SubscribeSync(c.subject)
		if err != nil {
			t.Fatal(err)
		}
		node.Flush()
		nc, err := Dial(info, c.kind, BusCredentials{}, "test")
		if err != nil {
			t.Fatal(err)
		}
		nc.Publish(c.subject, []byte("ok"))
		if _, err := sub.NextMsg(testwait.Scale(10 * time.Second)); err != nil {
			t.Errorf("%s → %s did not arrive: %v", c.kind, c.subject, err)
		}
		nc.Close()
		sub.Unsubscribe()
	}
	// A watcher cannot listen in on inboxes or control either.
	errs := make(chan error, 1)
	auth, _ := nats.NkeyOptionFromSeed(BusKeyFile(dir, KindWatcher))
	w, err := nats.Connect(bus.URL(), auth, nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// Nor in on the replies to clients, which carry steer tokens (its own come on WatcherInbox).
	for _, subject := range []string{messages.InboxSubject(ns, ">"), "_INBOX.>"} {
		w.SubscribeSync(subject)
		w.Flush()
		select {
		case err := <-errs:
			if !errors.Is(err, nats.ErrPermissionViolation) && !strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
				t.Fatalf("watcher subscribing to %s: %v", subject, err)
			}
		case <-time.After(testwait.Scale(10 * time.Second)):
			t.Fatalf("the watcher's subscription to %s was not refused", subject)
		}
	}
}

// The per-kind seeds are kept per project (a watcher or worker given its file keeps working
// across Node restarts), mode 0600, and the bus never hands a seed out in its secrets' place:
// tool output redacts them.
func TestBusKeysPersistPerProject(t *testing.T) {
	dir := t.TempDir()
	a, err := loadBusKeys(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := loadBusKeys(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range CredKinds {
		pa, _ := a.keys[kind].PublicKey()
		pb, _ := b.keys[kind].PublicKey()
		if kind == KindNode {
			if pa == pb {
				t.Error("the node's key is the same across starts; it should be made fresh")
			}
			if _, err := os.Stat(BusKeyFile(dir, kind)); err == nil {
				t.Error("the node's seed was written to disk")
			}
			continue
		}
		if pa != pb {
			t.Errorf("%s key changed between starts", kind)
		}
		fi, err := os.Stat(BusKeyFile(dir, kind))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s seed file: %v %v", kind, fi, err)
		}
	}
	bus := &Bus{keys: a}
	if got := len(bus.Secrets()); got != len(CredKinds) {
		t.Errorf("Secrets() = %d values, want every kind's seed", got)
	}
}

// A Node's watcher connection reads the session list on the query subject (troupe watch seeds
// its tree so), but the node subject, which starts sessions, is not open to it.
func TestWatcherQueriesTheNodeReadOnly(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"text": "hi"}]}`)
	info := tn.Info()
	if info.Token != "" || info.Creds == "" {
		t.Fatalf("node.json: %+v; want per-kind credentials, no token", info)
	}
	nc, err := Dial(info, KindWatcher, BusCredentials{}, "watch")
	if err != nil {
		t.Fatal(err)
	}
	c := NewNodeClient(nc, info)
	defer c.Close()
	if _, err := c.Sessions(); err != nil {
		t.Fatalf("the watcher's session list: %v", err)
	}
	// A session's status comes through the Node (the watcher may not publish to control).
	if _, err := c.Status("nope"); err == nil || !strings.Contains(err.Error(), "not running") {
		t.Fatalf("the watcher's status of a session that does not run: %v", err)
	}
	start, _ := messages.Encode(&messages.StartSession{ID: "forged"})
	if err := PublishRefused(info, KindWatcher, messages.NodeSubject(info.NS, info.Node), start); err != nil {
		t.Fatalf("watcher starting a session: %v", err)
	}
	// The query subject answers reads only, whoever asks.
	reply, err := tn.client.request(messages.NodeQuerySubject(info.NS, info.Node), &messages.ForgetLesson{ID: "x"})
	if err == nil {
		if e, ok := reply.(*messages.ErrorReply); !ok || !strings.Contains(e.Error, "read-only") {
			t.Fatalf("a write on the query subject: %#v", reply)
		}
	}
}

func TestGrantTable(t *testing.T) {
	for _, kind := range CredKinds {
		g := GrantFor(kind, "p")
		pub, sub := g.Describe()
		if kind == KindNode {
			if !g.All {
				t.Errorf("node grant %+v, want everything", g)
			}
			continue
		}
		for _, s := range append(append([]string{}, g.Publish...), g.Subscribe...) {
			if strings.HasPrefix(s, "troupe.") && !strings.HasPrefix(s, "troupe.p.") {
				t.Errorf("%s may reach %s, outside its project", kind, s)
			}
			if s == ">" || s == "troupe.>" || s == "troupe.p.>" {
				t.Errorf("%s may reach %s: everything", kind, s)
			}
		}
		for _, s := range g.Publish {
			if strings.Contains(s, ".inbox.") || s == "troupe.p.tasks" || strings.Contains(s, tasksStream("p")) || strings.HasSuffix(s, ".>") && strings.Contains(s, "DELETE") {
				t.Errorf("%s may publish %s", kind, s)
			}
		}
		if pub == "" || sub == "" {
			t.Errorf("%s describes as %q / %q", kind, pub, sub)
		}
	}
	if g := GrantFor("nobody", "p"); g.All || len(g.Publish)+len(g.Subscribe) > 0 {
		t.Errorf("an unknown kind gets %+v", g)
	}
	if _, err := ParseCredKind("root"); err == nil {
		t.Error("ParseCredKind accepted root")
	}
}

// The worker's grant names the project's code and task-state streams as the packages that
// make them spell them.
func TestGrantStreamNamesAgree(t *testing.T) {
	for _, ns := range []string{"p1", "916cc5e752e9", "my-service_2"} {
		if got, want := codeStream(ns), "OBJ_"+gitship.BucketName(ns); got != want {
			t.Errorf("code stream %q, gitship makes %q", got, want)
		}
		if got, want := stateStream(ns), "KV_"+taskstate.BucketName(ns); got != want {
			t.Errorf("state stream %q, taskstate makes %q", got, want)
		}
	}
}

// Nodes starting at once for one project make the bus seeds together: every one of them gets
// the same seed, none fails (concurrent detached runs failed on a shared temporary file).
func TestSeedMadeConcurrentlyIsOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), "watcher.nk")
	const n = 8
	pubs, errs := make([]string, n), make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			kp, err := loadOrCreateSeed(path)
			if err == nil {
				pubs[i], err = kp.PublicKey()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || pubs[i] != pubs[0] {
			t.Fatalf("maker %d: key %s, %v; maker 0: %s", i, pubs[i], errs[i], pubs[0])
		}
	}
	if left, _ := filepath.Glob(path + ".*.tmp"); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}
