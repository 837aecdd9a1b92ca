package actors

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// offActor runs work (git, a disk scan, a worktree) in a goroutine and continues with its result
// on the actor's own goroutine, through protoactor's ReenterAfter: Receive never blocks on it,
// and the continuation may touch the actor's state like any handler. The goroutine is owned by
// the call: it ends when work returns; a work that outlives timeout continues with the
// future's error and its late result is dropped.
func offActor[T any](ctx actor.Context, timeout time.Duration, work func() T, then func(T, error)) {
	f := actor.NewFuture(ctx.ActorSystem(), timeout)
	root, pid := ctx.ActorSystem().Root, f.PID()
	go func() { root.Send(pid, offActorResult[T]{value: work()}) }()
	ctx.ReenterAfter(f, func(res any, err error) {
		var v T
		if r, ok := res.(offActorResult[T]); ok && err == nil {
			v = r.value
		}
		then(v, err)
	})
}

// offActorResult wraps a work's result, so a nil or interface value still reaches the future.
type offActorResult[T any] struct{ value T }
