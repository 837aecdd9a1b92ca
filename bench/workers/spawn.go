package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/internal/taskstate"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// benchSpawn times what placing a child costs before its session starts, on the generated
// repository: a local child in its own worktree (tools/worktree.Create) against a remote one
// (the code shipped, the task queued and taken, the worker's checkout and state prepared), the
// worker warm (it has the base) and the parent's tree clean. The session's own start and its
// first model request come after either and are not in these figures.
func benchSpawn(ctx context.Context, srv *server, work string, mb, runs int) error {
	parent, nc, js, err := srv.openPart(work, mb)
	if err != nil {
		return err
	}
	defer nc.Close()
	cfg := taskqueue.Config{Namespace: "benchspawn", Replicas: 1}
	pub, err := taskqueue.OpenPublisher(ctx, nc, cfg)
	if err != nil {
		return err
	}
	cons, err := taskqueue.OpenConsumer(ctx, nc, cfg)
	if err != nil {
		return err
	}
	objs, err := gitship.OpenObjects(ctx, js, "benchspawn", 1)
	if err != nil {
		return err
	}
	st, err := store.Open(filepath.Join(work, "spawnstore"), nil)
	if err != nil {
		return err
	}
	defer st.Close()
	host, err := taskstate.NewHost(ctx, js, "benchspawn", filepath.Join(work, "spawncache"), st, 1, nil)
	if err != nil {
		return err
	}
	defer host.Close()

	var local, remote []time.Duration
	for i := range runs + 1 { // the first remote run warms the worker; it is not counted
		name := fmt.Sprintf("spawn%d", i)
		start := time.Now()
		wt, err := worktree.Create(parent, name)
		if err != nil {
			return err
		}
		if i > 0 {
			local = append(local, time.Since(start))
		}
		if err := worktree.Drop(parent, wt.Name); err != nil {
			return err
		}
		start = time.Now()
		task := &messages.SpawnTask{ID: name, Project: "benchspawn", Writes: true,
			Start: messages.StartSession{ID: name, Task: "change something"}}
		repo, _, err := gitship.Prepare(ctx, parent, name, objs, gitship.PrepareOptions{})
		if err != nil {
			return err
		}
		task.Repo = *repo
		if err := pub.Publish(ctx, task); err != nil {
			return err
		}
		var d *taskqueue.Delivery
		for d == nil {
			if d, err = cons.Next(); err != nil && !errors.Is(err, taskqueue.ErrNoTask) {
				return err
			}
		}
		run, err := host.Begin(ctx, &d.Task)
		if err != nil {
			return err
		}
		if i > 0 {
			remote = append(remote, time.Since(start))
		}
		if err := d.Ack(ctx); err != nil {
			return err
		}
		if err := host.Release(ctx, run); err != nil {
			return err
		}
		if err := host.Done(ctx, run); err != nil {
			return err
		}
	}
	fmt.Printf("\nspawn: placing a writing child on the %s repository, before its session starts\n", kib(repoSize(parent)))
	fmt.Printf("  local: its own worktree (worktree.Create)      %s\n", ms(median(local)))
	fmt.Printf("  remote: shipped, queued, taken, checked out    %s (warm worker; task state included)\n", ms(median(remote)))
	return nil
}
