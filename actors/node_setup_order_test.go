package actors

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// A session's setup asks for its memory last: on a node that has just started, the memory's
// project half waits for the store's open, and the model's provider and the tools (their
// schemas compiled) are built before, beside the open.
func TestSessionSetupAsksMemoryLast(t *testing.T) {
	s, err := llm.ParseScript("test", []byte(`{"turns": [{"text": "hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var opened atomic.Bool
	node, err := StartNode(NodeOptions{Root: t.TempDir(),
		Provider: func(model, baseURL string, getenv func(string) string) (llm.Provider, string, error) {
			opened.Store(true)
			return llm.NewScriptedFrom(s), "scripted", nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	asked := 0
	setup, err := node.sessionSetup(&messages.StartSession{ID: "s-order", Model: "scripted"}, func() string {
		asked++
		if !opened.Load() {
			t.Error("memory asked before the provider was opened")
		}
		select {
		case <-node.schemasDone:
		default:
			t.Error("memory asked before the tools' schemas were compiled")
		}
		return "remember the memory mark"
	})
	if err != nil {
		t.Fatal(err)
	}
	if asked != 1 {
		t.Errorf("memory asked %d times, want once", asked)
	}
	if !strings.Contains(setup.System, "remember the memory mark") {
		t.Errorf("the system prompt lacks the memory block:\n%s", setup.System)
	}
}
