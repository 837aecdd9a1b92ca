package taskstate

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-dev/troupe/store"
)

// Restored says what Restore found and wrote.
type Restored struct {
	Meta    bool   // the session's meta was mirrored
	LastSeq uint64 // the last entry now in the local log (0: none)
	Added   int    // entries written to the local log
	Gap     bool   // the mirror had a gap; entries after it were left out
}

// Restore writes task's mirrored transcript into the worker's store st, after whatever st
// already holds of it (a worker restarted on its own state directory keeps its log): the
// entries that follow the local log without a gap, and the meta. The session then resumes with
// the store's ordinary resume path, which answers calls left open with interrupted results.
func (s *State) Restore(ctx context.Context, st *store.Store, task string) (Restored, error) {
	var r Restored
	local, err := st.Log(task)
	if err != nil {
		return r, fmt.Errorf("taskstate: restore %s: %w", task, err)
	}
	if n := len(local); n > 0 {
		r.LastSeq = local[n-1].Seq
	}
	meta, entries, err := s.load(ctx, task)
	if err != nil {
		return r, fmt.Errorf("taskstate: restore %s: %w", task, err)
	}
	if meta == nil {
		if _, err := st.Meta(task); err != nil {
			return r, nil // no session to resume: write nothing, the task starts fresh
		}
	}
	var add []*store.Entry
	next := r.LastSeq + 1
	for _, e := range entries {
		switch {
		case e.Seq < next:
			continue
		case e.Seq > next:
			r.Gap = true
		default:
			add = append(add, e)
			next++
			continue
		}
		break
	}
	// In batches: one Badger transaction holds only so much.
	for len(add) > 0 {
		n := batchLen(add)
		if err := st.Append(task, add[:n]...); err != nil {
			return r, fmt.Errorf("taskstate: restore %s: %w", task, err)
		}
		r.Added, r.LastSeq = r.Added+n, add[n-1].Seq
		add = add[n:]
	}
	if meta == nil {
		_, err := st.Meta(task)
		r.Meta = err == nil
		return r, nil
	}
	meta.LogSeq = r.LastSeq // what the local log holds now, so it never reads as cut short
	if err := st.PutMeta(meta); err != nil {
		return r, fmt.Errorf("taskstate: restore %s: %w", task, err)
	}
	r.Meta = true
	return r, nil
}

// load reads task's mirrored meta (nil when none) and entries, in seq order.
func (s *State) load(ctx context.Context, task string) (*store.SessionMeta, []*store.Entry, error) {
	w, err := s.kv.Watch(ctx, task+".>", jetstream.IgnoreDeletes())
	if err != nil {
		return nil, nil, err
	}
	defer w.Stop()
	var meta *store.SessionMeta
	var entries []*store.Entry
	for {
		var kve jetstream.KeyValueEntry
		select {
		case kve = <-w.Updates():
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		if kve == nil {
			break // every current value has come
		}
		value := kve.Value()
		if name, ok := bytes.CutPrefix(value, []byte(objPrefix)); ok {
			if value, err = s.objs.GetBytes(ctx, string(name)); err != nil {
				return nil, nil, err
			}
		}
		if kve.Key() == metaKey(task) {
			meta = &store.SessionMeta{}
			if err := json.Unmarshal(value, meta); err != nil {
				return nil, nil, fmt.Errorf("decode the mirrored meta: %w", err)
			}
			continue
		}
		seq, ok := seqOfKey(task, kve.Key())
		if !ok {
			continue
		}
		e := &store.Entry{}
		if err := json.Unmarshal(value, e); err != nil || e.Seq != seq {
			return nil, nil, errors.Join(fmt.Errorf("decode mirrored entry %d", seq), err)
		}
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b *store.Entry) int { return cmp.Compare(a.Seq, b.Seq) })
	return meta, entries, nil
}

// batchBytes bounds the text of one restore batch, well inside a Badger transaction.
const batchBytes = 1 << 20

// batchLen is how many of entries go in the next batch: at least one, at most 100, and no more
// than about batchBytes of text.
func batchLen(entries []*store.Entry) int {
	size := 0
	for i, e := range entries {
		size += len(e.Text) + len(e.Reasoning) + len(e.Data) + len(e.ReasoningBlocks) + 256
		if i > 0 && (i == 100 || size > batchBytes) {
			return i
		}
	}
	return len(entries)
}
