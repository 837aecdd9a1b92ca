package taskstate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// A result over the limit travels as a preview that fits, and the parent gets the whole back
// from the object store; a small one travels as it is. Forget deletes the whole afterwards.
func TestResultForBusRoundTrip(t *testing.T) {
	r := newRig(t)
	const limit = 64 << 10
	small := &messages.AgentResult{Handle: "root/a", Session: "p-a", Status: messages.AgentDone, Summary: "short"}
	if got, err := ResultForBus(r.ctx, r.objs, small, limit); err != nil || got != small {
		t.Fatalf("a small result changed: %+v, %v", got, err)
	}
	big := &messages.AgentResult{Handle: "root/b", Session: "p-b", Role: "general", Status: messages.AgentDone, Worker: "w1",
		Summary: strings.Repeat("0123456789abcdef", 80<<10), Branch: "troupe/p-b", DiffStat: "1 file", Usage: messages.AgentUsage{Turns: 3}}
	preview, err := ResultForBus(r.ctx, r.objs, big, limit)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := messages.Encode(preview)
	if len(data) > limit || preview.Full == nil || preview.Full.Name != "out/p-b" || preview.Status != messages.AgentDone ||
		preview.Branch != "troupe/p-b" || preview.Usage.Turns != 3 || !strings.Contains(preview.Summary, "object "+r.objs.Bucket()+"/out/p-b") {
		t.Fatalf("preview (%d bytes): %+v", len(data), preview.Full)
	}
	whole, err := WholeResult(r.ctx, r.objs, preview)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Summary != big.Summary || whole.DiffStat != "1 file" || whole.Full != nil || whole.Worker != "w1" {
		t.Fatalf("whole result: %d bytes of summary, %+v", len(whole.Summary), whole.Full)
	}
	// A preview naming another task's object is refused, not delivered as this one's.
	forged := *preview
	forged.Session = "p-c"
	if _, err := WholeResult(r.ctx, r.objs, &forged); err == nil || !strings.Contains(err.Error(), "p-b") {
		t.Fatalf("a whole naming another task: %v", err)
	}
	other := *preview
	other.Full = &messages.ObjectRef{Bucket: "troupe_code_else", Name: "out/p-b"}
	if _, err := WholeResult(r.ctx, r.objs, &other); err == nil {
		t.Fatal("a whole in another project's bucket was read")
	}
	must(t, r.objs.Forget(r.ctx, "p-b"))
	if _, err := WholeResult(r.ctx, r.objs, preview); err == nil || !strings.Contains(err.Error(), "not in the object store") {
		t.Fatalf("after Forget: %v", err)
	}
}

// An inherited context that would make the task too large goes to the object store and the
// worker reads it back; one that fits stays inline.
func TestShipContext(t *testing.T) {
	r := newRig(t)
	msgs := []map[string]string{{"role": "user", "content": strings.Repeat("x", 200<<10)}}
	raw, _ := json.Marshal(msgs)
	task := &messages.SpawnTask{ID: "p-f", Inherited: &messages.Blob{Inline: raw}}
	if n, err := ShipContext(r.ctx, r.objs, task, 1<<20); err != nil || n != 0 || task.Inherited.Ref != nil {
		t.Fatalf("a context that fits moved: %d, %v", n, err)
	}
	n, err := ShipContext(r.ctx, r.objs, task, 64<<10)
	if err != nil || n != int64(len(raw)) || task.Inherited.Ref == nil || len(task.Inherited.Inline) != 0 {
		t.Fatalf("ship: %d, %v, %+v", n, err, task.Inherited)
	}
	data, _ := messages.Encode(task)
	if len(data) > 64<<10 {
		t.Fatalf("the task is still %d bytes", len(data))
	}
	got, err := InheritedContext(r.ctx, r.objs, task)
	if err != nil || string(got) != string(raw) {
		t.Fatalf("read back %d bytes, %v", len(got), err)
	}
	must(t, r.objs.Delete(r.ctx, task.Inherited.Ref.Name))
	if _, err := InheritedContext(r.ctx, r.objs, task); err == nil {
		t.Fatal("the context is still there after it was deleted")
	}
	if got, err := InheritedContext(r.ctx, nil, &messages.SpawnTask{}); got != nil || err != nil {
		t.Fatalf("no context: %q, %v", got, err)
	}
}

func TestInlineLimit(t *testing.T) {
	for _, c := range []struct {
		max  int64
		want int
	}{{0, messages.MaxInline}, {8 << 20, messages.MaxInline}, {1 << 20, 1<<20 - busHeadroom}, {10, 1 << 10}} {
		if got := InlineLimit(c.max); got != c.want {
			t.Errorf("InlineLimit(%d) = %d, want %d", c.max, got, c.want)
		}
	}
}
