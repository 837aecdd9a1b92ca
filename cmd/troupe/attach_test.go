package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

func TestAttachStoredOutcomeExitCodes(t *testing.T) {
	var stderr bytes.Buffer
	m := &Main{Stderr: &stderr}
	for status, want := range map[string]int{"done": 0, "failed": exitFailed, "interrupted": exitInterrupted,
		"cancelled": exitInterrupted, "running": exitInterrupted} {
		err := storedOutcome(m, &messages.SessionInfo{ID: "s1", Status: status, Turns: 2})
		code := 0
		if ee, ok := err.(*exitError); ok {
			code = ee.Code
		}
		if code != want {
			t.Errorf("%s: exit %d, want %d (%v)", status, code, want, err)
		}
	}
}

// troupe's own failures exit 1 and say they are not the user's setup; setup failures exit 2.
func TestOutcomeSaysWhoseFaultItIs(t *testing.T) {
	err := outcome(&messages.SessionFinishedData{Status: messages.StatusFailed, Kind: messages.FailInternal, Error: "append: disk full"})
	var ee *exitError
	if !errors.As(err, &ee) || ee.Code != exitFailed || !strings.Contains(ee.Msg, "not your setup") {
		t.Errorf("internal failure: %+v", err)
	}
	err = outcome(&messages.SessionFinishedData{Status: messages.StatusFailed, Kind: messages.FailConfig, Error: "no key"})
	if !errors.As(err, &ee) || ee.Code != exitUsage {
		t.Errorf("config failure: %+v", err)
	}
}
