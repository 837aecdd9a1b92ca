package store

// CommitHook is told of every committed change to a session's record: the entries an append
// committed (with their Seq set) and the meta it stored (nil when none), in commit order for
// each session. It runs on the appending goroutine under the session's append lock, so it must
// be quick and must not call the Store; it may not keep entries or meta (encode them). A worker
// mirrors its children's transcripts with it (internal/taskstate).
type CommitHook func(session string, entries []*Entry, meta *SessionMeta)

// SetCommitHook installs h (nil removes it). One hook per Store.
func (s *Store) SetCommitHook(h CommitHook) {
	if h == nil {
		s.hook.Store(nil)
		return
	}
	s.hook.Store(&h)
}

// committed calls the hook, if any.
func (s *Store) committed(session string, entries []*Entry, meta *SessionMeta) {
	if h := s.hook.Load(); h != nil {
		(*h)(session, entries, meta)
	}
}
