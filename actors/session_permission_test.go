package actors

import (
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

func TestSessionConfigSwitchMode(t *testing.T) {
	tests := []struct {
		name     string
		from, to messages.Mode
		wantErr  bool
		mode     messages.Mode // the mode after
	}{
		{name: "to auto-edit", from: messages.ModeAsk, to: messages.ModeAutoEdit, mode: messages.ModeAutoEdit},
		{name: "to plan from none", to: messages.ModePlan, mode: messages.ModePlan},
		{name: "no such mode changes nothing", from: messages.ModeYolo, to: "sideways", wantErr: true, mode: messages.ModeYolo},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &sessionConfig{}
			c.Mode = tc.from
			msg := &messages.SetMode{Mode: tc.to, By: "cli"}
			st, err := c.switchMode(msg)
			if (err != nil) != tc.wantErr || c.mode() != tc.mode {
				t.Fatalf("err %v, mode %q; want error %v, mode %q", err, c.mode(), tc.wantErr, tc.mode)
			}
			if st.next != turnStays {
				t.Fatalf("a mode switch moves the turn: next %d", st.next)
			}
			if tc.wantErr {
				if st.tell != nil || len(st.emit) != 0 || len(st.audit) != 0 {
					t.Fatalf("a refused switch still acts: %+v", st)
				}
				return
			}
			if st.tell != msg || len(st.emit) != 1 || st.emit[0].EventType() != messages.SessionModeEvent.Type || len(st.audit) != 1 {
				t.Fatalf("switch step = %+v, want the mode to the executor, one event and one audit entry", st)
			}
		})
	}
}
