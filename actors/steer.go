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
// token for that session; the client sends, in the SteerHeader of each control message, the
// token of the session it addresses, which it derives from the token of that session or of an
// ancestor (a subagent's id is its parent's id, "-", its task name); the session's control
// binding refuses input, approvals, cancels, mode and goal changes without it. A token is an
// HMAC chained over the id's "-"-separated parts under a key the Node draws at start and never
// shows, so the holder of a session's token can make its descendants' tokens and no other. A
// remote child's worker gets the child's token in its SpawnTask and checks the same way for
// that child and what it spawns. A watcher never gets a token: its credential may not ask the
// Node subject. Status and goal reads need none.

// SteerHeader carries a client's steer token on a control message: "<session> <mac>".
const SteerHeader = "Troupe-Steer"

// steerKeys makes and checks the steer tokens of base and the sessions under it (base "": a
// Node's own key, over every session). It is immutable once made, so the bus callbacks of every
// session read it without sharing mutable state.
type steerKeys struct {
	base string
	key  []byte
}

func newSteerKeys() (*steerKeys, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("steer key: %w", err)
	}
	return &steerKeys{key: key}, nil
}

// steerKeysFrom reads the keys a token (or its mac alone, for base) stands for.
func steerKeysFrom(base, mac string) *steerKeys {
	key, err := base64.RawURLEncoding.DecodeString(mac)
	if err != nil || len(key) == 0 || !messages.ValidToken(base) {
		return nil
	}
	return &steerKeys{base: base, key: key}
}

// derive is session's key, for a session at or under base (ok false otherwise).
func (k *steerKeys) derive(session string) (key []byte, ok bool) {
	rest := session
	if k.base != "" {
		if session == k.base {
			return k.key, true
		}
		if rest, ok = strings.CutPrefix(session, k.base+"-"); !ok {
			return nil, false
		}
	}
	key = k.key
	for _, part := range strings.Split(rest, "-") {
		h := hmac.New(sha256.New, key)
		h.Write([]byte(part))
		key = h.Sum(nil)
	}
	return key, true
}

// mac is session's key as it travels ("" for a session not under base).
func (k *steerKeys) mac(session string) string {
	key, ok := k.derive(session)
	if !ok {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(key)
}

// token is the header value that steers session ("" for a session not under base).
func (k *steerKeys) token(session string) string {
	mac := k.mac(session)
	if mac == "" {
		return ""
	}
	return session + " " + mac
}

// allows reports whether a control message for session with header value token may steer it.
func (k *steerKeys) allows(session, token string) bool {
	target, mac, ok := strings.Cut(token, " ")
	want := k.mac(session)
	return ok && target == session && want != "" && hmac.Equal([]byte(mac), []byte(want))
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
// may steer it with keys (nil: no check, as for a subagent a worker runs under another's).
func (b *Bridge) BindControl(session string, keys *steerKeys, pid *actor.PID, timeout time.Duration) (*nats.Subscription, error) {
	subject := messages.ControlSubject(b.ns, session)
	if keys == nil {
		return b.BindRequests(subject, pid, timeout)
	}
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
	m  map[string]*steerKeys
}

// keep stores a token the Node handed out ("" when it does not check: nothing to keep).
func (t *steerTokens) keep(token string) {
	session, mac, _ := strings.Cut(token, " ")
	keys := steerKeysFrom(session, mac)
	if keys == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]*steerKeys{}
	}
	t.m[session] = keys
}

// For is the token for session, made from its own or its nearest ancestor's ("" if none).
func (t *steerTokens) For(session string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	for s := session; ; {
		if keys, ok := t.m[s]; ok {
			return keys.token(session)
		}
		i := strings.LastIndexByte(s, '-')
		if i <= 0 {
			return ""
		}
		s = s[:i]
	}
}
