package ui

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// TestTUIShowsMCPToolsChanged: a server's new tool list is one quiet line in the full-screen
// transcript, the line the line-mode printer writes.
func TestTUIShowsMCPToolsChanged(t *testing.T) {
	h := newTUIHarness(t, 100, 24, true)
	h.event(tuiSID, messages.EventMCPToolsChanged, &messages.MCPToolsChangedData{Server: "gh", Added: []string{"mcp__gh__search"}, Tools: 4})
	h.event(tuiSID, messages.EventMCPToolsChanged, &messages.MCPToolsChangedData{Server: "gh", Error: "listing tools: connection closed"})
	scr := h.screen()
	for _, want := range []string{
		"mcp server gh changed its tools: added mcp__gh__search (4 tools from the next turn)",
		"mcp server gh changed its tools: listing tools: connection closed",
	} {
		if strings.Count(scr, want) != 1 {
			t.Errorf("want one line %q:\n%s", want, scr)
		}
	}
}
