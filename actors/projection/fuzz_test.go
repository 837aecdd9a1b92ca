package projection

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
)

// fuzzHistory builds a valid history from data: user messages, replies, batches of up to four
// calls with notes between results and ids reused across turns, idle gaps, and boundaries —
// some chosen by SelectSpan and written by Mechanical, as the Compactor does, some with an
// arbitrary range, as a buggy or older writer might leave them.
func fuzzHistory(data []byte) *hist {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	h := newHist()
	for len(data) > 0 && len(h.items) < 300 {
		switch next() % 7 {
		case 0:
			h.user(fmt.Sprintf("request %d", h.seq))
		case 1:
			h.assistant(fmt.Sprintf("reply %d", h.seq))
		case 2, 3:
			n := next()%4 + 1
			var calls []string
			for k := range n {
				calls = append(calls, fmt.Sprintf("call_%d", k)) // reused every turn, like some providers
			}
			h.assistant("", bashCalls(calls)...)
			for _, id := range calls {
				if next()%5 == 0 {
					h.note("approved " + id)
				}
				out := strings.Repeat("output line\n", next()*3)
				if next()%4 == 0 {
					out += "[stored as ref=" + ref + "]"
				}
				if next()%6 == 0 {
					h.failed(id, "bash", out+"[exit code 1]")
				} else {
					h.result(id, "bash", out)
				}
			}
		case 4:
			h.wait(time.Duration(next()) * time.Minute)
		case 5:
			if from, to, ok := SelectSpan(h.items, next()*8, next()%4); ok {
				h.boundary(Mechanical(h.items[from:to], "fuzz"))
			}
		case 6:
			if h.seq > 0 {
				h.boundary(Boundary{FromSeq: 1, ToSeq: uint64(next())%h.seq + 1, Summary: "arbitrary"})
			}
		}
	}
	return h
}

func bashCalls(ids []string) []llm.ToolCall {
	calls := make([]llm.ToolCall, len(ids))
	for i, id := range ids {
		calls[i] = bash(id, "make "+id)
	}
	return calls
}

// checkProjection holds Project and SelectSpan to their promises on one history.
func checkProjection(t *testing.T, h *hist, now time.Duration, keep, previewBytes int) {
	t.Helper()
	if v := Violations(messages(h.items)); v != nil {
		t.Fatalf("generated history is invalid: %q", v)
	}
	before := cloneItems(h.items)
	out := Project(Input{Items: h.items, Now: h.now.Add(now), KeepOutputs: keep, PreviewBytes: previewBytes,
		State: []StateBlock{{Title: "Goal", Body: "g"}}})
	if v := Violations(out); v != nil {
		t.Fatalf("projection breaks pairing: %q\n%s", v, renderMessages(out))
	}
	if !reflect.DeepEqual(h.items, before) {
		t.Fatal("Project modified its input")
	}
	checkGrown(t, h, now, keep, previewBytes)
	if from, to, ok := SelectSpan(h.items, 200, 1); ok {
		if from >= to || SafeCut(h.items, to) != to {
			t.Fatalf("SelectSpan = %d, %d: not a safe, non-empty span", from, to)
		}
		if v := Violations(messages(h.items[to:])); v != nil {
			t.Fatalf("the tail SelectSpan keeps breaks pairing: %q", v)
		}
	}
}

func FuzzProjectKeepsPairing(f *testing.F) {
	f.Add([]byte{0, 2, 3, 1, 4, 200, 0, 2, 9, 9, 9, 9, 5, 10, 1}, uint8(0), int8(2), uint16(64))
	f.Add([]byte{2, 3, 0, 9, 0, 9, 5, 1, 0, 6, 7, 3, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(60), int8(-1), uint16(10))
	f.Add([]byte("a history made of text bytes: \x00\x02\x05\x06\x04\xff"), uint8(31), int8(0), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, nowMin uint8, keep int8, previewBytes uint16) {
		checkProjection(t, fuzzHistory(data), time.Duration(nowMin)*time.Minute, int(keep), int(previewBytes))
	})
}

// TestProjectKeepsPairingRandom runs the fuzz property over a fixed set of random histories,
// so plain go test covers more than the seed corpus.
func TestProjectKeepsPairingRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		data := make([]byte, r.IntN(400))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		checkProjection(t, fuzzHistory(data), time.Duration(r.IntN(90))*time.Minute, r.IntN(8)-1, r.IntN(300))
	}
}
