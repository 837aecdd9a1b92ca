package taskstate

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// putWindow bounds the key-value writes the mirror has in flight. It publishes them without
// waiting for each acknowledgement, then waits for the window's: one write at a time, each a
// round trip to the server, held every slot of a busy worker behind the mirror (a task's
// Finish flushes it), which bounded a worker to a few hundred entries a second
// (bench/workers: 10,000 agents).
const putWindow = 64

type inflight struct {
	j   job
	ack jetstream.PubAckFuture
}

// run carries out jobs in order. Key-value writes go out asynchronously, putWindow at most at
// a time; a checkpoint, a flush marker and an oversized entry first wait for the writes before
// them (a checkpoint precedes the results after it; a flush follows everything before it).
// Writes of one key reach the server in order on the one connection, so the last one stays.
func (m *Mirror) run(ctx context.Context, jobs []job, tries int) {
	var window []inflight
	settle := func() {
		m.settle(ctx, window, tries)
		window = window[:0]
	}
	for _, j := range jobs {
		if j.flushed != nil || j.ckpt != nil || len(j.value) > maxValue || m.st.js == nil {
			settle()
			m.do(ctx, j, tries)
			continue
		}
		ack, err := m.st.js.PublishAsync("$KV."+m.st.bucket+"."+j.key, j.value)
		if err != nil {
			settle()
			m.do(ctx, j, tries)
			continue
		}
		if window = append(window, inflight{j, ack}); len(window) >= putWindow {
			settle()
		}
	}
	settle()
}

// settle waits for the window's acknowledgements (one writeTimeout for them all). A write that
// failed, or was not acknowledged in time, is written again the slow way (do, with its
// retries), unless a later write of the same key in the window was acknowledged: it holds the
// newer value.
func (m *Mirror) settle(ctx context.Context, window []inflight, tries int) {
	if len(window) == 0 {
		return
	}
	timer := time.NewTimer(m.writeTimeout)
	defer timer.Stop()
	ok := make([]bool, len(window))
	late := false
	for i, w := range window {
		if late {
			select {
			case <-w.ack.Ok():
				ok[i] = true
			default:
			}
			continue
		}
		select {
		case <-w.ack.Ok():
			ok[i] = true
		case <-w.ack.Err():
		case <-timer.C:
			late = true
		case <-ctx.Done():
			late = true
		}
	}
	for i, w := range window {
		if ok[i] || supersededIn(window[i+1:], ok[i+1:], w.j.key) {
			continue
		}
		m.do(ctx, w.j, tries)
	}
}

// supersededIn reports whether a later acknowledged write in the window has key.
func supersededIn(later []inflight, ok []bool, key string) bool {
	for i, w := range later {
		if ok[i] && w.j.key == key {
			return true
		}
	}
	return false
}
