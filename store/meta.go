package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// SessionMeta describes one session: who runs it, on what, and how it stands.
type SessionMeta struct {
	ID     string `json:"id"`
	Parent string `json:"parent,omitempty"`
	Agent  string `json:"agent,omitempty"`
	Model  string `json:"model,omitempty"`
	// BaseURL is the provider endpoint the session was started with, so resume reuses it.
	BaseURL   string `json:"base_url,omitempty"`
	Task      string `json:"task,omitempty"`
	Mode      string `json:"mode,omitempty"`
	Workspace string `json:"workspace,omitempty"`
	// Cwd is where the user ran troupe, relative to Workspace: the instruction files from the
	// root down to it are in the stable prefix, so a resume keeps the one it started with.
	Cwd string `json:"cwd,omitempty"`
	// PromptMode is the session's prompt mode ("" for code), reused by a resume that names none.
	PromptMode string `json:"prompt_mode,omitempty"`
	// Allowlist is the session allowlist: the patterns the user allowed for the session ("allow
	// for this session"), in the order allowed. A resume starts with them; deny and ask rules
	// are judged first, so a rule added since still wins.
	Allowlist []string `json:"allowlist,omitempty"`
	// Status is one of running, done, failed, interrupted, cancelled.
	Status string `json:"status"`
	// Error is why a session that did not end done ended as it did (the session.finished
	// error), so a list of sessions can say it without reading each log.
	Error string `json:"error,omitempty"`

	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`

	Turns        int `json:"turns"`
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// CachedInputTokens is the part of InputTokens the provider reported read from its prompt
	// cache (priced lower); 0 for providers that do not say, and for older sessions.
	CachedInputTokens int `json:"cached_input_tokens,omitempty"`
	// EventSeq is the seq of the session's last event when the meta was written: a resumed run's
	// events go on after it, so seq stays per session across runs (docs/ARCHITECTURE.md "Messages
	// and events").
	EventSeq uint64 `json:"event_seq,omitempty"`
	// LogSeq is the seq of the session's last log entry when the meta was written (the store
	// sets it): a log that reads shorter is reported as damaged, not silently cut (logcheck.go).
	LogSeq uint64 `json:"log_seq,omitempty"`
}

// PutMeta stores m. It stamps m.Updated with the current time (and m.Created, if unset), in
// place, so Sessions lists the most recently touched session first.
func (s *Store) PutMeta(m *SessionMeta) error {
	return s.PutMetaAndRepairs(m, RepairStats{})
}

// PutMetaAndRepairs stores m as PutMeta does and, in the same transaction, adds repairs to the
// project's counters of repairs.Model (nothing when repairs is Empty). A session's turn ends
// with both: one transaction instead of two.
func (s *Store) PutMetaAndRepairs(m *SessionMeta, repairs RepairStats) error {
	withRepairs, err := checkMetaWrite(m, repairs)
	if err != nil {
		return err
	}
	// Under the session's append lock, so meta writes commit in the order of their stamps.
	counter := s.counter(m.ID)
	counter.mu.Lock()
	defer counter.mu.Unlock()
	if withRepairs { // the counters are shared by every session: no conflict on them (store.go)
		s.repairsMu.Lock()
		defer s.repairsMu.Unlock()
	}
	if counter.loaded {
		m.LogSeq = max(m.LogSeq, counter.last)
	}
	restore := s.stampMeta(m)
	var sum RepairStats
	err = s.update(func(txn *badger.Txn) error {
		if err := putHeld(txn, counter); err != nil { // queued before it (held.go)
			return fmt.Errorf("write queued entries: %w", err)
		}
		if withRepairs {
			var err error
			if sum, err = s.addRepairs(txn, repairs); err != nil {
				return fmt.Errorf("repair counters: %w", err)
			}
		}
		return setMeta(txn, m)
	})
	if err != nil {
		restore()
		return fmt.Errorf("put session %s meta: %w", m.ID, err)
	}
	if withRepairs {
		s.repairsCommitted(sum)
	}
	s.tookHeld(counter)
	s.committed(m.ID, nil, m)
	return nil
}

// checkMetaWrite checks a meta write's session id and, when it adds repairs (the bool), their
// model.
func checkMetaWrite(m *SessionMeta, repairs RepairStats) (bool, error) {
	if err := checkSessionID(m.ID); err != nil {
		return false, fmt.Errorf("put session meta: %w", err)
	}
	withRepairs := !repairs.Empty()
	if withRepairs {
		if err := checkRepairModel(repairs); err != nil {
			return false, fmt.Errorf("put session %s meta: repair counters: %w", m.ID, err)
		}
	}
	return withRepairs, nil
}

// stampMeta sets Updated (and a missing Created) and returns how to undo it if the write fails.
func (s *Store) stampMeta(m *SessionMeta) (restore func()) {
	created, updated := m.Created, m.Updated
	m.Updated = s.stamp()
	if m.Created.IsZero() {
		m.Created = m.Updated
	}
	return func() { m.Created, m.Updated = created, updated }
}

func setMeta(txn *badger.Txn, m *SessionMeta) error {
	b, err := marshalMeta(make([]byte, 0, len(m.Task)+256), m)
	if err != nil {
		return fmt.Errorf("encode meta: %w", err)
	}
	return txn.Set(metaKey(m.ID), b)
}

// Meta returns the stored meta of session id; the error wraps ErrNotFound if there is none.
func (s *Store) Meta(id string) (*SessionMeta, error) {
	if err := checkSessionID(id); err != nil {
		return nil, fmt.Errorf("session meta: %w", err)
	}
	var m SessionMeta
	err := s.view(func(txn *badger.Txn) error {
		item, err := txn.Get(metaKey(id))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		return item.Value(func(v []byte) error { return json.Unmarshal(v, &m) })
	})
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	return &m, nil
}

// Sessions returns the meta of every stored session, most recently updated first.
func (s *Store) Sessions() ([]*SessionMeta, error) {
	var out []*SessionMeta
	err := s.view(func(txn *badger.Txn) error {
		opts := badger.DefaultIteratorOptions
		opts.PrefetchValues = false // most keys are log entries we skip over
		opts.Prefix = []byte(sessionPrefix)
		it := txn.NewIterator(opts)
		defer it.Close()
		// Visit each session once: jump to its meta key, read it, jump past the session.
		for it.Seek([]byte(sessionPrefix)); it.Valid(); {
			id := sessionOfKey(it.Item().Key())
			mk := metaKey(id)
			if !bytes.Equal(it.Item().Key(), mk) {
				it.Seek(mk)
			}
			if it.Valid() && bytes.Equal(it.Item().Key(), mk) {
				var m SessionMeta
				if err := it.Item().Value(func(v []byte) error { return json.Unmarshal(v, &m) }); err != nil {
					return fmt.Errorf("decode session %s meta: %w", id, err)
				}
				out = append(out, &m)
			}
			it.Seek(nextSessionKey(id))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Updated.Equal(out[j].Updated) {
			return out[i].Updated.After(out[j].Updated)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}
