package actors

import (
	"testing"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/messages"
)

func TestBudgetCompactsOncePerTurnAndBlocksBeforeOverflow(t *testing.T) {
	b := contextBudget{window: 1000, prefix: 100}
	cases := []struct {
		tokens int
		level  messages.PressureLevel
		step   budgetStep
	}{
		{100, "", stepCall},
		{550, messages.PressureWarning, stepCall},
		{650, messages.PressureCompact, stepCompact},
		{650, messages.PressureCompact, stepCall}, // once per turn
		{900, messages.PressureBlock, stepCompactMechanical},
		{900, messages.PressureBlock, stepTooLarge}, // still blocked after the compaction
	}
	for i, c := range cases {
		level, step := b.beforeCall(c.tokens)
		if level != c.level || step != c.step {
			t.Errorf("%d: beforeCall(%d) = %q %d, want %q %d", i, c.tokens, level, step, c.level, c.step)
		}
	}
	b.newTurn()
	if _, step := b.beforeCall(650); step != stepCompact {
		t.Errorf("a new turn may not compact: %d", step)
	}
}

func TestBudgetRetriesAnOverflowOnce(t *testing.T) {
	b := contextBudget{window: 1000}
	b.beforeCall(900)
	if !b.overflowed() || b.overflowed() {
		t.Fatal("an overflow is retried exactly once per turn")
	}
	b.retryAfterOverflow()
	if _, step := b.beforeCall(900); step != stepCompactMechanical {
		t.Errorf("the retry may not compact mechanically: %d", step)
	}
	b.newTurn()
	if !b.overflowed() {
		t.Error("a new turn may not retry an overflow")
	}
}

func TestBudgetRunsOneCompactionAtATime(t *testing.T) {
	var b contextBudget
	span := []projection.Item{{Seq: 1}}
	c := b.begin(span, "auto", 10, nil)
	if c == nil || !b.busy() {
		t.Fatal("compaction not started")
	}
	if b.begin(span, "auto", 10, nil) != nil {
		t.Error("a second compaction started while one runs")
	}
	if b.finish(c.id+1) != nil || !b.busy() {
		t.Error("a stale id finished the compaction")
	}
	if b.finish(c.id) != c || b.busy() {
		t.Error("the compaction did not finish")
	}
	b.compacted()
	if b.compactions != 1 {
		t.Errorf("compactions = %d", b.compactions)
	}
	if c2 := b.begin(span, "manual", 10, nil); c2 == nil || c2.id == c.id {
		t.Errorf("ids repeat: %+v", c2)
	}
}
