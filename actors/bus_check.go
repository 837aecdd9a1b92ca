package actors

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/messages"
)

// ErrNotRefused means the bus let through what a credential kind may not do.
var ErrNotRefused = errors.New("the bus did not refuse it")

// CheckGrants checks that the embedded bus enforces its credentials (troupe doctor): a
// connection without credentials is refused, and the watcher's credential cannot publish to a
// session's inbox (a forged AgentResult) nor to its control subject.
func (b *Bus) CheckGrants(ns string) error {
	if b.server == nil {
		return errors.New("an external server's permissions are its own (docs/WORKERS.md)")
	}
	if nc, err := nats.Connect(b.URL(), nats.Timeout(dialTimeout), nats.NoReconnect()); err == nil {
		nc.Close()
		return fmt.Errorf("a connection without credentials: %w", ErrNotRefused)
	}
	info := &NodeInfo{URL: b.URL(), Creds: b.KeyDir(), NS: ns}
	forged, err := messages.Encode(&messages.AgentResult{Handle: "forged", Session: "probe", Status: messages.AgentDone, Summary: "forged"})
	if err != nil {
		return err
	}
	for _, subject := range []string{messages.InboxSubject(ns, "probe"), messages.ControlSubject(ns, "probe")} {
		if err := PublishRefused(info, KindWatcher, subject, forged); err != nil {
			return err
		}
	}
	return nil
}

// PublishRefused connects to the embedded bus info describes as kind, publishes data to subject, and
// returns nil only when the server answers with a permissions violation.
func PublishRefused(info *NodeInfo, kind CredKind, subject string, data []byte) error {
	refused := make(chan error, 1)
	auth, err := nats.NkeyOptionFromSeed(BusKeyFile(info.Creds, kind))
	if err != nil {
		return err
	}
	opts := append([]nats.Option{auth}, nats.Timeout(dialTimeout), nats.NoReconnect(),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			select {
			case refused <- err:
			default:
			}
		}))
	nc, err := nats.Connect(info.URL, opts...)
	if err != nil {
		return fmt.Errorf("connect as %s: %w", kind, err)
	}
	defer nc.Close()
	if err := nc.Publish(subject, data); err != nil {
		return err
	}
	// The server reports a violation asynchronously; a ping round trip after the publish
	// means the report, if any, is on its way.
	if err := nc.FlushTimeout(dialTimeout); err != nil {
		return err
	}
	select {
	case err := <-refused:
		if errors.Is(err, nats.ErrPermissionViolation) || strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
			return nil
		}
		return fmt.Errorf("%s publishing to %s: %v", kind, subject, err)
	case <-time.After(time.Second):
		return fmt.Errorf("%s publishing to %s: %w", kind, subject, ErrNotRefused)
	}
}
