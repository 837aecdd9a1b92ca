//go:build linux

package swaprace

import (
	"context"
	"testing"
)

// TestNoToolLeaksThroughASwappedDirectory runs a short swap race per file tool: no result may
// show outside content and no outside file may be created or changed.
func TestNoToolLeaksThroughASwappedDirectory(t *testing.T) {
	attempts := 300
	if testing.Short() {
		attempts = 100
	}
	for _, tool := range Tools {
		t.Run(tool, func(t *testing.T) {
			st, err := Run(context.Background(), t.TempDir(), tool, attempts)
			if err != nil {
				t.Fatal(err)
			}
			t.Log(st)
			if st.Leaks != 0 {
				t.Errorf("%s: %d leaks in %d attempts", tool, st.Leaks, st.Attempts)
			}
			if st.Swaps == 0 {
				t.Errorf("%s: the racer made no swap; the test raced nothing", tool)
			}
		})
	}
}
