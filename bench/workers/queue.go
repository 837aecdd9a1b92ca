package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/messages"
)

// benchQueue pushes tasks through the work queue to two consumers (each on its own connection,
// as two workers would be) and times a redelivery after a consumer dies holding a task.
func benchQueue(ctx context.Context, srv *server, tasks, runs int, ackWait time.Duration) error {
	brief := strings.Repeat("fix the failing test in pkg/x and explain why it failed. ", 8)
	var pubRates, e2eRates []float64
	for run := range runs {
		cfg := taskqueue.Config{Namespace: fmt.Sprintf("benchq%d", run), AckWait: ackWait, Replicas: 1}
		nc, _, err := srv.connect()
		if err != nil {
			return err
		}
		pub, err := taskqueue.OpenPublisher(ctx, nc, cfg)
		if err != nil {
			return err
		}
		var done atomic.Int64
		var last atomic.Int64 // when the last task was acked (unix ns)
		var wg sync.WaitGroup
		errs := make(chan error, 2)
		for range 2 {
			cnc, _, err := srv.connect()
			if err != nil {
				return err
			}
			q, err := taskqueue.OpenConsumer(ctx, cnc, cfg)
			if err != nil {
				return err
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer cnc.Close()
				for done.Load() < int64(tasks) {
					d, err := q.Next()
					if errors.Is(err, taskqueue.ErrNoTask) {
						continue
					}
					if err != nil {
						errs <- err
						return
					}
					if err := d.Ack(ctx); err != nil {
						errs <- err
						return
					}
					if done.Add(1) == int64(tasks) {
						last.Store(time.Now().UnixNano())
					}
				}
			}()
		}
		start := time.Now()
		for i := range tasks {
			task := &messages.SpawnTask{ID: fmt.Sprintf("r%d-task%05d", run, i), Project: cfg.Namespace,
				Parent: "parent", ParentNode: "node", Start: messages.StartSession{ID: fmt.Sprintf("r%d-task%05d", run, i), Task: brief}}
			if err := pub.Publish(ctx, task); err != nil {
				return err
			}
		}
		pubTime := time.Since(start)
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			return err
		}
		all := time.Unix(0, last.Load()).Sub(start)
		nc.Close()
		pubRates = append(pubRates, float64(tasks)/pubTime.Seconds())
		e2eRates = append(e2eRates, float64(tasks)/all.Seconds())
	}
	fmt.Printf("\nqueue: %d tasks (a SpawnTask with a %d-byte brief), one publisher, two consumers\n", tasks, len(brief))
	fmt.Printf("  published (each awaits the stream's ack)       %.0f tasks/s\n", medianF(pubRates))
	fmt.Printf("  published → taken → acked (double ack)         %.0f tasks/s\n", medianF(e2eRates))

	var waits []time.Duration
	for run := range runs {
		cfg := taskqueue.Config{Namespace: fmt.Sprintf("benchr%d", run), AckWait: ackWait, Replicas: 1}
		wait, err := redeliver(ctx, srv, cfg)
		if err != nil {
			return err
		}
		waits = append(waits, wait)
	}
	fmt.Printf("  redelivery after the holding consumer died     %s (AckWait %s; no heartbeat after death)\n", ms(median(waits)), ackWait)
	return nil
}

// redeliver has one consumer take a task and die (its connection closed, no ack), and times
// until another consumer receives it again.
func redeliver(ctx context.Context, srv *server, cfg taskqueue.Config) (time.Duration, error) {
	pnc, _, err := srv.connect()
	if err != nil {
		return 0, err
	}
	defer pnc.Close()
	pub, err := taskqueue.OpenPublisher(ctx, pnc, cfg)
	if err != nil {
		return 0, err
	}
	if err := pub.Publish(ctx, &messages.SpawnTask{ID: "doomed", Project: cfg.Namespace, Start: messages.StartSession{ID: "doomed", Task: "x"}}); err != nil {
		return 0, err
	}
	dnc, _, err := srv.connect()
	if err != nil {
		return 0, err
	}
	dying, err := taskqueue.OpenConsumer(ctx, dnc, cfg)
	if err != nil {
		return 0, err
	}
	if _, err := next(dying); err != nil {
		return 0, err
	}
	died := time.Now()
	dnc.Close()
	snc, _, err := srv.connect()
	if err != nil {
		return 0, err
	}
	defer snc.Close()
	survivor, err := taskqueue.OpenConsumer(ctx, snc, cfg)
	if err != nil {
		return 0, err
	}
	d, err := next(survivor)
	if err != nil {
		return 0, err
	}
	wait := time.Since(died)
	if d.Task.Attempt != 2 {
		fmt.Printf("  (the task came back with attempt %d, not 2)\n", d.Task.Attempt)
	}
	return wait, d.Ack(ctx)
}

// next polls until a task comes (at most a minute).
func next(q *taskqueue.Queue) (*taskqueue.Delivery, error) {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		d, err := q.Next()
		if errors.Is(err, taskqueue.ErrNoTask) {
			continue
		}
		return d, err
	}
	return nil, errors.New("no task within a minute")
}

func medianF(xs []float64) float64 {
	ds := make([]time.Duration, len(xs))
	for i, x := range xs {
		ds[i] = time.Duration(x * 1000)
	}
	return float64(median(ds)) / 1000
}
