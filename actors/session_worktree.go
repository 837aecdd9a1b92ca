package actors

import (
	"bytes"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// worktreeCommandTimeout answers /worktree before the control request's own deadline (10 s at
// the bridge); git's merge of a child's branch takes well under it.
const worktreeCommandTimeout = 8 * time.Second

// worktreeCommand is /worktree list|merge NAME|drop NAME on the user's checkout (the project
// root), the same as troupe worktree. git runs off the actor; the answer goes to whoever sent
// the input once it is done (ReenterAfter keeps the sender).
func (s *session) worktreeCommand(ctx actor.Context, arg string) {
	root := s.start.Workspace
	if s.kids.delegation != nil && s.kids.delegation.ProjectRoot != "" {
		root = s.kids.delegation.ProjectRoot
	}
	offActor(ctx, worktreeCommandTimeout, func() string {
		var out bytes.Buffer
		if err := worktree.Run(&out, root, strings.Fields(arg)); err != nil {
			out.WriteString(worktree.Explain(root, err))
		}
		return strings.TrimRight(out.String(), "\n")
	}, func(out string, err error) {
		if err != nil {
			out = "/worktree is still running in the background (" + err.Error() + "); troupe worktree list shows the outcome"
		}
		if ctx.Sender() != nil {
			ctx.Respond(&messages.InputAck{Routed: messages.RoutedCommand, Output: out})
		}
	})
}
