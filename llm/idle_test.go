package llm

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm/llmtest"
)

// TestStalledStreamIsRetried: a stream that sends one chunk and then nothing fails after the
// idle timeout with a Retryable ErrStreamStalled, and the retry gets the whole reply.
func TestStalledStreamIsRetried(t *testing.T) {
	p, srv := openAIAgainst(t,
		llmtest.Reply{Text: "the first chunk and then silence", StallAfter: 1},
		llmtest.Reply{Text: "complete"})
	idle := testwait.Scale(300 * time.Millisecond)
	var retries []RetryInfo
	var slept []time.Duration
	start := time.Now()
	reply, err := StreamWithRetry(context.Background(), p, &Request{Model: "m"}, func(Event) {}, RetryPolicy{
		IdleTimeout: idle, Sleep: noSleep(&slept),
		OnRetry: func(ri RetryInfo) { retries = append(retries, ri) },
	})
	took := time.Since(start)
	if err != nil {
		t.Fatalf("StreamWithRetry: %v", err)
	}
	if reply.Text != "complete" || len(srv.Requests()) != 2 {
		t.Fatalf("reply %q after %d requests; want the retried reply", reply.Text, len(srv.Requests()))
	}
	if len(retries) != 1 || retries[0].Err.Class != Retryable || !errors.Is(retries[0].Err, ErrStreamStalled) {
		t.Fatalf("retries = %+v; want one Retryable ErrStreamStalled", retries)
	}
	if took < idle || took > idle+testwait.Scale(5*time.Second) {
		t.Fatalf("the stall was detected after %v; want about %v", took, idle)
	}
	t.Logf("stall detected and retried in %v (idle timeout %v)", took, idle)
}

// TestSlowFirstChunkIsNotAStall: the idle timeout starts with the first event, so a model that
// thinks before it speaks is not cut off.
func TestSlowFirstChunkIsNotAStall(t *testing.T) {
	idle := testwait.Scale(100 * time.Millisecond)
	p, srv := openAIAgainst(t, llmtest.Reply{Text: "slow but whole", Delay: 3 * idle})
	reply, err := StreamWithRetry(context.Background(), p, &Request{Model: "m"}, func(Event) {},
		RetryPolicy{MaxAttempts: 1, IdleTimeout: idle})
	if err != nil || reply.Text != "slow but whole" || len(srv.Requests()) != 1 {
		t.Fatalf("reply %+v, err %v, %d requests", reply, err, len(srv.Requests()))
	}
}

func TestStallWithoutRetriesFailsRetryable(t *testing.T) {
	p, _ := openAIAgainst(t, llmtest.Reply{Text: "one chunk only", StallAfter: 1})
	_, err := StreamWithRetry(context.Background(), p, &Request{Model: "m"}, func(Event) {},
		RetryPolicy{MaxAttempts: 1, IdleTimeout: testwait.Scale(100 * time.Millisecond)})
	if ClassOf(err) != Retryable || !errors.Is(err, ErrStreamStalled) {
		t.Fatalf("err = %v (%s); want Retryable ErrStreamStalled", err, ClassOf(err))
	}
}
