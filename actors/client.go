package actors

import (
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/messages"
)

// Client talks to a Node over the bus: the CLI uses it whether the Node runs in its own process
// (in-process connection) or in another one (TCP with the token from node.json).
type Client struct {
	nc       *nats.Conn
	NS, Node string
	nodePID  int // the Node's process when it runs in another one (0: unknown or this process)
	steer    *steerTokens
}

// NewClient wraps a connection to the Node's bus.
func NewClient(nc *nats.Conn, ns, node string) *Client {
	return &Client{nc: nc, NS: ns, Node: node, steer: &steerTokens{}}
}

// NewNodeClient wraps a connection (from Dial) to the Node node.json described. Alive also
// watches that Node's process, so a Node that died is noticed at once.
func NewNodeClient(nc *nats.Conn, info *NodeInfo) *Client {
	return &Client{nc: nc, NS: info.NS, Node: info.Node, nodePID: info.PID, steer: &steerTokens{}}
}

// ConnID is this client's connection id on the Node's bus: the Owner of the sessions it
// starts and follows (0 if the bus did not say).
func (c *Client) ConnID() uint64 {
	id, err := c.nc.GetClientID()
	if err != nil {
		return 0
	}
	return id
}

// Close closes the client's connection.
func (c *Client) Close() {
	_ = c.nc.Drain()
}

// requestTimeout bounds every control request; the actors answer without blocking, so a
// timeout means the Node is gone or wedged.
const requestTimeout = 15 * time.Second

// startTimeout bounds a session start. The supervisor always answers one (the session is up,
// it failed while starting, or it stopped), so this only bounds a wedged node; it is long
// because a start does disk work and may wait for the session's previous run to stop.
const startTimeout = 2 * time.Minute

func (c *Client) request(subject string, msg any) (any, error) {
	return c.requestWithin(subject, msg, requestTimeout)
}

func (c *Client) requestWithin(subject string, msg any, timeout time.Duration) (any, error) {
	data, err := messages.Encode(msg)
	if err != nil {
		return nil, err
	}
	return c.send(nats.NewMsg(subject), data, timeout)
}

// control asks session something on its control subject, with this client's steer token for
// it (steer.go), if it has one.
func (c *Client) control(session string, msg any) (any, error) {
	data, err := messages.Encode(msg)
	if err != nil {
		return nil, err
	}
	m := nats.NewMsg(messages.ControlSubject(c.NS, session))
	if token := c.steer.For(session); token != "" {
		m.Header.Set(SteerHeader, token)
	}
	return c.send(m, data, requestTimeout)
}

func (c *Client) send(m *nats.Msg, data []byte, timeout time.Duration) (any, error) {
	subject := m.Subject
	m.Data = data
	resp, err := c.nc.RequestMsg(m, timeout)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) {
			return nil, fmt.Errorf("%s is not running", messages.Describe(subject))
		}
		if errors.Is(err, nats.ErrTimeout) {
			return nil, fmt.Errorf("%s did not answer in %s", messages.Describe(subject), requestTimeout)
		}
		return nil, fmt.Errorf("ask %s: %w", messages.Describe(subject), err)
	}
	reply, err := messages.Decode(resp.Data)
	if err != nil {
		return nil, err
	}
	if e, ok := reply.(*messages.ErrorReply); ok {
		return nil, errors.New(e.Error)
	}
	return reply, nil
}

// StartSession asks the Node to start (or resume) a session. Subscribe to its events first.
func (c *Client) StartSession(start *messages.StartSession) error {
	reply, err := c.requestWithin(messages.NodeSubject(c.NS, c.Node), start, startTimeout)
	if ok, isAccepted := reply.(*messages.SessionAccepted); isAccepted {
		c.steer.keep(ok.Steer)
	}
	return err
}

// Attach asks the Node for the right to steer a session this client did not start: its
// input, approvals (its subagents' too), cancel and mode (docs/WORKERS.md "Who may do what").
func (c *Client) Attach(session string) error {
	reply, err := c.request(messages.NodeSubject(c.NS, c.Node), &messages.AttachSession{Session: session})
	if err != nil {
		return err
	}
	if ok, isAccepted := reply.(*messages.SessionAccepted); isAccepted {
		c.steer.keep(ok.Steer)
	}
	return nil
}

// Input sends a line of user input to a session.
func (c *Client) Input(session, text string) (*messages.InputAck, error) {
	reply, err := c.control(session, &messages.UserInput{Text: text})
	if err != nil {
		return nil, err
	}
	ack, _ := reply.(*messages.InputAck)
	return ack, nil
}

// Cancel cuts off a session's running turn (and ends a headless session as interrupted).
func (c *Client) Cancel(session, reason string) error {
	_, err := c.control(session, &messages.Cancel{Reason: reason})
	return err
}

// Approve answers a pending approval request of a session: allow, deny or allow-session.
func (c *Client) Approve(session, callID string, answer messages.Answer, by string) error {
	_, err := c.control(session, &messages.Approve{CallID: callID, Answer: answer, By: by})
	return err
}

// SetMode switches a running session's permission mode.
func (c *Client) SetMode(session, mode string) (*messages.StatusReply, error) {
	reply, err := c.control(session, &messages.SetMode{Mode: messages.Mode(mode)})
	if err != nil {
		return nil, err
	}
	st, _ := reply.(*messages.StatusReply)
	return st, nil
}

// Status asks a session for its state.
// It asks through the Node's read-only query subject, which every credential kind may use.
func (c *Client) Status(session string) (*messages.StatusReply, error) {
	reply, err := c.request(messages.NodeQuerySubject(c.NS, c.Node), &messages.StatusRequest{Session: session})
	if err != nil {
		return nil, err
	}
	st, _ := reply.(*messages.StatusReply)
	return st, nil
}

// Sessions lists the stored sessions, most recently touched first.
func (c *Client) Sessions() ([]messages.SessionInfo, error) {
	reply, err := c.request(messages.NodeQuerySubject(c.NS, c.Node), &messages.ListSessions{})
	if err != nil {
		return nil, err
	}
	return reply.(*messages.SessionList).Sessions, nil
}

// RepairStats returns the project's per-model repair counters.
func (c *Client) RepairStats() ([]messages.RepairCounts, error) {
	reply, err := c.request(messages.NodeQuerySubject(c.NS, c.Node), &messages.GetRepairStats{})
	if err != nil {
		return nil, err
	}
	return reply.(*messages.RepairStatsReply).Models, nil
}

// Log returns a session and its whole stored log, fetched page by page.
func (c *Client) Log(session string) (*messages.SessionInfo, []messages.LogEntry, error) {
	var meta *messages.SessionInfo
	var all []messages.LogEntry
	err := c.LogPages(session, func(m *messages.SessionInfo, page []messages.LogEntry) error {
		meta, all = m, append(all, page...)
		return nil
	})
	return meta, all, err
}

// LogPages calls fn with the session and each page of its log in order, so a long session is
// shown as it arrives and never has to fit in one bus message. fn's error stops the paging.
func (c *Client) LogPages(session string, fn func(*messages.SessionInfo, []messages.LogEntry) error) error {
	var after uint64
	for {
		reply, err := c.request(messages.NodeQuerySubject(c.NS, c.Node), &messages.GetLog{Session: session, After: after})
		if err != nil {
			return err
		}
		lr := reply.(*messages.LogReply)
		if err := fn(&lr.Meta, lr.Entries); err != nil {
			return err
		}
		if !lr.More || len(lr.Entries) == 0 {
			return nil
		}
		after = lr.Entries[len(lr.Entries)-1].Seq
	}
}

// Subscribe delivers the envelopes published on subject (see messages.SessionEventsSubject and
// messages.ProjectEventsSubject) to fn, in order, from the connection's goroutine.
func (c *Client) Subscribe(subject string, fn func(*messages.Envelope)) (*nats.Subscription, error) {
	sub, err := c.nc.Subscribe(subject, func(m *nats.Msg) {
		var env messages.Envelope
		if messages.DecodeEnvelope(m.Data, &env) == nil {
			fn(&env)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("subscribe %s: %w", subject, err)
	}
	// A monitor must never be dropped as a slow consumer: events are small and bounded by the run.
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		return nil, err
	}
	return sub, c.nc.Flush()
}

// SubscribeRawFor is SubscribeRaw without the round trip that waits for the server to have the
// subscription, for a caller whose next step is a request on this client's connection that makes
// the messages (a session's start, making its events): the server reads one connection's
// messages in order, so the subscription is in place before the request reaches the Node, and so
// before anything the request makes is published.
func (c *Client) SubscribeRawFor(subject string, fn func([]byte)) (*nats.Subscription, error) {
	sub, err := c.nc.Subscribe(subject, func(m *nats.Msg) { fn(m.Data) })
	if err != nil {
		return nil, fmt.Errorf("subscribe %s: %w", subject, err)
	}
	return sub, sub.SetPendingLimits(-1, -1)
}

// SubscribeRaw delivers the raw bytes of each event (for `--json` output without re-encoding).
func (c *Client) SubscribeRaw(subject string, fn func([]byte)) (*nats.Subscription, error) {
	sub, err := c.nc.Subscribe(subject, func(m *nats.Msg) { fn(m.Data) })
	if err != nil {
		return nil, fmt.Errorf("subscribe %s: %w", subject, err)
	}
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		return nil, err
	}
	return sub, c.nc.Flush()
}

// Alive reports whether the Node is still there: its process lives (when it runs in another
// one) and the connection to its bus is up. Dial gives up on a connection the moment it
// drops, and pings the Node, so a Node that died or hangs is noticed within seconds.
func (c *Client) Alive() bool {
	if c.nodePID != 0 && !ProcessAlive(c.nodePID) {
		return false
	}
	return c.nc.IsConnected() || c.nc.IsReconnecting()
}

// NodePID is the Node's process id when it runs in another process, else 0.
func (c *Client) NodePID() int { return c.nodePID }

// Lessons returns the project's lessons, best first, and a line per record that could not be
// read.
func (c *Client) Lessons() (*messages.LessonList, error) {
	reply, err := c.request(messages.NodeQuerySubject(c.NS, c.Node), &messages.ListLessons{})
	if err != nil {
		return nil, err
	}
	return reply.(*messages.LessonList), nil
}

// ForgetLesson deletes the lesson whose id is (or starts with) id, and returns its whole id.
func (c *Client) ForgetLesson(id string) (string, error) {
	reply, err := c.request(messages.NodeSubject(c.NS, c.Node), &messages.ForgetLesson{ID: id})
	if err != nil {
		return "", err
	}
	return reply.(*messages.LessonForgotten).ID, nil
}
