package actors

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// Nested project instructions (issue 11 item 3). The root's instruction files down to where the
// user ran troupe are in the stable prefix; a nested AGENTS.md or CLAUDE.md reaches the model
// the first time a file under its directory is read, listed or edited: as a harness note
// committed to the log just before the next request, so it is sent once and then stays in the
// conversation (cached with it) instead of being re-sent at the tail of every call. What was
// handed out is recorded in the store (dir → the note's seq and the text), so a resume neither
// repeats nor forgets it; a file whose note a compaction swallowed comes back once, after the
// boundary.

// instructionReadTimeout bounds reading the nested files; past it the call goes on without.
const instructionReadTimeout = 10 * time.Second

// nestedInstructions is the session's own copy of its instruction files and what it handed
// out. Only the session's goroutine touches it; the reads off the actor get copies.
type nestedInstructions struct {
	in        *config.Instructions
	touched   []string          // directories touched since the last call, not looked at yet
	delivered map[string]uint64 // directory → seq of the note that carries its file
}

// instructionDelivery is the stored record of one nested file handed to the model.
type instructionDelivery struct {
	File config.Instruction `json:"file"`
	Seq  uint64             `json:"seq"` // the note that carries it
}

// instructions returns the session's Instructions (a copy of its deps', so a restarted actor
// starts clean, with what the store says was handed out), or nil when the session has none.
// The delivery records of a resumed (or restarted) session are read here: the store, like the
// log, is read on the actor (the session's durable step).
func (s *session) instructions() *config.Instructions {
	n := &s.nested
	if n.in == nil && s.deps.Instructions != nil {
		n.in = s.deps.Instructions.Clone()
		n.delivered = map[string]uint64{}
		err := s.deps.Store.EachInstructionDelivery(s.cfg.ID, func(raw []byte) error {
			var rec instructionDelivery
			if err := json.Unmarshal(raw, &rec); err != nil {
				return err
			}
			n.restore(rec)
			return nil
		})
		if err != nil {
			s.deps.Log.Warn("read instruction deliveries", "session", s.cfg.ID, "err", err)
		}
	}
	return n.in
}

// touch is told of a committed tool result: the directories a successful read, edit or
// listing under root touched become due for their instruction files. It reads nothing.
func (n *nestedInstructions) touch(root string, call llm.ToolCall, res *messages.ToolResult) {
	if n.in == nil || res.IsError {
		return
	}
	dir, ok := touchedDir(root, call)
	if !ok {
		return
	}
	for _, d := range n.in.Pending(dir) {
		if !slices.Contains(n.touched, d) {
			n.touched = append(n.touched, d)
		}
	}
}

// restore takes one stored delivery record back.
func (n *nestedInstructions) restore(rec instructionDelivery) {
	n.in.Restore(rec.File)
	n.delivered[rec.File.Dir] = rec.Seq
}

// touchedDir is the workspace-relative directory a call worked in: the file's directory for
// read_file, write_file and edit_file, the directory searched for list_dir, glob and grep.
func touchedDir(root string, call llm.ToolCall) (string, bool) {
	switch call.Name {
	case "read_file", "write_file", "edit_file", "list_dir", "glob", "grep":
	default:
		return "", false // bash and the rest: their arguments are not read
	}
	var args struct {
		Path     string `json:"path"`
		FilePath string `json:"file_path"`
	}
	if json.Unmarshal([]byte(call.Args), &args) != nil {
		return "", false
	}
	p := cmp.Or(args.Path, args.FilePath)
	if p == "" {
		return "", false
	}
	if filepath.IsAbs(p) {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return "", false
		}
		p = rel
	}
	p = path.Clean(filepath.ToSlash(p))
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	switch call.Name {
	case "read_file", "write_file", "edit_file":
		return path.Dir(p), true
	case "list_dir", "glob", "grep":
		return p, true
	}
	return "", false
}

// deliverInstructions puts the nested instruction files that are due into the log before the
// request goes out: the ones under directories touched since the last call (read off the
// actor, then then runs) and the ones a compaction swallowed (from their records, at once).
// It reports whether then was taken over; false means the caller goes on now.
func (s *session) deliverInstructions(ctx actor.Context, then func(actor.Context)) bool {
	in := s.instructions()
	if in == nil {
		return false
	}
	if len(s.nested.touched) == 0 {
		return !s.commitInstructions(ctx, nil)
	}
	dirs, root, turn := s.nested.touched, s.deps.Workspace, s.turn
	s.nested.touched = nil
	offActor(ctx, instructionReadTimeout, func() []config.RawInstruction { return config.ReadInstructionFiles(root, dirs) },
		func(raw []config.RawInstruction, err error) {
			if s.turn != turn || s.finished() {
				return
			}
			if s.cur.cancelling != "" {
				s.endCancelledTurn(ctx)
				return
			}
			if err != nil {
				s.deps.Log.Warn("read nested instructions", "session", s.cfg.ID, "err", err)
			}
			if !s.commitInstructions(ctx, in.Accept(dirs, raw)) {
				return
			}
			then(ctx)
		})
	return true
}

// commitInstructions commits one note with the fresh files and the ones compacted away, and
// records where each now lives. It reports false when the session failed.
func (s *session) commitInstructions(ctx actor.Context, fresh []config.Instruction) bool {
	files := append(fresh, s.nested.compacted(s.items)...)
	if len(files) == 0 {
		return true
	}
	if err := s.commit(noteEntry(config.FormatNested(files))); err != nil {
		s.fail(ctx, messages.FailInternal, err.Error())
		return false
	}
	seq := s.items[len(s.items)-1].Seq
	for _, f := range files {
		s.nested.delivered[f.Dir] = seq
		if err := s.deps.Store.PutInstructionDelivery(s.cfg.ID, f.Dir, instructionDelivery{File: f, Seq: seq}); err != nil {
			// The note is in the log; without its record a resume hands the file out again.
			s.deps.Log.Warn("record instruction delivery", "session", s.cfg.ID, "dir", f.Dir, "err", err)
		}
	}
	return true
}

// compacted are the delivered files whose note the last compact boundary in items replaced.
func (n *nestedInstructions) compacted(items []projection.Item) []config.Instruction {
	if len(n.delivered) == 0 {
		return nil // nothing handed out: no need to look for a boundary (this runs every turn)
	}
	var to uint64
	for i := len(items) - 1; i >= 0; i-- {
		if b := items[i].Boundary; b != nil {
			to = b.ToSeq
			break
		}
	}
	if to == 0 {
		return nil
	}
	var out []config.Instruction
	for _, f := range n.in.Delivered {
		if seq, ok := n.delivered[f.Dir]; ok && seq <= to {
			out = append(out, f)
		}
	}
	return out
}

// status fills /status with the instruction files in force and their sizes.
func (n *nestedInstructions) status(r *messages.StatusReply) {
	in := n.in
	if in == nil {
		return
	}
	add := func(files []config.Instruction, nested bool) {
		for _, f := range files {
			r.Instructions = append(r.Instructions, messages.InstructionFile{Path: f.Path, Bytes: f.Bytes, Cut: f.Cut, Nested: nested})
		}
	}
	add(in.Stable, false)
	add(in.Delivered, true)
	r.InstructionBytes, r.InstructionCap = in.Used(), config.MaxInstructionTotal
}

// formatInstructionStatus is the instructions part of /status: each file in force with its
// size, and their text against the cap.
func formatInstructionStatus(st *messages.StatusReply) string {
	if len(st.Instructions) == 0 {
		return "\ninstructions none"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\ninstructions %d of %d bytes in %s", st.InstructionBytes, st.InstructionCap, textfmt.Count(len(st.Instructions), "file"))
	for _, f := range st.Instructions {
		fmt.Fprintf(&b, "\n  %s  %d bytes", f.Path, f.Bytes)
		if f.Cut {
			b.WriteString(", cut to the cap")
		}
		if f.Nested {
			b.WriteString(" (nested)")
		}
	}
	return b.String()
}
