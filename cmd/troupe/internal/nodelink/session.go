package nodelink

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/messages"
)

// Attach connects to the project's running Node without starting one: answering or steering a
// session only makes sense while it runs. It connects with the client credential.
func Attach(root string, cfg *config.Config) (*actors.Client, error) {
	info, err := actors.FindNode(root, cfg.NATS)
	if err != nil {
		return nil, clierr.Failf("no troupe node is running in %s: start a session with troupe run or troupe chat", root)
	}
	nc, err := actors.Dial(info, actors.KindClient, BusCredentials(cfg), "troupe-cli")
	if err != nil {
		return nil, clierr.Failf("attach to the troupe node at %s: %v", info.URL, err)
	}
	return actors.NewClient(nc, info.NS, info.Node), nil
}

// SessionByID finds a stored session by its id or a unique suffix or prefix of it.
func SessionByID(c *actors.Client, id string) (string, error) {
	if strings.TrimSpace(id) == "" {
		return "", clierr.Usagef("no session id given (see 'troupe sessions')")
	}
	metas, err := c.Sessions()
	if err != nil {
		return "", err
	}
	var matches []string
	for _, meta := range metas {
		if meta.ID == id {
			return id, nil
		}
		if strings.HasSuffix(meta.ID, id) || strings.HasPrefix(meta.ID, id) {
			matches = append(matches, meta.ID)
		}
	}
	switch len(matches) {
	case 0:
		return "", clierr.Usagef("no session %s in this project (see 'troupe sessions')", id)
	case 1:
		return matches[0], nil
	}
	return "", clierr.Usagef("%s matches %d sessions (%s, …): give more of the id (see 'troupe sessions')", id, len(matches), matches[0])
}

// Approve answers the tool call callID waiting for approval, in session (an id or a unique
// part of one) or, with session empty, in whichever running session of the node has it pending
// (subagents' sessions included), and says so on w. A session that already ended is one line
// saying so: nothing waits there any more.
func Approve(w io.Writer, client *actors.Client, session, callID string, answer messages.Answer) error {
	by := "troupe approve"
	metas, err := client.Sessions()
	if err != nil {
		return err
	}
	if session != "" {
		id, err := SessionByID(client, session)
		if err != nil {
			return err
		}
		for _, meta := range metas {
			if meta.ID == id && meta.Status != string(messages.StatusRunning) {
				return clierr.Failf("session %s already ended (%s): no call waits for approval there", id, meta.Status)
			}
		}
		if err := attachedApprove(client, id, callID, answer, by); err != nil {
			return clierr.Failf("%s", err.Error())
		}
		fmt.Fprintf(w, "%s (session %s): %s\n", callID, id, answer)
		return nil
	}
	var holders []string
	for _, meta := range metas {
		if meta.Status != string(messages.StatusRunning) {
			continue
		}
		st, err := client.Status(meta.ID)
		if err != nil {
			continue // it ended meanwhile
		}
		for _, p := range st.Pending {
			if p.CallID == callID {
				holders = append(holders, meta.ID)
			}
		}
	}
	switch len(holders) {
	case 0:
		return clierr.Failf("no running session has call %s waiting for approval (troupe approvals lists what waits)", callID)
	case 1:
	default:
		return clierr.Usagef("call %s waits in %d sessions (%s): say which with --session", callID, len(holders), strings.Join(holders, ", "))
	}
	if err := attachedApprove(client, holders[0], callID, answer, by); err != nil {
		return clierr.Failf("%s", err.Error())
	}
	fmt.Fprintf(w, "%s (session %s): %s\n", callID, holders[0], answer)
	return nil
}

// Gone says, in one line, that the Node a client followed session id on is gone and how to
// continue the session.
func Gone(c *actors.Client, id string) string {
	node := "the troupe node"
	if pid := c.NodePID(); pid != 0 {
		node = fmt.Sprintf("the troupe node (pid %d)", pid)
	}
	return fmt.Sprintf("%s is gone; troupe resume %s continues the session", node, id)
}

// ChooseSession finds the session a resuming chat opens: resume (an id or a unique part of
// one), else the latest (continueLast), else the one pick chooses from the newest first.
// Subagents' sessions are not offered: their parent is the conversation.
func ChooseSession(c *actors.Client, resume string, continueLast bool, pick func([]messages.SessionInfo) (string, error)) (string, error) {
	if resume != "" {
		return SessionByID(c, resume)
	}
	metas, err := c.Sessions()
	if err != nil {
		return "", err
	}
	metas = slices.DeleteFunc(metas, func(s messages.SessionInfo) bool { return s.Parent != "" })
	slices.SortStableFunc(metas, func(a, b messages.SessionInfo) int { return b.Updated.Compare(a.Updated) })
	if len(metas) == 0 {
		return "", clierr.Usagef("no session to resume in this project yet: start one with troupe chat (troupe sessions lists them)")
	}
	if continueLast {
		return metas[0].ID, nil
	}
	return pick(metas)
}

// RunningSessions counts the top-level sessions running on the node and lists those a chat is
// attached to.
func RunningSessions(root string, cfg *config.Config) (active int, chats []string) {
	client, err := Attach(root, cfg)
	if err != nil {
		return 0, nil
	}
	defer client.Close()
	metas, err := client.Sessions()
	if err != nil {
		return 0, nil
	}
	for _, meta := range metas {
		if meta.Status != string(messages.StatusRunning) || meta.Parent != "" {
			continue
		}
		active++
		if meta.Attached {
			chats = append(chats, meta.ID)
		}
	}
	return active, chats
}

// attachedApprove attaches to a session (the Node lets only a client that started or attached
// to a session steer it: docs/WORKERS.md "Who may do what") and answers its pending call.
func attachedApprove(client *actors.Client, id, callID string, answer messages.Answer, by string) error {
	if err := client.Attach(id); err != nil {
		return err
	}
	return client.Approve(id, callID, answer, by)
}

// WatchedSession is the full id of the session watch was asked to follow, checked against the
// project's sessions when a node runs (a mistyped id is one line and exit 2, as for log and
// attach, not a watch that never shows anything); with no node running it stays as given.
func WatchedSession(root string, cfg *config.Config, session string) (string, error) {
	if session == "" {
		return "", nil
	}
	client, err := AttachIfRunning(root, cfg)
	if client == nil || err != nil {
		return session, nil // watch waits for the node and says so
	}
	defer client.Close()
	return SessionByID(client, session)
}

// AttachIfRunning attaches to the project's running Node, or is nil (with no error) when no
// Node runs there.
func AttachIfRunning(root string, cfg *config.Config) (*actors.Client, error) {
	if _, err := actors.FindNode(root, cfg.NATS); errors.Is(err, actors.ErrNoNode) {
		return nil, nil
	}
	return Attach(root, cfg)
}
