// Package nodewatch keeps `troupe watch` on the project's Node: it waits for a Node to appear,
// shows its events until it goes away, then waits for the next one, so a watch can be left
// open across runs.
package nodewatch

import (
	"context"
	"fmt"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/messages"
)

// Run shows the events of the Nodes of the project at root (or on the NATS server nats) on w
// until ctx ends; say tells the user about waiting and following.
// It connects with the watcher credential: it may read events and ask read-only queries.
func Run(ctx context.Context, w *ui.Watcher, root, nats string, creds actors.BusCredentials, say func(string)) error {
	waiting := false
	for ctx.Err() == nil {
		info, err := actors.FindNode(root, nats)
		if err != nil {
			if !waiting {
				say(fmt.Sprintf("waiting for a troupe node in %s (start one with troupe serve, run or chat)", root))
				waiting = true
			}
			sleepCtx(ctx, 200*time.Millisecond)
			continue
		}
		waiting = false
		if err := followNode(ctx, w, info, creds, say); err != nil {
			return err
		}
	}
	return nil
}

// followNode shows the events of one Node until it goes away or ctx ends.
func followNode(ctx context.Context, w *ui.Watcher, info *actors.NodeInfo, creds actors.BusCredentials, say func(string)) error {
	nc, err := actors.Dial(info, actors.KindWatcher, creds, "troupe-watch")
	if err != nil {
		sleepCtx(ctx, 200*time.Millisecond) // it may be going away: look again
		return nil
	}
	client := actors.NewClient(nc, info.NS, info.Node)
	defer client.Close()
	subscribed := time.Now()
	sub, err := client.SubscribeRaw(messages.ProjectEventsSubject(info.NS), w.Event)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	say(fmt.Sprintf("watching node %s (pid %d)", info.Node, info.PID))
	if !w.JSON() {
		w.Seed(client, subscribed)
	}
	for ctx.Err() == nil && client.Alive() && actors.ProcessAlive(info.PID) {
		sleepCtx(ctx, 200*time.Millisecond)
	}
	if !actors.ProcessAlive(info.PID) {
		w.NodeGone()
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
