package clierr

import (
	"errors"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// troupe's own failures exit 1 and say they are not the user's setup; setup failures exit 2.
func TestOutcomeSaysWhoseFaultItIs(t *testing.T) {
	err := Outcome(&messages.SessionFinishedData{Status: messages.StatusFailed, Kind: messages.FailInternal, Error: "append: disk full"})
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != Failed || !strings.Contains(ee.Msg, "not your setup") {
		t.Errorf("internal failure: %+v", err)
	}
	err = Outcome(&messages.SessionFinishedData{Status: messages.StatusFailed, Kind: messages.FailConfig, Error: "no key"})
	if !errors.As(err, &ee) || ee.Code != Usage {
		t.Errorf("config failure: %+v", err)
	}
}

// A command's own error exits 1 unless it already carries a code; a damaged store exits 2.
func TestFailureKeepsCodesAndMakesTheRestExitOne(t *testing.T) {
	var ee *Error
	if err := Failure(errors.New("dial tcp: refused")); !errors.As(err, &ee) || ee.Code != Failed || ee.Msg != "dial tcp: refused" {
		t.Errorf("plain error: %+v", err)
	}
	if err := Failure(Usagef("bad flag")); !errors.As(err, &ee) || ee.Code != Usage {
		t.Errorf("usage error: %+v", err)
	}
	if err := Failure(&store.DamageError{}); !errors.As(err, &ee) || ee.Code != Usage {
		t.Errorf("damaged store: %+v", err)
	}
	if Failure(nil) != nil {
		t.Error("nil is not a failure")
	}
}
