package actors

import (
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// A worker is attached while it waits on the consumer or holds a task: a burst that took every
// waiting pull must not make the burst's later tasks run locally.
func TestWorkerOnConsumer(t *testing.T) {
	for _, c := range []struct {
		name             string
		waiting, pending int
		want             bool
	}{
		{"nobody", 0, 0, false},
		{"a pull waits", 2, 0, true},
		{"busy workers hold every pull's task", 0, 8, true},
		{"both", 1, 3, true},
	} {
		info := &jetstream.ConsumerInfo{NumWaiting: c.waiting, NumAckPending: c.pending}
		if got := workerOnConsumer(info); got != c.want {
			t.Errorf("%s: workerOnConsumer = %v, want %v", c.name, got, c.want)
		}
	}
}
