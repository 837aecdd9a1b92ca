package actors

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Bus is the Node's embedded NATS server, or the external one it joined. On the embedded one
// the Node's own clients connect in-process (no socket) and other troupe processes over
// 127.0.0.1, each kind with its own NKey and permissions (bus_auth.go, bus_perms.go).
type Bus struct {
	server *server.Server // nil when the Node joined an external server (JoinBus)
	keys   *busKeys       // the embedded server's per-kind credentials
	creds  BusCredentials // how to authenticate to the external server
	url    string         // the external server's URL(s), for JoinBus
	log    *slog.Logger   // where its connections' asynchronous errors go (nil: nowhere)
}

// JoinError is a NATS server given with --nats that could not be joined: a setup mistake.
type JoinError struct {
	URL string
	Err error
}

func (e *JoinError) Error() string {
	return fmt.Sprintf("join the NATS server at %s: %v", e.URL, e.Err)
}
func (e *JoinError) Unwrap() error { return e.Err }

// JoinBus uses an external NATS server or cluster (--nats URL, authenticated with creds or
// credentials in the URL) instead of an embedded one, so Nodes and workers on several machines
// share one bus. The connection is checked at once: a wrong URL or credential fails the start,
// not the first message.
func JoinBus(urls string, creds BusCredentials, logger *slog.Logger) (*Bus, error) {
	auth, err := creds.options()
	if err != nil {
		return nil, &JoinError{URL: urls, Err: err}
	}
	nc, err := nats.Connect(urls, append(auth, nats.Name("troupe-probe"), nats.Timeout(5*time.Second))...)
	if err != nil {
		return nil, &JoinError{URL: urls, Err: err}
	}
	nc.Close()
	return &Bus{url: urls, creds: creds, log: logger}, nil
}

// StartBus starts an embedded NATS server on 127.0.0.1 at a free port for project ns. Every
// connection authenticates with its kind's NKey, whose seeds live in keyDir (BusKeyDir).
func StartBus(logger *slog.Logger, ns, keyDir string) (*Bus, error) {
	keys, err := loadBusKeys(keyDir)
	if err != nil {
		return nil, err
	}
	users, err := keys.users(ns)
	if err != nil {
		return nil, fmt.Errorf("start bus: %w", err)
	}
	opts := &server.Options{
		ServerName: "troupe",
		Host:       "127.0.0.1",
		Port:       server.RANDOM_PORT,
		Nkeys:      users,
		NoSigs:     true,
		MaxPayload: 8 << 20, // tool results and logs travel as single messages
		MaxPending: 64 << 20,
		// No system account: nothing here uses $SYS (server events, account exports), and it
		// costs the idle Node internal clients, subscriptions and send/receive goroutines.
		NoSystemAccount: true,
		// Connections closed are remembered for monitoring's closed list, which troupe never
		// asks for (node_owners.go asks for open ones): 10000 by default, a 80 KB ring.
		MaxClosedClients: 1,
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("start bus: %w", err)
	}
	srv.SetLoggerV2(natsLogger{logger}, false, false, false)
	// Start returns once the listener is bound (the server runs its accept loop and clients on
	// goroutines it owns; Shutdown stops them), so the readiness check below passes at its first
	// look. Started on a goroutine instead, that check would miss and sleep 25 ms.
	srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("start bus: the embedded NATS server did not become ready in 10s")
	}
	return &Bus{server: srv, keys: keys, log: logger}, nil
}

// URL is the address other processes connect to.
func (b *Bus) URL() string {
	if b.server == nil {
		return b.url
	}
	return b.server.ClientURL()
}

// KeyDir is where the embedded bus's per-kind seed files are ("" for an external server).
func (b *Bus) KeyDir() string {
	if b.keys == nil {
		return ""
	}
	return b.keys.dir
}

// Secrets are the credential values tool output must never show: the external server's token
// or password, the embedded bus's seeds.
func (b *Bus) Secrets() []string {
	s := b.creds.Secrets()
	if b.keys != nil {
		for _, kp := range b.keys.keys {
			if seed, err := kp.Seed(); err == nil {
				s = append(s, string(seed))
			}
		}
	}
	return s
}

// Connect opens a connection with the Node's own rights: in-process on the embedded server.
func (b *Bus) Connect(name string) (*nats.Conn, error) {
	if b.server == nil {
		auth, err := b.creds.options()
		if err != nil {
			return nil, err
		}
		nc, err := nats.Connect(b.url, append(auth, nats.Name(name), nats.MaxReconnects(-1), asyncErrors(b.log))...)
		if err != nil {
			return nil, fmt.Errorf("connect to the NATS server at %s: %w", b.url, err)
		}
		return nc, nil
	}
	nc, err := nats.Connect(b.URL(), nats.InProcessServer(b.server), b.keys.nodeOption(), nats.Name(name),
		nats.MaxReconnects(-1), asyncErrors(b.log))
	if err != nil {
		return nil, fmt.Errorf("connect in-process to bus: %w", err)
	}
	return nc, nil
}

// Shutdown stops the server (after the Node has drained its connections).
func (b *Bus) Shutdown() {
	if b.server == nil {
		return // an external server is not ours to stop
	}
	b.server.Shutdown()
	b.server.WaitForShutdown()
}

// dialTimeout and dialPing bound a connection from another process: a hung Node is found by
// pings within a few seconds.
const (
	dialTimeout = 3 * time.Second
	dialPing    = 2 * time.Second
)

// asyncErrors sends a connection's asynchronous errors to logger (nil: drops them) instead of
// nats.go's default, which writes them raw to stderr: "io: read/write on closed pipe on
// connection [6]" over a terminal UI or after a run's last line. A closed pipe or connection is
// only the shutdown racing a last flush, so it is logged at debug level.
func asyncErrors(logger *slog.Logger) nats.Option {
	return nats.ErrorHandler(func(nc *nats.Conn, sub *nats.Subscription, err error) {
		if logger == nil {
			return
		}
		level := slog.LevelWarn
		if errors.Is(err, io.ErrClosedPipe) || errors.Is(err, nats.ErrConnectionClosed) {
			level = slog.LevelDebug
		}
		attrs := []any{"err", err}
		if sub != nil {
			attrs = append(attrs, "subject", sub.Subject)
		}
		logger.Log(context.Background(), level, "bus connection error", attrs...)
	})
}

// natsLogger forwards the NATS server's log to slog: notices at debug (they are routine),
// warnings and errors as such.
type natsLogger struct{ l *slog.Logger }

func (n natsLogger) Noticef(format string, v ...any) { n.l.Debug("nats: " + fmt.Sprintf(format, v...)) }
func (n natsLogger) Warnf(format string, v ...any)   { n.l.Warn("nats: " + fmt.Sprintf(format, v...)) }
func (n natsLogger) Fatalf(format string, v ...any)  { n.l.Error("nats: " + fmt.Sprintf(format, v...)) }
func (n natsLogger) Errorf(format string, v ...any)  { n.l.Error("nats: " + fmt.Sprintf(format, v...)) }
func (n natsLogger) Debugf(format string, v ...any)  {}
func (n natsLogger) Tracef(format string, v ...any)  {}
