package starttrace

import (
	"bytes"
	"strings"
	"testing"
)

func TestStartTraceIsOffUnlessAskedAndMarksEachPhaseOnce(t *testing.T) {
	var buf bytes.Buffer
	off := New(&buf, func(string) string { return "" })
	off.Mark(Main) // a nil trace must be safe to use
	if off != nil || buf.Len() != 0 || off.PhaseFunc() != nil {
		t.Fatalf("trace without %s: %v, wrote %q", Env, off, buf.String())
	}
	on := New(&buf, func(k string) string { return map[string]string{Env: "1"}[k] })
	on.Mark(Main)
	on.PhaseFunc()(Store)
	on.Mark(Main)
	if got, want := buf.String(), "troupe-start main "; !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 2 || !strings.Contains(got, "\ntroupe-start store ") {
		t.Errorf("trace = %q, want main then store, once each", got)
	}
}
