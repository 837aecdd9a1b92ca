package workercli

import (
	"errors"
	"fmt"
	"testing"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/internal/taskqueue"
)

func TestName(t *testing.T) {
	host := func(h string, err error) func() (string, error) { return func() (string, error) { return h, err } }
	for _, tc := range []struct {
		given, host string
		hostErr     error
		want        string
		usage       bool
	}{
		{given: "box-1", want: "box-1"},
		{given: "a.b", usage: true},
		{given: "a b", usage: true},
		{host: "build.example.com", want: "build"},
		{host: "", usage: true},
		{hostErr: errors.New("no"), usage: true},
	} {
		got, err := Name(tc.given, host(tc.host, tc.hostErr))
		if tc.usage {
			var ce *clierr.Error
			if !errors.As(err, &ce) || ce.Code != clierr.Usage {
				t.Errorf("Name(%q, host %q) = %q, %v; want a usage error", tc.given, tc.host, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Name(%q, host %q) = %q, %v; want %q", tc.given, tc.host, got, err, tc.want)
		}
	}
}

func TestSlotsAndStartErrors(t *testing.T) {
	if _, err := Slots(0); err == nil {
		t.Error("--slots 0 accepted")
	}
	if n, err := Slots(3); n != 3 || err != nil {
		t.Errorf("Slots(3) = %d, %v", n, err)
	}
	for _, tc := range []struct {
		err  error
		code int
	}{
		{&actors.JoinError{URL: "nats://x", Err: errors.New("refused")}, clierr.Usage},
		{fmt.Errorf("task queue: %w", taskqueue.ErrNoJetStream), clierr.Usage},
		{fmt.Errorf("task queue: %w", taskqueue.ErrNotPermitted), clierr.Usage},
		{errors.New("disk full"), clierr.Failed},
	} {
		var ce *clierr.Error
		if err := StartError("nats://x", tc.err); !errors.As(err, &ce) || ce.Code != tc.code {
			t.Errorf("StartError(%v) = %v, want exit %d", tc.err, err, tc.code)
		}
	}
}
