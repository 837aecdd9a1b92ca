package main

import (
	"bytes"
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
