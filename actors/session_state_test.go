package actors

import (
	"strings"
	"testing"
)

func TestTurnStateCountsRepliesInARow(t *testing.T) {
	var cur turnState
	for i := 1; i <= maxEmptyReplies; i++ {
		if f := cur.emptyReply(); f != "" {
			t.Fatalf("empty reply %d of %d failed: %s", i, maxEmptyReplies, f)
		}
	}
	if f := cur.emptyReply(); !strings.Contains(f, "replied with nothing") {
		t.Fatalf("one past the limit: %q", f)
	}
	cur.newInput()
	if f := cur.emptyReply(); f != "" {
		t.Fatalf("the user spoke: the count starts over, got %q", f)
	}
	for i := 1; i <= maxLengthContinues; i++ {
		if f := cur.cutOff(); f != "" {
			t.Fatalf("cut off %d of %d failed: %s", i, maxLengthContinues, f)
		}
	}
	if f := cur.cutOff(); !strings.Contains(f, "output limit") {
		t.Fatalf("one past the limit: %q", f)
	}
}

func TestTurnStateCancelAndRecheck(t *testing.T) {
	var cur turnState
	cur.cancel("")
	if cur.cancelling != "cancelled by the user" {
		t.Fatalf("a cancel without a reason: %q", cur.cancelling)
	}
	cur.cancel("the parent session ended")
	if cur.cancelling != "the parent session ended" {
		t.Fatalf("a cancel with a reason: %q", cur.cancelling)
	}
	if cur.stopRecheck(3, 3) {
		t.Fatal("no recheck in flight, yet one was stopped")
	}
	cur.stopWork() // nothing runs: no panic
}
