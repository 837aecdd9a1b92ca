package actors

import (
	"fmt"
	"time"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// The session commits every entry to the store before it acts on it (commit, then apply), so a
// kill at any moment loses nothing acknowledged and leaves a log the healing pass can resume.

// noteEvent marks a system entry that is a harness note to the model (shown to it as a user
// message), as opposed to an audit record it never sees.
const noteEvent = projection.NoteEvent

// userEntry is the user's input as a log entry and as the model sees it.
func userEntry(text string) (*store.Entry, llm.Message) {
	return &store.Entry{Kind: store.KindUser, Text: text}, llm.Message{Role: llm.RoleUser, Content: text}
}

// taskMaxBytes bounds a task taken from a message: a pasted log's first line is no title.
const taskMaxBytes = 200

// taskOf is the task a session with none takes from the user's first message (a chat started
// without words): its first non-empty line, trimmed and clipped.
func taskOf(text string) string { return textfmt.ClipLine(text, taskMaxBytes) }

// noteEntry is a harness note to the model: a system entry the model sees as a marked user
// message.
func noteEntry(text string) (*store.Entry, llm.Message) {
	return &store.Entry{Kind: store.KindSystem, Event: noteEvent, Text: text}, llm.Message{Role: llm.RoleUser, Content: noteText(text)}
}

// imageNoteEntry is a note with images (an @-mentioned image file): the images go with the
// note's user message to a model that accepts them.
func imageNoteEntry(text string, images []messages.Image) (*store.Entry, llm.Message) {
	e, m := noteEntry(text)
	e.Images = storeImages(images)
	m.Images = projection.ImagesOf(e.Images)
	return e, m
}

func storeImages(images []messages.Image) []store.Image {
	var out []store.Image
	for _, img := range images {
		out = append(out, store.Image{Ref: img.Ref, MediaType: img.MediaType, Width: img.Width, Height: img.Height, Bytes: img.Bytes})
	}
	return out
}

// toolResultEntry is a tool call's result as a log entry and as the model sees it.
func toolResultEntry(call llm.ToolCall, res *messages.ToolResult) (*store.Entry, llm.Message) {
	imgs := storeImages(res.Images)
	return &store.Entry{Kind: store.KindToolResult, Text: res.Output, CallID: call.ID, ToolName: call.Name, IsError: res.IsError, Images: imgs},
		llm.Message{Role: llm.RoleTool, Content: res.Output, ToolCallID: call.ID, ToolName: call.Name, IsError: res.IsError,
			Images: projection.ImagesOf(imgs)}
}

// commitAssistant records a reply stamped with the model that produced it, and counts the turn.
func (s *session) commitAssistant(r *llm.Reply) error {
	model := s.deps.Model
	e := &store.Entry{Kind: store.KindAssistant, Text: r.Text, Reasoning: r.Reasoning, ReasoningBlocks: r.ReasoningBlocks, Model: model}
	for _, c := range r.ToolCalls {
		e.Calls = append(e.Calls, store.Call{ID: c.ID, Name: c.Name, Args: c.Args})
	}
	s.meta.Turns++
	s.meta.Updated = time.Now().UTC()
	if s.links.emitter != nil {
		s.meta.EventSeq = s.links.emitter.Seq()
	}
	e.Time = s.meta.Updated
	if err := s.deps.Store.AppendWithMeta(s.meta, e); err != nil {
		s.meta.Turns--
		return fmt.Errorf("record the model's reply: %w", err)
	}
	s.items = append(s.items, projection.Item{Seq: e.Seq, Time: e.Time, Msg: llm.Message{Role: llm.RoleAssistant,
		Content: r.Text, Reasoning: r.Reasoning, ReasoningBlocks: r.ReasoningBlocks, ToolCalls: r.ToolCalls, Model: model}})
	return nil
}

// commit appends one entry to the log, then to the items the model sees.
func (s *session) commit(e *store.Entry, m llm.Message) error {
	if e.Kind == store.KindUser && s.meta != nil && s.meta.Task == "" {
		// The user's first message names a session that has no task yet, so troupe sessions
		// and the resume picker show more than a blank (the next meta write stores it).
		s.meta.Task = taskOf(e.Text)
	}
	e.Time = time.Now().UTC()
	if err := s.deps.Store.Append(s.cfg.ID, e); err != nil {
		return fmt.Errorf("record %s entry: %w", e.Kind, err)
	}
	s.items = append(s.items, projection.Item{Seq: e.Seq, Time: e.Time, Msg: m})
	return nil
}

// appendWithMeta appends e with meta and repairs (store.AppendWithMetaAndRepairs); the item is
// what the model sees of it.
func appendWithMeta(st *store.Store, meta *store.SessionMeta, repairs store.RepairStats, e *store.Entry, m llm.Message) (projection.Item, error) {
	e.Time = time.Now().UTC()
	if err := st.AppendWithMetaAndRepairs(meta, repairs, e); err != nil {
		return projection.Item{}, fmt.Errorf("record %s entry: %w", e.Kind, err)
	}
	return projection.Item{Seq: e.Seq, Time: e.Time, Msg: m}, nil
}

func (s *session) recordUsage(u llm.Usage, requestBytes int) {
	s.meta.InputTokens += u.InputTokens
	s.meta.OutputTokens += u.OutputTokens
	s.meta.CachedInputTokens += u.CacheReadTokens
	s.emit(messages.UsageEvent.Of(&messages.UsageData{Turn: s.turn, InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CacheReadTokens, TotalInputTokens: s.meta.InputTokens, TotalOutputTokens: s.meta.OutputTokens,
		RequestBytes: requestBytes}))
}

// syncStore makes the turn durable against power loss too (a SIGKILL loses nothing either way).
// The sync runs behind the session (the store's syncer logs a failure): waiting for the disk
// here was two thirds of the harness's time per turn. The meta, with the turn's repair
// counters for the project's per-model counters, is queued rather than waited for
// (store/soon.go): the session's next write commits after it, and the sync follows it.
//
// A turn that goes on to the next model call (goesOn) whose meta and counters were committed
// with its last tool result (onToolResult) and has no repairs left to count only syncs: its
// meta changed since in nothing but the seq of its last events, which the next reply's write
// records.
func (s *session) syncStore(goesOn bool) {
	repairs, stored := s.cur.repairsFor(s.deps.Model), s.cur.metaStored
	s.cur.metaStored = false
	if goesOn && stored && repairs.Empty() {
		s.deps.Store.SyncSoon()
		return
	}
	if s.links.emitter != nil {
		s.meta.EventSeq = s.links.emitter.Seq()
	}
	if err := s.deps.Store.PutMetaSoon(s.meta, repairs); err != nil {
		s.deps.Log.Warn("record session meta", "session", s.cfg.ID, "err", err)
	}
}

// noteText marks a harness note so the model can tell it from the user's words.
func noteText(text string) string { return projection.NotePrefix + text }
