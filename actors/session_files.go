package actors

import (
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// recheckTimeout bounds the file recheck before a model call; past it the call goes on without.
const recheckTimeout = time.Minute

// recheckFiles re-checks the files the session has read before the model is called (DESIGN
// §5): external edits and deletions become a note in the prompt, and events. The check reads the
// disk, so it runs off the actor (offActor) and then continues the turn; a session that has read
// nothing continues at once.
func (s *session) recheckFiles(ctx actor.Context, then func(actor.Context)) {
	files := s.deps.ToolEnv.Files
	if files == nil || len(files.Records()) == 0 {
		then(ctx)
		return
	}
	root, turn := s.deps.ToolEnv.Root, s.turn
	offActor(ctx, recheckTimeout, func() []tools.FileChange { return files.Recheck(root) },
		func(changes []tools.FileChange, err error) {
			if s.turn != turn || s.finished() {
				return
			}
			if err != nil {
				s.deps.Log.Warn("recheck files", "session", s.start.ID, "err", err)
			}
			if err := s.noteFileChanges(changes); err != nil {
				s.fail(ctx, messages.FailInternal, err.Error())
				return
			}
			then(ctx)
		})
}

// noteFileChanges announces external changes and tells the model before its next call.
func (s *session) noteFileChanges(changes []tools.FileChange) error {
	if len(changes) == 0 {
		return nil
	}
	notes := make([]string, 0, len(changes))
	for _, c := range changes {
		s.emit(messages.FileChangedEvent.Of(&messages.FileChangedData{Turn: s.turn, Path: c.Path, Kind: c.Kind, Diff: c.Diff}))
		notes = append(notes, c.Note())
	}
	return s.commitNote("Files changed outside this session:\n" + strings.Join(notes, "\n"))
}
