package doctor

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/diagnose"
)

// ProjectCheck says which project id names the subjects and where it came from; an id from
// the local path is a note: another checkout of the project on another machine will not meet
// this one on a shared bus.
func ProjectCheck(root string, cfg *config.Config) check {
	if cfg.Project.ID != "" {
		return check{Name: "project", Status: diagnose.OK, Detail: fmt.Sprintf("id %s (from %s)", cfg.Project.ID, cfg.Origin("Project.ID"))}
	}
	p := actors.ProjectID(root, actors.StateDir(root))
	c := check{Name: "project", Status: diagnose.OK, Detail: fmt.Sprintf("id %s (from %s)", p.ID, p.From)}
	if p.PathOnly {
		c.Status = diagnose.Note
		c.Fix = "checkouts elsewhere will not meet this one on a shared bus: set [project] id in troupe.toml (or add a git remote)"
	}
	return c
}

// Bus checks the bus the project uses. The embedded one: it starts, refuses a connection
// without credentials and a watcher's forged publish, and one line per credential kind says
// what it may publish and subscribe to. An external one (nats): it is joined with the [bus]
// credentials.
func Bus(root string, cfg *config.Config) []check {
	ns := actors.ProjectNamespace(root, cfg.Project.ID)
	var out []check
	if cfg.NATS != "" {
		creds := nodelink.BusCredentials(cfg)
		bus, err := actors.JoinBus(cfg.NATS, creds, slog.New(slog.DiscardHandler))
		if err != nil {
			return []check{{Name: "bus", Status: diagnose.Fail, Detail: err.Error(),
				Fix: "check nats and [bus] (docs/WORKERS.md); the server's log names a refused credential"}}
		}
		bus.Shutdown()
		out = append(out, check{Name: "bus", Status: diagnose.OK,
			Detail: fmt.Sprintf("joined %s with %s; its permissions are the server's (docs/WORKERS.md shows them per kind)", cfg.NATS, creds.Method())})
	} else {
		out = append(out, embeddedBus(ns))
	}
	for _, kind := range actors.CredKinds {
		pub, sub := actors.GrantFor(kind, ns).Describe()
		out = append(out, check{Name: "bus " + string(kind), Status: diagnose.OK, Detail: "publish: " + pub + " · subscribe: " + sub})
	}
	return out
}

// embeddedBus starts an embedded server with throw-away credentials and checks it enforces them.
func embeddedBus(ns string) check {
	dir, err := os.MkdirTemp("", "troupe-doctor-bus-")
	if err != nil {
		return check{Name: "bus", Status: diagnose.Fail, Detail: err.Error()}
	}
	defer os.RemoveAll(dir)
	bus, err := actors.StartBus(slog.New(slog.DiscardHandler), ns, dir)
	if err != nil {
		return check{Name: "bus", Status: diagnose.Fail, Detail: err.Error(), Fix: "troupe needs a free port on 127.0.0.1"}
	}
	defer bus.Shutdown()
	nc, err := bus.Connect("troupe-doctor")
	if err != nil {
		return check{Name: "bus", Status: diagnose.Fail, Detail: err.Error()}
	}
	nc.Close()
	if err := bus.CheckGrants(ns); err != nil {
		return check{Name: "bus", Status: diagnose.Fail, Detail: "embedded NATS does not enforce its credentials: " + err.Error()}
	}
	return check{Name: "bus", Status: diagnose.OK,
		Detail: "embedded NATS starts on 127.0.0.1; each kind of client has its own NKey, and a watcher's forged publish is refused"}
}
