package taskqueue

import (
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/internal/natstest"
)

// startJetStream runs Debian's stock nats-server with JetStream as a single node and returns
// its URL.
func startJetStream(t *testing.T) string {
	t.Helper()
	return natstest.Start(t, natstest.Options{}).URL()
}

func connect(t *testing.T, url string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}
