package actors

import (
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

func TestPlacement(t *testing.T) {
	tests := []struct {
		name   string
		in     placeInput
		want   placeWant
		strict bool
	}{
		{"unset is local", placeInput{writes: true, long: true}, placeLocal, false},
		{"local stays local", placeInput{configured: "local", writes: true, long: true}, placeLocal, false},
		{"workers sends a reader out", placeInput{configured: "workers", localFree: true}, placeRemote, true},
		{"auto keeps a reader local while slots are free", placeInput{configured: "auto", localFree: true}, placeLocal, false},
		{"auto sends a reader out when slots are full", placeInput{configured: "auto"}, placeRemote, false},
		{"auto sends a writer out", placeInput{configured: "auto", writes: true, localFree: true}, placeRemote, false},
		{"auto sends a long child out", placeInput{configured: "auto", long: true, localFree: true}, placeRemote, false},
		{"a role pinned local wins over workers", placeInput{configured: "workers", pinned: "local"}, placeLocal, false},
		{"a role pinned to workers wins over local", placeInput{configured: "local", pinned: "workers", localFree: true}, placeRemote, true},
		{"a role pinned auto under workers keeps a reader local", placeInput{configured: "workers", pinned: "auto", localFree: true}, placeLocal, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.in.want(); got != tt.want {
				t.Errorf("want() = %v, want %v", got, tt.want)
			}
			if got := tt.in.strict(); got != tt.strict {
				t.Errorf("strict() = %v, want %v", got, tt.strict)
			}
		})
	}
	for _, w := range []struct {
		mode     messages.Mode
		planSafe bool
		writes   bool
	}{{messages.ModePlan, false, false}, {messages.ModeAsk, true, false}, {messages.ModeAsk, false, true}, {messages.ModeYolo, false, true}} {
		if got := childWrites(w.mode, w.planSafe); got != w.writes {
			t.Errorf("childWrites(%s, %v) = %v, want %v", w.mode, w.planSafe, got, w.writes)
		}
	}
}
