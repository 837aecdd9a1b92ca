package actors

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/hooks"
)

// ProviderOpener builds a provider for a model string ("provider/model") and base URL, reading
// its keys and endpoints through getenv (the asking client's environment), and returns the
// model name to ask it for.
type ProviderOpener func(model, baseURL string, getenv func(string) string) (llm.Provider, string, error)

// NodeOptions configure a Node.
type NodeOptions struct {
	Root     string // the project root (absolute)
	Log      *slog.Logger
	Provider ProviderOpener
	// Tools builds a session's tool registry; nil means the built-in tools.
	Tools func() (*tools.Registry, error)
	// Environ is the environment tool commands get (explicit; never os.Environ wholesale).
	Environ []string
	Sandbox tools.Sandbox
	Retry   llm.RetryPolicy
	// Agents bounds subagents (depth, siblings running at once, per-child budgets).
	Agents AgentLimits
	// OnPhase, if set, hears StartNode reach "bus" (the bus and the actor system are up, the
	// node answers) and, from other goroutines, "store" (the store is open; before or after
	// "bus"), "start" (a session start arrived) and "session" (a session's setup is built and
	// the store open): the start-up trace, whose first mark of each phase counts.
	OnPhase func(phase string)
	// NATS joins an external NATS server or cluster (comma-separated URLs) instead of starting
	// an embedded one; "" means embedded. BusCredentials authenticate to it ([bus]).
	NATS           string
	BusCredentials BusCredentials
	// Project is the project id, the subjects' <ns> ([project] id); "" derives it from the
	// repository (ProjectID).
	Project string
	// UserConfigDir is the user's troupe config directory (their AGENTS.md and skills); ""
	// means none.
	UserConfigDir string
	// DenyRead and AllowRead are [sandbox] deny_read and allow_read: paths hidden from commands
	// and the file tools beside troupe's credential list, or taken off it (sandbox.HiddenPaths).
	DenyRead, AllowRead []string
	// WebAllowHosts are hosts web_fetch may reach on private addresses ([web] allow_hosts).
	WebAllowHosts []string
	// WebSearch is the search provider web_search uses ([web] search_provider); nil: no
	// web_search.
	WebSearch *tools.SearchConfig
	// MCPServers are the MCP servers whose tools sessions are offered (config.MCPServers).
	MCPServers []config.MCPServer
	// Lessons configure the learning layer ([lessons]).
	Lessons LessonOptions
	// Config fingerprints the configuration the options were built from (node.json records it):
	// a client whose configuration differs has an idle node replaced (nodelink.Connect).
	Config string
	// Background marks a node a client started in the background (troupe serve --idle): one
	// built from another configuration may be replaced; one the user started is never.
	Background bool
	// Hooks are the project's hooks (config.HookList), skipped ones included, fixed for the
	// Node's life; nil: none.
	Hooks *hooks.Set
	// Dispatch lets sessions send subagents to workers ([agents] placement); a nil Open
	// keeps every subagent on this Node.
	Dispatch DispatchOptions
	// Prewarm, if set, is this process's prewarm (StartPrewarm): the Node takes its schemas,
	// and its store when the prewarm started this Node's.
	Prewarm *Prewarm
}

// Node is one troupe process serving one project: the bus, the store, the actor system.
type Node struct {
	ID, NS, Root string

	opts       NodeOptions
	bus        *Bus
	nc         *nats.Conn
	store      *store.Store
	system     *actor.ActorSystem
	bridge     *Bridge
	supervisor *actor.PID
	runs       *runners   // the sessions' and executors' mailbox runs (mailbox_stack.go)
	dispatcher *actor.PID // nil: no workers
	nodeSub    *nats.Subscription
	querySub   *nats.Subscription // read-only queries, open to watchers (bus_queries.go)
	// schemas holds the built-in tools' compiled schemas, shared by every session's registry
	// (the prewarm's, when the Node has one); schemasDone, if set, is closed once StartNode's
	// compilation of them has ended.
	schemas     *tools.SchemaCache
	schemasDone chan struct{}
	mcp         *mcpHub // the MCP server actors; nil without servers
	owners      sessionOwners
	// warned holds the skill problems already logged, so each is logged once per node.
	warned sync.Map
	// hidden is each workspace's credential list and roles the project's role files, read
	// once and kept fresh off the actors that start sessions (node_memo.go).
	hidden  *diskMemo[[]string]
	roles   *diskMemo[loadedRoles]
	lessons *lessonKeeper // the project's lessons, written off the actors (lessons_keeper.go)
}

// StartNode starts the project's store, the bus and the actor system, and records node.json so
// other troupe processes attach. If another process holds the store, the error wraps
// store.ErrLocked: attach to that Node instead. The node answers before its store has finished
// opening (store.Start): a session's setup waits for it (newSessionDeps), so the client's attach
// and the session's setup run while Badger opens, and nothing is written before it is open.
func StartNode(opts NodeOptions) (*Node, error) {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	dir, err := EnsureStateDir(opts.Root)
	if err != nil {
		return nil, err
	}
	n := &Node{ID: nodeID(), Root: opts.Root, opts: opts, schemas: &tools.SchemaCache{}}
	// The bus starts (its namespace found first) and the tools' schemas compile while the
	// store opens: none needs the others, and together they are most of a node's start and its
	// first session's (bench/startup.sh). The node answers once the bus is up; the schemas are
	// waited for by the first registry built (sessionTools), the store by the first session.
	// Spawned in this order, the idle core takes the bus at once, and Badger's open (the longest
	// path, spawned last, by store.Start) runs next on this one, ahead of the schemas; the memos
	// are read once the node answers (warmMemos).
	n.newMemos()
	bus := make(chan busStart, 1)
	go func() { bus <- startBus(opts, BusKeyDir(dir)) }() // ends once the bus is up or failed
	n.schemasDone = make(chan struct{})
	if opts.Prewarm != nil {
		n.schemas = &opts.Prewarm.schemas
	}
	go func() { // ends once the built-in tools' schemas are compiled
		defer close(n.schemasDone)
		if opts.Prewarm != nil {
			<-opts.Prewarm.done // most are compiled there: only this Node's own are left
		}
		n.compileToolSchemas()
	}()
	st := opts.Prewarm.takeStore(filepath.Join(dir, "db")) // started before the orders came
	if st == nil {
		st, err = store.Start(filepath.Join(dir, "db"), opts.Log)
	}
	b := <-bus
	if err != nil {
		if b.err == nil {
			b.bus.Shutdown()
		}
		return nil, err
	}
	n.store = st
	n.lessons = newLessonKeeper(st, opts.Log)
	go n.storeOpened() // ends once the store's open has
	if b.err != nil {
		n.lessons.close()
		st.Close()
		return nil, b.err
	}
	n.NS = b.ns
	n.bus = b.bus
	if n.nc, err = n.bus.Connect("troupe-node"); err != nil {
		n.bus.Shutdown()
		n.lessons.close()
		st.Close()
		return nil, err
	}
	n.system = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(warnOnly{opts.Log.Handler()})
	}))
	n.bridge = NewBridge(n.nc, n.system.Root, n.NS, opts.Log, n.store)
	n.runs = newRunners()
	if n.bridge.steer, err = newSteerKeys(); err != nil { // who may steer a session: steer.go
		n.Close()
		return nil, err
	}
	if n.mcp, err = startMCP(n.system, opts); err != nil {
		n.Close()
		return nil, err
	}
	if opts.Dispatch.Open != nil {
		if n.dispatcher, err = n.system.Root.SpawnNamed(actor.PropsFromProducer(newDispatcher(n.bridge, opts.Dispatch)), "dispatcher"); err != nil {
			n.Close()
			return nil, fmt.Errorf("spawn dispatcher: %w", err)
		}
	}
	props := actor.PropsFromProducer(newSupervisor(n.newSessionDeps), actor.WithSupervisor(sessionSupervision))
	if n.supervisor, err = n.system.Root.SpawnNamed(props, "supervisor"); err != nil {
		n.Close()
		return nil, fmt.Errorf("spawn supervisor: %w", err)
	}
	if n.nodeSub, err = n.nc.Subscribe(messages.NodeSubject(n.NS, n.ID), n.answer); err != nil {
		n.Close()
		return nil, fmt.Errorf("bind node subject: %w", err)
	}
	if n.querySub, err = n.nc.Subscribe(messages.NodeQuerySubject(n.NS, n.ID), n.answerReadOnly); err != nil {
		n.Close()
		return nil, fmt.Errorf("bind node query subject: %w", err)
	}
	// The subscription must reach the server before node.json announces us: a client's first
	// request could otherwise find no responder.
	if err := n.nc.Flush(); err != nil {
		n.Close()
		return nil, fmt.Errorf("bind node subject: %w", err)
	}
	if err := writeNodeFile(n.Root, n.Info()); err != nil {
		n.Close()
		return nil, err
	}
	n.warmMemos()
	n.phase("bus")
	return n, nil
}

// Info is what node.json records.
func (n *Node) Info() *NodeInfo {
	return &NodeInfo{URL: n.bus.URL(), Creds: n.bus.KeyDir(), PID: os.Getpid(), NS: n.NS, Node: n.ID, Root: n.Root, Config: n.opts.Config, Background: n.opts.Background}
}

// Client returns a client on an in-process connection.
func (n *Node) Client() (*Client, error) {
	nc, err := n.bus.Connect("troupe-client")
	if err != nil {
		return nil, err
	}
	return NewClient(nc, n.NS, n.ID), nil
}

// Store is the Node's store (only the Node opens it).
func (n *Node) Store() *store.Store { return n.store }

// Active lists the sessions running on this Node.
func (n *Node) Active() []string {
	res, err := n.system.Root.RequestFuture(n.supervisor, &activeSessions{}, 5*time.Second).Result()
	if err != nil {
		return nil
	}
	ids, _ := res.([]string)
	return ids
}

// Close stops every session (each records itself as interrupted), flushes the store, drains
// the bus, and removes node.json.
func (n *Node) Close() error { return n.close(true) }

// CloseForExit is Close for a process that exits right after: the store is synced to disk but
// not closed. Closing would write the memtable out as a table (with its fsyncs) on the way out;
// left open, the exit releases the store's lock and the next open replays the memtable's log,
// as after a crash, which the store is built to survive with no acknowledged write lost. Never
// open the store again in this process after it.
func (n *Node) CloseForExit() error { return n.close(false) }

func (n *Node) close(closeStore bool) error {
	removeNodeFile(n.Root, os.Getpid())
	for _, sub := range []*nats.Subscription{n.nodeSub, n.querySub} {
		if sub != nil {
			_ = sub.Unsubscribe()
		}
	}
	if n.supervisor != nil {
		_ = n.system.Root.PoisonFuture(n.supervisor).Wait()
	}
	if n.dispatcher != nil {
		_ = n.system.Root.PoisonFuture(n.dispatcher).Wait()
	}
	n.mcp.close()
	n.hidden.close()
	n.roles.close()
	var errs []error
	if n.nc != nil {
		if err := n.nc.Drain(); err != nil {
			errs = append(errs, fmt.Errorf("drain bus: %w", err))
		}
		waitClosed(n.nc, 5*time.Second)
	}
	if n.system != nil {
		n.system.Shutdown()
	}
	n.runs.stop()
	if n.bus != nil {
		n.bus.Shutdown()
	}
	n.lessons.close() // its queued writes land before the store closes
	if n.store != nil {
		if err := n.store.Sync(); err != nil {
			errs = append(errs, err)
		}
		if closeStore {
			if err := n.store.Close(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

func waitClosed(nc *nats.Conn, d time.Duration) {
	deadline := time.Now().Add(d)
	for !nc.IsClosed() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
}

// newSessionDeps is the Node's SessionFactory.
func (n *Node) newSessionDeps(start *messages.StartSession) (SessionDeps, error) {
	// The memory is read once (a /model or /prompt rebuild keeps it: docs/ARCHITECTURE.md,
	// "Memory"), and last: it waits for the store's open, which the rest is built beside.
	var frozen string
	var notices []string
	setup, err := n.sessionSetup(start, func() string {
		frozen, notices = n.frozenMemory(start)
		return frozen
	})
	if err != nil {
		return SessionDeps{}, err
	}
	gate, err := newSessionGate(start, n.opts.Sandbox != nil)
	if err != nil {
		return SessionDeps{}, err
	}
	n.restoreAllowlist(start, gate)
	workspace := start.Workspace
	if workspace == "" {
		workspace = n.Root
	}
	reg := setup.Tools
	reg.AddCheck(gate.Check()) // last: after every validity check
	// The setup above ran while the store may still be opening (StartNode); the session reads
	// and writes it from its start, so it starts only once the store is open.
	if err := n.store.Ready(); err != nil {
		return SessionDeps{}, err
	}
	n.phase("session")
	return SessionDeps{
		Store: n.store, Bridge: n.bridge, Runs: n.runs, Provider: setup.Provider, Model: setup.Model, ModelName: setup.ModelName,
		Tools: reg, Workspace: workspace, Sandbox: n.opts.Sandbox, Skills: setup.Skills, SkillProblems: setup.SkillProblems, Retry: n.opts.Retry, Log: n.opts.Log,
		Executor: n.executorFactory(executorParts{start: start, workspace: workspace, skills: setup.Skills, reg: reg, gate: gate,
			files: n.fileTracker(start), delegates: setup.Delegation != nil}),
		System: setup.System, Instructions: setup.Instructions, Delegation: setup.Delegation, Narrowed: setup.Narrowed,
		Setup: func(st *messages.StartSession) (*SessionSetup, error) {
			return n.sessionSetup(st, func() string { return frozen })
		}, PromptModes: n.promptModes, MCP: n.mcp.statusFunc(), MCPWatch: n.mcp.watchFunc(), MCPPrompts: n.mcp.prompter(start.ID), Lessons: n.lessonBook(start),
		Memory: n.sessionMemory(start), Notices: notices, Hooks: n.opts.Hooks,
	}, nil
}

// sessionTools builds a session's tool registry: the Node's tools (the built-ins and the agent
// tools by default), narrowed to start.Tools for a subagent and by the prompt mode.
func (n *Node) sessionTools(start *messages.StartSession, withSkills bool, pm *config.PromptMode) (*tools.Registry, []NarrowedTool, error) {
	if n.opts.Tools != nil {
		reg, err := n.opts.Tools()
		if err != nil {
			return nil, nil, fmt.Errorf("build tools: %w", err)
		}
		if start.Tools == nil {
			return reg, nil, nil
		}
		return nil, nil, fmt.Errorf("build tools: a custom tool set cannot be narrowed for subagent %s", start.Agent)
	}
	if n.schemasDone != nil {
		<-n.schemasDone // compiled once for every session (StartNode), not again here
	}
	all := n.nodeTools(start.Parent == "", withSkills, n.mcp)
	kept, narrowed := narrowTools(all, start.Role, start.Tools, pm)
	reg, err := tools.NewRegistryWith(n.schemas, kept...)
	if err != nil {
		return nil, nil, fmt.Errorf("build tools: %w", err)
	}
	for _, nt := range narrowed {
		if pm != nil && nt.By == "prompt mode "+pm.Name {
			reg.Withhold(nt.Name, promptModeRefusal(pm)) // a call to it says why, and how to switch
		}
	}
	return reg, narrowed, nil
}

// delegation lets a session with the spawn tool run subagents built by this Node.
func (n *Node) delegation(reg *tools.Registry) *Delegation {
	if _, ok := reg.Spec("spawn_agent"); !ok {
		return nil
	}
	return &Delegation{
		NewChild:    n.newSessionDeps,
		Roles:       func() ([]config.Role, error) { r := n.roles.get(n.Root); return r.roles, r.err },
		ProjectRoot: n.Root,
		Limits:      n.opts.Agents,
		Dispatcher:  n.dispatcher,
		Node:        n.ID,
	}
}
