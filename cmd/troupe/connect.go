package main

import (
	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/background"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodeconf"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/setup"
	"github.com/troupe-dev/troupe/llm"
)

// link is this process's connection to the project's Node: attached to one running in another
// process, or owning one it started itself.
type link struct {
	client *actors.Client
	node   *actors.Node // non-nil when this process owns the Node
}

// connect attaches to the project's running Node, or starts one: in the background (troupe
// serve, see NodeProcess) or in this process (nodelink).
// starts says the command starts sessions: then a background node built from another
// configuration is replaced when idle (nodelink.Options.Config).
func (m *Main) connect(s *settings, starts bool) (*link, error) {
	o := nodelink.Options{Root: s.root, NATS: s.cfg.NATS, Creds: nodelink.BusCredentials(s.cfg), Log: m.log, Trace: m.trace, Stderr: m.Stderr,
		NodeOptions: func() (actors.NodeOptions, error) { return m.nodeOptions(s) },
		Started:     func(n *actors.Node) { s.wire.Set(n.Store()) }}
	if m.NodeProcess && starts {
		o.Config = m.project(s).Fingerprint()
	}
	if m.NodeProcess {
		o.Spawn = func() (*actors.NodeInfo, error) {
			return background.Start(background.Options{Root: s.root, NATS: s.cfg.NATS, NATSCreds: s.cfg.Bus.Creds, Sandbox: s.cfg.Sandbox, Idle: background.IdleFrom(m.Getenv)})
		}
	}
	client, node, err := nodelink.Connect(o)
	if err != nil {
		return nil, err
	}
	return &link{client: client, node: node}, nil
}

// nodeOptions are the options of a node started in this process (nodeconf.Project.Options),
// with the prewarm of a node started early.
func (m *Main) nodeOptions(s *settings) (actors.NodeOptions, error) {
	s.wire = &llm.MemoryRef{}
	opts, err := m.project(s).Options(m.log, m.trace, s.wire)
	opts.Prewarm = m.prewarm
	return opts, err
}

// prewarmNode starts what a node process can do before its orders come (actors.StartPrewarm)
// while it waits for them (prespawn.Args), and returns what undoes it if none come.
func (m *Main) prewarmNode() (dropped func()) {
	root, _ := setup.ProjectRoot() // "" on an error: the orders' directory decides
	m.prewarm = actors.StartPrewarm(root, setup.Logger(m.Stderr, m.Getenv("TROUPE_LOG")))
	return m.prewarm.Drop
}

// project is the node configuration of the resolved settings, built once per process.
func (m *Main) project(s *settings) *nodeconf.Project {
	if s.node == nil {
		s.node = &nodeconf.Project{Root: s.root, Cfg: s.cfg, Getenv: m.Getenv, Warn: m.Stderr}
	}
	return s.node
}

// withNode runs fn with a client of the project's Node: the running one, or one started in this
// process for the call (it stops again after, once sessions started elsewhere on it are done).
func (m *Main) withNode(fn func(c *actors.Client) error) error {
	s, err := m.resolve(nil)
	if err != nil {
		return err
	}
	l, err := m.connect(s, false)
	if err != nil {
		return err
	}
	defer l.close(m, "")
	return fn(l.client)
}

// close lets go of the Node (nodelink.Close); own is this process's own session, if any.
func (l *link) close(m *Main, own string) {
	nodelink.Close(l.client, l.node, own, m.Stderr, m.ExitAfterRun)
}
