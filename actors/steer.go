package actors

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/messages"
)

// Who may steer a session (docs/WORKERS.md "Who may do what"). The server's permissions let
// every attached client publish on ctl.*; the Node checks which session each may steer. At a
// start (StartSession, StartLoop) or an attach (AttachSession) the Node hands the client a steer
// token for that session, an HMAC of its id under a key the Node draws at start and never
// shows; the client sends it in the SteerHeader of each control message, and the session's
// control binding refuses input, approvals, cancels, mode and goal changes without a token for
// the session or one of its ancestors (a subagent's id is its parent's id, "-", its task
// name). A watcher never gets a token: its credential may not ask the Node subject. Status and
// goal reads need none.

// SteerHeader carries a client's steer token on a control message: "<session> <mac>".
const SteerHeader = "Troupe-Steer"

// steerKeys makes and checks steer tokens. It is immutable once made, so the bus callbacks of
// every session read it without sharing mutable state.
type steerKeys struct{ key []byte }

func newSteerKeys() (*steerKeys, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("steer key: %w", err)
	}
	return &steerKeys{key: key}, nil
}

func (k *steerKeys) mac(session string) string {
	h := hmac.New(sha256.New, k.key)
	h.Write([]byte(session))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// token is the header value that lets its holder steer session and its descendants.
func (k *steerKeys) token(session string) string { return session + " " + k.mac(session) }

// allows reports whether a control message with header value token may steer session.
func (k *steerKeys) allows(session, token string) bool {
	granted, mac, ok := strings.Cut(token, " ")
	if !ok || !hmac.Equal([]byte(mac), []byte(k.mac(granted))) {
		return false
	}
	return session == granted || strings.HasPrefix(session, granted+"-")
}

// steers reports whether a control message steers its session (anything but a read).
func steers(msg any) bool {
	switch msg.(type) {
	case *messages.StatusRequest, *messages.GetGoal:
		return false
	}
	return true
}

// refusedSteer is the one line a client that may not steer session gets.
func refusedSteer(session string) *messages.ErrorReply {
	return &messages.ErrorReply{Error: fmt.Sprintf(
		"session %s refused it: this client neither started nor attached to it (troupe attach %s first; a watch credential never may)", session, session)}
}

// BindControl binds a session's control subject to pid, as BindRequests does, checking who
// may steer it when the Bridge's Node hands out steer tokens (a worker's Bridge does not: its
// sessions' approvals are checked by the server's permissions only).
func (b *Bridge) BindControl(session string, pid *actor.PID, timeout time.Duration) (*nats.Subscription, error) {
	subject := messages.ControlSubject(b.ns, session)
	if b.steer == nil {
		return b.BindRequests(subject, pid, timeout)
	}
	keys := b.steer
	sub, err := b.nc.Subscribe(subject, func(m *nats.Msg) {
		var reply any
		msg, err := b.decode(m.Data)
		switch {
		case err != nil:
			reply = &messages.ErrorReply{Error: err.Error()}
		case steers(msg) && !keys.allows(session, m.Header.Get(SteerHeader)):
			reply = refusedSteer(session)
		default:
			reply = b.askDecoded(pid, msg, timeout)
		}
		b.respondTo(m, subject, reply)
	})
	if err != nil {
		return nil, fmt.Errorf("bind control %s: %w", subject, err)
	}
	return sub, nil
}

// controlMsg is a control message for session, signed by this Bridge's Node (a loop cancelling
// its iteration).
func (b *Bridge) controlMsg(session string, msg any) (*nats.Msg, error) {
	data, err := messages.Encode(msg)
	if err != nil {
		return nil, err
	}
	m := nats.NewMsg(messages.ControlSubject(b.ns, session))
	m.Data = data
	if b.steer != nil {
		m.Header.Set(SteerHeader, b.steer.token(session))
	}
	return m, nil
}

// publishControl sends a control message to session, signed by this Bridge's Node.
func (b *Bridge) publishControl(session string, msg any) error {
	m, err := b.controlMsg(session, msg)
	if err != nil {
		return err
	}
	return b.nc.PublishMsg(m)
}

// steerToken is the token a client that started or attached to session gets ("" when this
// Node does not check).
func (n *Node) steerToken(session string) string {
	if n.bridge == nil || n.bridge.steer == nil {
		return ""
	}
	return n.bridge.steer.token(session)
}

// attach answers AttachSession: a steer token for a session this Node stores (it may run or
// be resumed later). The Node subject it comes on is not a watcher's.
func (n *Node) attach(q *messages.AttachSession) any {
	if !messages.ValidToken(q.Session) {
		return &messages.ErrorReply{Error: fmt.Sprintf("attach: %q is not a session id", q.Session)}
	}
	if _, err := n.store.Meta(q.Session); err != nil {
		return &messages.ErrorReply{Error: fmt.Sprintf("attach: no session %s here (see troupe sessions)", q.Session)}
	}
	return &messages.SessionAccepted{ID: q.Session, Steer: n.steerToken(q.Session)}
}

// steerTokens are the steer tokens a Client holds, by the session each was granted for. The
// client's goroutines (a chat's input and its approvals) share it, hence the lock.
type steerTokens struct {
	mu sync.Mutex
	m  map[string]string
}

// keep stores a token the Node handed out ("" when it does not check: nothing to keep).
func (t *steerTokens) keep(token string) {
	session, _, ok := strings.Cut(token, " ")
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]string{}
	}
	t.m[session] = token
}

// For is the token for session: its own, or its nearest ancestor's ("" if none).
func (t *steerTokens) For(session string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	for s := session; ; {
		if token, ok := t.m[s]; ok {
			return token
		}
		i := strings.LastIndexByte(s, '-')
		if i <= 0 {
			return ""
		}
		s = s[:i]
	}
}
