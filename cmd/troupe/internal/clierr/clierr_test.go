package clierr

import (
	"errors"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
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
