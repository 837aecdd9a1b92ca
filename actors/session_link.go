package actors

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// sessionLink is the tools' way to their session (tools.AgentControl for the agent tools,
// tools.GoalControl for the goal tools): each call is a request to the session actor, answered
// when the session has acted. It runs on the tool call's goroutine, never on an actor's, so
// waiting here blocks no mailbox.
type sessionLink struct {
	root    *actor.RootContext
	session *actor.PID
}

// agentRequestTimeout bounds the requests that the session answers at once.
const agentRequestTimeout = 30 * time.Second

func (a *sessionLink) ask(ctx context.Context, msg any, timeout time.Duration) (any, error) {
	f := a.root.RequestFuture(a.session, msg, timeout)
	done := make(chan struct{})
	var res any
	var err error
	go func() {
		res, err = f.Result()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return nil, fmt.Errorf("cancelled: %w", context.Cause(ctx))
	}
	if err != nil {
		return nil, fmt.Errorf("the session did not answer: %w", err)
	}
	if e, ok := res.(*messages.ErrorReply); ok {
		return nil, errors.New(e.Error)
	}
	return res, nil
}

func (a *sessionLink) Spawn(ctx context.Context, req *messages.SpawnAgent) (*messages.SpawnAccepted, error) {
	return askFor[*messages.SpawnAccepted](ctx, a, req, agentRequestTimeout)
}

func (a *sessionLink) Wait(ctx context.Context, req *messages.WaitAgents) (*messages.WaitReply, error) {
	// The session answers when the children end or the wait times out; the future outlives
	// that by a margin so the session's answer, not the future's timeout, decides.
	return askFor[*messages.WaitReply](ctx, a, req, time.Duration(req.TimeoutS)*time.Second+agentRequestTimeout)
}

func (a *sessionLink) Send(ctx context.Context, req *messages.SendAgent) (*messages.AgentAck, error) {
	return askFor[*messages.AgentAck](ctx, a, req, agentRequestTimeout)
}

func (a *sessionLink) Cancel(ctx context.Context, req *messages.CancelAgent) (*messages.AgentAck, error) {
	return askFor[*messages.AgentAck](ctx, a, req, agentRequestTimeout)
}

func (a *sessionLink) List(ctx context.Context) (*messages.AgentList, error) {
	return askFor[*messages.AgentList](ctx, a, &messages.ListAgents{}, agentRequestTimeout)
}

func (a *sessionLink) Goal(ctx context.Context) (*messages.Goal, error) {
	reply, err := askFor[*messages.GoalReply](ctx, a, &messages.GetGoal{}, agentRequestTimeout)
	if err != nil {
		return nil, err
	}
	return reply.Goal, nil
}

func (a *sessionLink) UpdateGoal(ctx context.Context, req *messages.UpdateGoal) (*messages.Goal, error) {
	reply, err := askFor[*messages.GoalReply](ctx, a, req, agentRequestTimeout)
	if err != nil {
		return nil, err
	}
	return reply.Goal, nil
}

// askFor asks the session and expects an answer of type T.
func askFor[T any](ctx context.Context, a *sessionLink, msg any, timeout time.Duration) (T, error) {
	res, err := a.ask(ctx, msg, timeout)
	if err != nil {
		var zero T
		return zero, err
	}
	return expect[T](res)
}

func expect[T any](res any) (T, error) {
	v, ok := res.(T)
	if !ok {
		var zero T
		return zero, fmt.Errorf("unexpected answer %T", res)
	}
	return v, nil
}
