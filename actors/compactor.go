package actors

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/llm"
)

// compactor is the Compactor actor (docs/ARCHITECTURE.md, "Context is a projection"): a child of its session that turns a span
// of the log into a compact boundary through the model. Its own request is never compacted
// (the recursion guard is that only the session asks, and never while a compaction runs); a
// reply that is empty, too long, or a failed call is answered with a mechanical summary, so a
// compaction always ends and never loops.
type compactor struct {
	provider  llm.Provider
	modelName string
	agent     string // the handle its requests carry (<session handle>/#compactor)
	retry     llm.RetryPolicy
	cancel    context.CancelFunc
}

// compactRequest asks the compactor to summarize span.
type compactRequest struct {
	id               int
	span             []projection.Item
	focus, reason    string
	maxInputBytes    int
	maxSummaryTokens int
}

// compactDone answers compactRequest. err says why the model's summary was not used (the
// boundary is then the mechanical one).
type compactDone struct {
	id       int
	boundary projection.Boundary
	err      error
}

// compactorAgent names the compactor in requests; "#" keeps it apart from any task name.
const compactorAgent = "#compactor"

func newCompactor(provider llm.Provider, modelName, handle string, retry llm.RetryPolicy) actor.Producer {
	return func() actor.Actor {
		return &compactor{provider: provider, modelName: modelName, agent: handle + "/" + compactorAgent, retry: retry}
	}
}

func (c *compactor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *compactRequest:
		c.summarize(ctx, msg)
	case *useModel: // /model: the next summaries come from the session's new model
		c.provider, c.modelName = msg.provider, msg.modelName
	case *actor.Stopping:
		if c.cancel != nil {
			c.cancel()
		}
	}
}

// summarize runs the model call in a goroutine the compactor owns (cancelled when it stops)
// and answers the session, which is its parent.
func (c *compactor) summarize(ctx actor.Context, req *compactRequest) {
	if c.cancel != nil {
		c.cancel()
	}
	callCtx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	system, msgs := projection.SummaryPrompt(req.span, req.focus, req.maxInputBytes)
	call := &llm.Request{Model: c.modelName, System: system, Messages: msgs, Agent: c.agent}
	parent, root, provider, policy := ctx.Parent(), ctx.ActorSystem().Root, c.provider, c.retry
	policy.OnRetry = nil
	go func() {
		done := &compactDone{id: req.id}
		reply, err := llm.StreamWithRetry(callCtx, provider, call, func(llm.Event) {}, policy)
		if err == nil {
			done.boundary, err = projection.ParseSummary(reply.Text, req.maxSummaryTokens)
		}
		if err != nil {
			done.err = fmt.Errorf("the model's summary was not used: %w", err)
			done.boundary = projection.Mechanical(req.span, req.reason)
		}
		done.boundary.Reason = req.reason
		done.boundary.FromSeq, done.boundary.ToSeq = projection.SpanSeqs(req.span)
		root.Send(parent, done)
	}()
}
