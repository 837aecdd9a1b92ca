package turn

import (
	"testing"

	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

func TestTallyCountsCallsAndRepairsAndFlushes(t *testing.T) {
	var tl Tally
	tl.Mark("txt-1-1", string(tools.RepairTextFormat))
	tl.Call(tl.KindsOf("txt-1-1"))
	tl.Call([]string{"arg_alias", "python_literal"})
	tl.Call(tl.KindsOf("c3")) // a clean structured call
	got := tl.Flush("openai/qwen3-coder")
	if got.Calls != 3 || got.Repaired != 2 || got.ByKind["text_format"] != 1 || got.ByKind["arg_alias"] != 1 {
		t.Fatalf("flushed = %+v", got)
	}
	if !tl.Pending.Empty() || tl.Total.Calls != 3 {
		t.Fatalf("after flush: pending %+v total %+v", tl.Pending, tl.Total)
	}
	if tl.KindsOf("txt-1-1") != nil {
		t.Fatalf("a text repair is counted once")
	}
}

func TestRepairLine(t *testing.T) {
	r := store.RepairStats{Model: "qwen3-coder", Calls: 100, Repaired: 14,
		ByKind: map[string]int{"text_format": 9, "arg_alias": 3, "python_literal": 2}}
	want := "qwen3-coder: 14% of 100 calls repaired: 9 text format, 5 arguments"
	if got := RepairLine(r); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if got := RepairLine(store.RepairStats{Model: "m"}); got != "m: 0% of 0 calls repaired" {
		t.Fatalf("empty: %q", got)
	}
}
