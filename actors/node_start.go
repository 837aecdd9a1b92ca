package actors

// What StartNode runs beside its own steps: the bus start, and the wait for the store's open.

// busStart is the bus StartNode starts beside the store's open and the project namespace it
// serves, or why it failed.
type busStart struct {
	bus *Bus
	ns  string
	err error
}

// startBus finds the project's namespace, then joins the external NATS server opts names with
// its credentials, or starts the embedded one for it with the per-kind seeds in keyDir.
func startBus(opts NodeOptions, keyDir string) busStart {
	b := busStart{ns: ProjectNamespace(opts.Root, opts.Project)}
	if opts.NATS != "" {
		b.bus, b.err = JoinBus(opts.NATS, opts.BusCredentials, opts.Log)
	} else {
		b.bus, b.err = StartBus(opts.Log, b.ns, keyDir)
	}
	return b
}

// storeOpened waits for the store's open to end, says so to the start-up trace ("store"), or
// logs why it failed: then every session's setup fails with that reason (newSessionDeps).
func (n *Node) storeOpened() {
	if err := n.store.Ready(); err != nil {
		n.opts.Log.Error("open the store", "err", err)
		return
	}
	n.phase("store")
}

func (n *Node) phase(name string) {
	if n.opts.OnPhase != nil {
		n.opts.OnPhase(name)
	}
}
