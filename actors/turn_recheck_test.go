package actors

import (
	"reflect"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

func TestRecheckAhead(t *testing.T) {
	change := func(path string) messages.FileChange {
		return messages.FileChange{Path: path, Kind: messages.FileChanged, Diff: "-a\n+b"}
	}
	answer := func(turn int, paths ...string) *messages.FilesRechecked {
		out := &messages.FilesRechecked{Turn: turn}
		for _, p := range paths {
			out.Changes = append(out.Changes, change(p))
		}
		return out
	}
	paths := func(m *messages.FilesRechecked) []string {
		if m == nil {
			return nil
		}
		var out []string
		for _, c := range m.Changes {
			out = append(out, c.Path)
		}
		return out
	}
	// Each step: ask (for turn), call (atCall of turn, closing or not), or arrive (an answer,
	// with whether the call of now waits). want is what that step returns.
	type step struct {
		op      string // ask, noask (a PreModel hook), call, late-call, arrive, arrive-waiting
		turn    int
		paths   []string // an answer's changes
		deliver []string // want: the changes delivered (nil: none delivered)
		ask     bool     // want: the call must ask the executor
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"the answer follows the last result: the call takes it without asking", []step{
			{op: "ask", turn: 2},
			{op: "call", turn: 2},
			{op: "arrive-waiting", turn: 2, paths: []string{"a.go"}, deliver: []string{"a.go"}},
		}},
		{"an answer that came before its call is delivered at the call", []step{
			{op: "ask", turn: 2},
			{op: "arrive", turn: 2, paths: []string{"a.go"}},
			{op: "call", turn: 2, deliver: []string{"a.go"}},
		}},
		{"no answer asked ahead: the call asks", []step{
			{op: "call", turn: 2, ask: true},
			{op: "arrive-waiting", turn: 2, deliver: []string{}},
		}},
		{"a PreModel hook: nothing asked ahead, the call asks", []step{
			{op: "noask", turn: 2},
			{op: "call", turn: 2, ask: true},
		}},
		{"a later call asks again and gets the earlier answer's changes too", []step{
			{op: "ask", turn: 2},
			{op: "arrive", turn: 2, paths: []string{"a.go"}},
			{op: "late-call", turn: 2, ask: true},
			{op: "arrive-waiting", turn: 2, paths: []string{"b.go"}, deliver: []string{"a.go", "b.go"}},
		}},
		{"a later call whose answer is still on its way holds it, then asks again", []step{
			{op: "ask", turn: 2},
			{op: "late-call", turn: 2},
			{op: "arrive-waiting", turn: 2, paths: []string{"a.go"}, ask: true},
			{op: "arrive-waiting", turn: 2, deliver: []string{"a.go"}},
		}},
		{"an answer for a call that never came (a cancelled turn) goes with the next call's", []step{
			{op: "ask", turn: 2},
			{op: "arrive", turn: 2, paths: []string{"a.go"}},
			{op: "call", turn: 3, ask: true},
			{op: "arrive-waiting", turn: 3, paths: []string{"b.go"}, deliver: []string{"a.go", "b.go"}},
		}},
		{"a late answer (after the timeout) is not dropped", []step{
			{op: "call", turn: 2, ask: true},
			{op: "arrive", turn: 2, paths: []string{"a.go"}},
			{op: "ask", turn: 3},
			{op: "call", turn: 3},
			{op: "arrive-waiting", turn: 3, deliver: []string{"a.go"}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var a recheckAhead
			for i, st := range tc.steps {
				var got *messages.FilesRechecked
				var ask bool
				switch st.op {
				case "ask", "noask":
					req := a.ask(st.turn, st.op == "ask")
					if (req != nil) != (st.op == "ask") || req != nil && req.Turn != st.turn {
						t.Fatalf("step %d: asked %+v", i, req)
					}
					continue
				case "call", "late-call":
					a.closing = st.op == "call"
					got, ask = a.atCall(st.turn)
					a.closing = false
				case "arrive", "arrive-waiting":
					got, ask = a.arrived(answer(st.turn, st.paths...), st.turn, st.op == "arrive-waiting")
				}
				if ask != st.ask || (got != nil) != (st.deliver != nil) {
					t.Fatalf("step %d (%s): delivered %v ask %v, want %v ask %v", i, st.op, paths(got), ask, st.deliver, st.ask)
				}
				if got != nil && len(st.deliver) > 0 && !reflect.DeepEqual(paths(got), st.deliver) {
					t.Fatalf("step %d (%s): delivered %v, want %v", i, st.op, paths(got), st.deliver)
				}
			}
		})
	}
}
