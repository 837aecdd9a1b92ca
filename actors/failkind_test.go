package actors

import (
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// Resuming a session the project does not have is the user's mistake (config).
func TestResumingAnUnknownSessionIsConfig(t *testing.T) {
	tn := startTestNode(t, `{"turns": [{"text": "never"}]}`)
	if err := tn.client.StartSession(&messages.StartSession{ID: "nosuch", Resume: true, Model: "scripted", Workspace: tn.Root}); err == nil {
		fin := tn.waitFinished(t, "nosuch")
		if fin.Kind != messages.FailConfig {
			t.Fatalf("finished %+v, want kind config", fin)
		}
	}
}
