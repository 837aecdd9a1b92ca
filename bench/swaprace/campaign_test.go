//go:build linux && campaign

package swaprace

import (
	"context"
	"flag"
	"fmt"
	"testing"
)

var campaignAttempts = flag.Int("attempts", 10_000, "swap-race attempts per tool")

// TestCampaign is the full swap race, printed per tool:
//
//	go test -tags campaign -run Campaign -v -count=1 ./bench/swaprace -attempts 10000
func TestCampaign(t *testing.T) {
	leaks := 0
	for _, tool := range Tools {
		st, err := Run(context.Background(), t.TempDir(), tool, *campaignAttempts)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println(st)
		leaks += st.Leaks
	}
	if leaks != 0 {
		t.Errorf("%d leaks in all", leaks)
	}
}
