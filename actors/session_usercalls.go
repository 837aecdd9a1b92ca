package actors

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
)

// The session's half of the chat's own calls (usercalls.go): it sends them to its executor as
// it sends the model's, shows them as tool events, and puts what they return into the
// context as notes. While they run the session is executing: other input gets the busy
// answer, a Cancel stops them, and their approval requests are answered like the model's.

// userPreviewBytes bounds the output a user call's tool.finished carries: more than a model
// call's, since the user ran it to read it (the context gets the tool's own bounded result).
const userPreviewBytes = 16 << 10

// userState is the chat's calls in flight and how many lines made some.
type userState struct {
	calls *userCalls
	lines int
}

// begin takes the calls of the next line that makes some, in turn, as a batch: the batch's
// unique ids become the calls' (the executor and the log see those).
func (us *userState) begin(u *userCalls, turn int) *toolBatch {
	us.lines++
	batch, calls := newToolBatch(turn, u.calls)
	u.calls = calls
	us.calls = u
	return batch
}

// runShell is "!command".
func (s *session) runShell(ctx actor.Context, command string) *messages.InputAck {
	if command == "" {
		return commandOutput("! needs a command after it: !git status runs git status under the session's permissions")
	}
	s.startUserCalls(ctx, shellCalls(s.user.lines+1, command))
	return &messages.InputAck{Routed: messages.RoutedShell}
}

// attachMentions reads the @paths of a line for the model first; false when it mentions none.
func (s *session) attachMentions(ctx actor.Context, text string) bool {
	u := mentionCalls(s.user.lines+1, text)
	if u == nil {
		return false
	}
	s.startUserCalls(ctx, u)
	return true
}

// startUserCalls sends a line's calls to the executor, in order.
func (s *session) startUserCalls(ctx actor.Context, u *userCalls) {
	s.cur.batch = s.user.begin(u, s.turn)
	s.become(phaseExecuting, s.userCalling)
	for _, c := range u.calls {
		s.emit(messages.ToolProposedEvent.Of(s.cur.callData(s.turn, c)))
		ctx.Send(s.links.toolexec, &messages.ToolRequest{Turn: s.turn, CallID: c.ID, Name: c.Name, Args: c.Args, ReplyTo: s.links.addr})
	}
}

// userCalling waits for the results of the chat's own calls.
func (s *session) userCalling(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *messages.ToolStarted:
		s.emit(s.cur.toolStarted(s.turn, msg, time.Now()))
	case *messages.ApprovalNeeded:
		s.emit(s.cur.approvalNeeded(msg))
	case *messages.ToolDecision:
		s.takeTurnStep(ctx, s.cur.decided(s.turn, msg))
		if msg.Decision == messages.DecisionDenied || msg.Decision == messages.DecisionRejected {
			s.user.calls.refused = true // the command never ran: nothing to tell the model
		}
	case *messages.ToolResult:
		s.onUserResult(ctx, msg)
	case *messages.Cancel:
		s.respond(ctx, &messages.InputAck{Routed: messages.RoutedCommand, Output: "cancelling"})
		if u := s.user.calls; u.cancelled == "" {
			u.cancelled = msg.Reason
			ctx.Send(s.links.toolexec, &messages.Cancel{Reason: msg.Reason})
		}
	case *messages.UserInput:
		s.busy(ctx)
	}
}

// onUserResult shows each result as it is released in call order; once all are in, the
// shell's output becomes the user's note, or the mentioning line goes to the model with its
// files (a cancelled line commits nothing: the client still has its text).
func (s *session) onUserResult(ctx actor.Context, msg *messages.ToolResult) {
	u := s.user.calls
	var notes []string
	var images [][]messages.Image
	for _, r := range s.cur.batch.Add(msg) {
		s.emit(messages.ToolFinishedEvent.Of(&messages.ToolFinishedData{Turn: s.turn, CallID: r.Call.ID, Tool: r.Call.Name,
			IsError: r.Result.IsError, Output: preview(r.Result.Output, userPreviewBytes), Bytes: len(r.Result.Output),
			Changed: r.Result.Changed, DurationMS: r.Result.Duration.Milliseconds()}))
		if u.shell != "" {
			if !u.refused {
				notes, images = append(notes, u.shellNote(r.Result)), append(images, nil)
			}
		} else {
			notes, images = append(notes, mentionNote(r.Call, r.Result)), append(images, r.Result.Images)
		}
	}
	u.pending, u.images = append(u.pending, notes...), append(u.images, images...)
	if !s.cur.batch.Done() {
		return
	}
	s.cur.batch, s.user.calls = nil, nil
	s.become(phaseIdle, s.idle)
	if u.shell == "" && u.cancelled != "" {
		return
	}
	if u.shell == "" {
		if err := s.commit(userEntry(u.text)); err != nil {
			s.fail(ctx, messages.FailInternal, err.Error())
			return
		}
	}
	for i, n := range u.pending {
		if err := s.commit(imageNoteEntry(n, u.images[i])); err != nil {
			s.fail(ctx, messages.FailInternal, err.Error())
			return
		}
	}
	s.syncStore(false)
	if u.shell == "" {
		s.cur.newInput()
		s.hooks.newInput()
		s.callModel(ctx)
	}
}
