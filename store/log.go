package store

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// EntryKind says what a log entry records.
type EntryKind string

// The kinds of log entries.
const (
	KindUser       EntryKind = "user"
	KindAssistant  EntryKind = "assistant"
	KindToolResult EntryKind = "tool_result"
	KindCompact    EntryKind = "compact"
	KindSystem     EntryKind = "system"
)

// Call is one tool call an assistant turn made.
type Call struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Args string `json:"args"`
}

// Entry is one record of a session's append-only log.
type Entry struct {
	Seq       uint64    `json:"seq"` // assigned by Append: 1, 2, 3, … per session, no gaps
	Kind      EntryKind `json:"kind"`
	Time      time.Time `json:"time"`                // set by Append when zero
	Text      string    `json:"text,omitempty"`      // user text, assistant text, tool output, compact summary, system note
	Reasoning string    `json:"reasoning,omitempty"` // assistant reasoning
	// assistant: the provider's structured record of the reasoning, sent back as it came
	ReasoningBlocks json.RawMessage `json:"reasoning_blocks,omitempty"`
	Model           string          `json:"model,omitempty"`     // assistant: the model that produced it
	Calls           []Call          `json:"calls,omitempty"`     // assistant: its tool calls, in order
	CallID          string          `json:"call_id,omitempty"`   // tool_result: the call it answers
	ToolName        string          `json:"tool_name,omitempty"` // tool_result
	IsError         bool            `json:"is_error,omitempty"`  // tool_result
	Event           string          `json:"event,omitempty"`     // system: an event type, e.g. "tool.rejected"
	Data            json.RawMessage `json:"data,omitempty"`      // system/compact: structured detail
	Images          []Image         `json:"images,omitempty"`    // tool_result, mention notes: images, by artifact ref
}

// Image is an image of a tool result, kept as an artifact (its bytes are never in the log).
type Image struct {
	Ref       string `json:"ref"`
	MediaType string `json:"media_type"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	Bytes     int    `json:"bytes"`
}

// sessionSeq is the append counter of one session. Its mutex serialises that session's
// appends, so two writers never take the same seq; other sessions append in parallel.
type sessionSeq struct {
	mu     sync.Mutex
	loaded bool
	last   uint64
	// held are queued entries (AppendSoon) the session's next write takes into its
	// transaction; heldTimer commits them alone if none comes soon (held.go).
	held      []heldEntry
	heldTimer *time.Timer
}

// Append adds entries to session's log in one transaction, assigning each its Seq (in place)
// and a Time if it has none. If the write fails, nothing is stored and no seq is used up.
func (s *Store) Append(session string, entries ...*Entry) error {
	if err := checkSessionID(session); err != nil {
		return fmt.Errorf("append to log: %w", err)
	}
	if err := s.appendTxn(session, entries, nil, RepairStats{}); err != nil {
		return fmt.Errorf("append to session %s log: %w", session, err)
	}
	return nil
}

// AppendWithMeta appends entries to session m.ID and stores m in the same transaction, so a
// turn's entries and its counters (turns, tokens) never disagree. m.Updated is stamped as in
// PutMeta.
func (s *Store) AppendWithMeta(m *SessionMeta, entries ...*Entry) error {
	return s.AppendWithMetaAndRepairs(m, RepairStats{}, entries...)
}

// AppendWithMetaAndRepairs is AppendWithMeta that also adds repairs to the project's counters
// of repairs.Model (nothing when repairs is Empty), as PutMetaAndRepairs does, in the same
// transaction: a turn's last tool result, its meta and its counters are one commit.
func (s *Store) AppendWithMetaAndRepairs(m *SessionMeta, repairs RepairStats, entries ...*Entry) error {
	if err := checkSessionID(m.ID); err != nil {
		return fmt.Errorf("append to log: %w", err)
	}
	if !repairs.Empty() {
		if err := checkRepairModel(repairs); err != nil {
			return fmt.Errorf("append to session %s log: repair counters: %w", m.ID, err)
		}
	}
	if err := s.appendTxn(m.ID, entries, m, repairs); err != nil {
		return fmt.Errorf("append to session %s log: %w", m.ID, err)
	}
	return nil
}

// appendTxn writes entries (and meta, if not nil, with repairs added to the project's
// counters) in one Badger transaction.
func (s *Store) appendTxn(session string, entries []*Entry, meta *SessionMeta, repairs RepairStats) error {
	counter, err := s.lockedCounter(session)
	if err != nil {
		return err
	}
	defer counter.mu.Unlock()
	withRepairs := meta != nil && !repairs.Empty()
	if withRepairs { // the counters are shared by every session (store.go)
		s.repairsMu.Lock()
		defer s.repairsMu.Unlock()
	}

	restoreMeta := func() {}
	if meta != nil {
		restoreStamp, logSeq := s.stampMeta(meta), meta.LogSeq
		meta.LogSeq = max(meta.LogSeq, counter.last+uint64(len(entries)))
		restoreMeta = func() { restoreStamp(); meta.LogSeq = logSeq }
	}

	type undo struct {
		seq  uint64
		time time.Time
	}
	saved := make([]undo, len(entries))
	now := time.Now().UTC()
	for i, e := range entries {
		saved[i] = undo{e.Seq, e.Time}
		e.Seq = counter.last + uint64(i) + 1
		if e.Time.IsZero() {
			e.Time = now
		}
	}
	var sum RepairStats
	err = s.update(func(txn *badger.Txn) error {
		if err := putHeld(txn, counter); err != nil { // queued before these (held.go)
			return fmt.Errorf("write queued entries: %w", err)
		}
		for _, e := range entries {
			b, err := encodeEntry(e)
			if err != nil {
				return fmt.Errorf("encode entry %d (%s): %w", e.Seq, e.Kind, err)
			}
			if err := txn.Set(logKey(session, e.Seq), b); err != nil {
				return fmt.Errorf("write entry %d: %w", e.Seq, err)
			}
		}
		if meta == nil {
			return nil
		}
		if withRepairs {
			if sum, err = s.addRepairs(txn, repairs); err != nil {
				return fmt.Errorf("repair counters: %w", err)
			}
		}
		return setMeta(txn, meta)
	})
	if err != nil {
		restoreMeta()
		for i, e := range entries {
			e.Seq, e.Time = saved[i].seq, saved[i].time
		}
		return err
	}
	if withRepairs {
		s.repairsCommitted(sum)
	}
	counter.last += uint64(len(entries))
	s.tookHeld(counter)
	s.committed(session, entries, meta)
	return nil
}

// counter returns session's append counter, creating an unloaded one on first use.
func (s *Store) counter(session string) *sessionSeq {
	s.seqMu.Lock()
	defer s.seqMu.Unlock()
	c, ok := s.seqs[session]
	if !ok {
		c = &sessionSeq{}
		s.seqs[session] = c
	}
	return c
}

// lockedCounter is session's seq counter, locked (the caller unlocks it) and loaded from the
// log when this is the Store's first append to it; on an error it is left unlocked.
func (s *Store) lockedCounter(session string) (*sessionSeq, error) {
	c := s.counter(session)
	c.mu.Lock()
	if !c.loaded {
		last, err := s.knownLastSeq(session)
		if err != nil {
			c.mu.Unlock()
			return nil, err
		}
		c.last, c.loaded = last, true
	}
	return c, nil
}

// lastSeq finds the highest stored seq of session (0 for an empty log) with one reverse seek.
func (s *Store) lastSeq(session string) (uint64, error) {
	var last uint64
	err := s.view(func(txn *badger.Txn) error {
		opts := badger.DefaultIteratorOptions
		opts.PrefetchValues = false
		opts.Reverse = true
		opts.Prefix = logPrefix(session)
		it := txn.NewIterator(opts)
		defer it.Close()
		it.Seek(append(logPrefix(session), 0xff))
		if !it.Valid() {
			return nil
		}
		seq, err := seqOfLogKey(it.Item().Key())
		last = seq
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("find last seq: %w", err)
	}
	return last, nil
}

// Log returns session's whole log in Seq order (empty, not an error, for an unknown session).
func (s *Store) Log(session string) ([]*Entry, error) {
	return s.LogFrom(session, 0)
}

// LogFrom returns the entries of session's log with Seq > afterSeq, in Seq order. An entry
// whose stored value is damaged comes back as a KindSystem entry with Event DamagedEntryEvent.
func (s *Store) LogFrom(session string, afterSeq uint64) ([]*Entry, error) {
	out, _, err := s.logRange(session, afterSeq, 0)
	return out, err
}

// LogPage returns the entries after afterSeq whose stored values add up to about maxBytes (at
// least one entry, so paging always moves on), and whether more follow: a long log is read a
// page at a time instead of whole for every page.
func (s *Store) LogPage(session string, afterSeq uint64, maxBytes int) ([]*Entry, bool, error) {
	return s.logRange(session, afterSeq, maxBytes)
}

// logRange reads entries after afterSeq in Seq order, stopping before the one that would pass
// maxBytes of stored values (0: no limit); more says an entry was left.
func (s *Store) logRange(session string, afterSeq uint64, maxBytes int) (out []*Entry, more bool, err error) {
	if err := checkSessionID(session); err != nil {
		return nil, false, fmt.Errorf("read log: %w", err)
	}
	if afterSeq == math.MaxUint64 {
		return nil, false, nil // nothing can follow; afterSeq+1 would wrap to the start
	}
	size, next := 0, afterSeq+1
	err = s.view(func(txn *badger.Txn) error {
		opts := badger.DefaultIteratorOptions
		opts.Prefix = logPrefix(session)
		it := txn.NewIterator(opts)
		defer it.Close()
		for it.Seek(logKey(session, afterSeq+1)); it.Valid(); it.Next() {
			item := it.Item()
			n := int(item.ValueSize())
			if maxBytes > 0 && len(out) > 0 && size+n > maxBytes {
				more = true
				return nil
			}
			size += n
			seq, err := seqOfLogKey(item.Key())
			if err != nil {
				return err
			}
			if seq > next {
				out = append(out, missingEntries(next, seq-1))
			}
			next = seq + 1
			e := new(Entry)
			if err := item.Value(func(v []byte) error { return decodeEntry(v, e) }); err != nil {
				// One damaged value loses that entry, not the session: report it in its place.
				e = damagedEntry(seq, err)
			}
			e.Seq = seq // the key is authoritative
			out = append(out, e)
		}
		if last := loggedThrough(txn, session); last >= next {
			out = append(out, missingEntries(next, last))
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("read session %s log: %w", session, err)
	}
	return out, more, nil
}
