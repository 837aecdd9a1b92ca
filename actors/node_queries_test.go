package actors

import (
	"testing"

	"github.com/troupe-dev/troupe/store"
)

func TestMarkInterruptedKeepsLiveTreesRunning(t *testing.T) {
	metas := []*store.SessionMeta{
		{ID: "live", Status: "running"},
		{ID: "live-child", Parent: "live", Status: "running"},
		{ID: "live-child-grand", Parent: "live-child", Status: "running"},
		{ID: "killed", Status: "running"},
		{ID: "killed-child", Parent: "killed", Status: "running"},
		{ID: "over", Status: "done"},
	}
	markInterrupted(metas, []string{"live"})
	want := map[string]string{"live": "running", "live-child": "running", "live-child-grand": "running",
		"killed": "interrupted", "killed-child": "interrupted", "over": "done"}
	for _, m := range metas {
		if m.Status != want[m.ID] {
			t.Errorf("%s: status %s, want %s", m.ID, m.Status, want[m.ID])
		}
	}
}
