package natstest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// A three-node cluster keeps a replicated stream writable while one node is killed, and the
// node rejoins after a restart.
func TestClusterSurvivesKilledNode(t *testing.T) {
	c := Start(t, Options{Nodes: 3})
	if n := strings.Count(c.URL(), ","); n != 2 {
		t.Fatalf("URL %q lists %d nodes, want 3", c.URL(), n+1)
	}
	nc, err := nats.Connect(c.URL(), nats.MaxReconnects(-1), nats.ReconnectWait(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(60*time.Second))
	defer cancel()
	var stream jetstream.Stream
	testwait.For(t, 30*time.Second, func() error { // the meta leader may still settle
		stream, err = js.CreateStream(ctx, jetstream.StreamConfig{Name: "T", Subjects: []string{"t.>"}, Replicas: 3})
		return err
	})
	publish := func(n int) {
		testwait.For(t, 30*time.Second, func() error {
			pctx, pcancel := context.WithTimeout(ctx, testwait.Scale(2*time.Second))
			defer pcancel()
			_, err := js.Publish(pctx, fmt.Sprintf("t.%d", n), []byte("x"))
			return err
		})
	}
	publish(1)
	c.Kill(1)
	if c.Running(1) {
		t.Fatal("node 1 still runs after Kill")
	}
	publish(2)
	c.Restart(1)
	if !c.Running(1) {
		t.Fatal("node 1 not running after Restart")
	}
	publish(3)
	testwait.For(t, 30*time.Second, func() error {
		info, err := stream.Info(ctx)
		if err != nil {
			return err
		}
		if info.State.Msgs != 3 {
			return fmt.Errorf("stream holds %d messages, want 3", info.State.Msgs)
		}
		return nil
	})
}

// The accounts block reaches the server: a user's permissions are enforced, and a client
// without credentials is refused.
func TestAccountsAndPermissions(t *testing.T) {
	c := Start(t, Options{Accounts: `
accounts {
  P: {
    jetstream: enabled
    users: [
      {user: watcher, password: w, permissions: {publish: {deny: ">"}, subscribe: {allow: ["evt.>", "_INBOX.>"]}}}
      {user: node, password: n}
    ]
  }
}`})
	if _, err := nats.Connect(c.URL()); err == nil || !strings.Contains(strings.ToLower(err.Error()), "authorization") {
		t.Fatalf("connect without credentials: %v, want an authorization violation", err)
	}
	errs := make(chan error, 4)
	watcher, err := nats.Connect(c.URL(), nats.UserInfo("watcher", "w"),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	if err := watcher.Publish("inbox.s1", []byte("forged")); err != nil {
		t.Fatal(err)
	}
	watcher.Flush()
	select {
	case err := <-errs:
		if !errors.Is(err, nats.ErrPermissionViolation) && !strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
			t.Fatalf("got %v, want a permissions violation", err)
		}
	case <-time.After(testwait.Scale(10 * time.Second)):
		t.Fatal("the server did not refuse the watcher's publish")
	}
	node, err := nats.Connect(c.URL(), nats.UserInfo("node", "n"))
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	sub, err := watcher.SubscribeSync("evt.>")
	if err != nil {
		t.Fatal(err)
	}
	watcher.Flush()
	if err := node.Publish("evt.s1", []byte("ok")); err != nil {
		t.Fatal(err)
	}
	if _, err := sub.NextMsg(testwait.Scale(10 * time.Second)); err != nil {
		t.Fatalf("watcher did not receive the node's event: %v", err)
	}
}
