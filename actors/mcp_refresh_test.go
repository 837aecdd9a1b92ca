package actors

import (
	"errors"
	"slices"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// TestMCPRefreshDecides: a rebuild starts only with news and never twice at once; a built
// setup is handed over only while idle and nothing is building; the report names what the
// swap added and removed, and why it failed.
func TestMCPRefreshDecides(t *testing.T) {
	var m mcpRefresh
	if m.start() {
		t.Fatal("a rebuild started with no news")
	}
	m.note(&messages.MCPToolsChanged{Server: "gh", Version: 1})
	if !m.start() || m.start() {
		t.Fatal("a rebuild must start once with news, and not again while it runs")
	}
	if _, ok := m.take(true); ok {
		t.Fatal("taken while still building")
	}
	m.note(&messages.MCPToolsChanged{Server: "gh", Version: 2})
	m.built(&SessionSetup{}, nil)
	if _, ok := m.take(false); ok {
		t.Fatal("taken while the session is busy")
	}
	taken, ok := m.take(true)
	if !ok || taken.ready == nil || len(taken.changed) != 2 {
		t.Fatalf("take when idle: ok=%v %+v", ok, taken)
	}
	if _, again := m.take(true); again || m.start() {
		t.Fatal("after a take the refresh starts afresh")
	}
	d := taken.report([]string{"read_file", "mcp__gh__a"}, []string{"read_file", "mcp__gh__b"}, nil)
	if d.Version != 2 || d.Tools != 2 || !slices.Equal(d.Added, []string{"mcp__gh__b"}) || !slices.Equal(d.Removed, []string{"mcp__gh__a"}) || d.Error != "" {
		t.Errorf("report: %+v", d)
	}
	if d := taken.report(nil, nil, errors.New("boom")); d.Error == "" {
		t.Errorf("a failed swap must say so: %+v", d)
	}
}
