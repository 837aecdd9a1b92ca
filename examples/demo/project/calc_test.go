package calc

import "testing"

func TestSum(t *testing.T) {
	if got := Sum(2, 3, 4); got != 9 {
		t.Fatalf("Sum(2, 3, 4) = %d, want 9", got)
	}
}
