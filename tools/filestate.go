package tools

import (
	"sort"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// File truth (docs/DESIGN-NOTES.md "File truth"): the transcript remembers what the model read, the
// disk holds what is true now. A FileTracker keeps, per path, the fingerprint and a bounded copy of
// what the model last saw, so an edit against a stale, partial or never read baseline is refused
// before anyone is asked to approve it, and an external change is put in front of the model before
// its next call.

// Where a record's baseline came from.
const (
	SourceRead       = "read"
	SourceAgentWrite = "agent_write"
	SourceExternal   = "external"
	// SourceAgentCommand: the model's own bash command changed or deleted the file since the
	// baseline (CommandTurn, Command), and the model was told in the command's result.
	SourceAgentCommand = "agent_command"
)

// What a record's baseline is worth now.
const (
	StatusFresh     = "fresh"     // the whole file, matching the disk
	StatusChanged   = "changed"   // the disk changed since the baseline
	StatusStale     = "stale"     // the file was deleted since the baseline
	StatusPartial   = "partial"   // only a range of lines was read
	StatusTruncated = "truncated" // the whole file, but some long lines were shown cut
)

// fileBaselineMax bounds the content a record keeps for diffing external edits.
const fileBaselineMax = 256 << 10

// FileRecord is what the session knows about one file: what the model saw, and when.
type FileRecord struct {
	Path       string    `json:"path"` // workspace-relative, slash-separated, symlinks resolved
	RangeStart int       `json:"range_start"`
	RangeEnd   int       `json:"range_end"`
	TotalLines int       `json:"total_lines"`
	Whole      bool      `json:"whole"`
	SHA256     string    `json:"sha256"` // of the whole file as of the baseline
	ModTime    time.Time `json:"mod_time"`
	Size       int64     `json:"size"` // ModTime and Size are the disk fingerprint last seen
	// Baseline is the file's content as of SHA256, when it is at most 256 KiB; else "".
	Baseline string `json:"baseline,omitempty"`
	Source   string `json:"source"`
	Status   string `json:"status"`
	Turn     int    `json:"turn"` // the turn the baseline was recorded
	// Shown says the model saw the range's text in a read, so a repeated read of unchanged
	// content can answer with a short note instead. ForgetShown clears it after compaction.
	Shown bool `json:"shown,omitempty"`
	// DiskSHA256 is the content on disk when it was last found to differ from SHA256, so one
	// external change is reported once.
	DiskSHA256 string `json:"disk_sha256,omitempty"`
	// CommandTurn and Command are the turn and the short text of the model's own bash command
	// that changed the file, when Source is SourceAgentCommand.
	CommandTurn int    `json:"command_turn,omitempty"`
	Command     string `json:"command,omitempty"`
}

// FileChange is an external change found by Recheck.
type FileChange struct {
	Path string                  `json:"path"`
	Kind messages.FileChangeKind `json:"kind"`
	// Diff is a bounded unified diff from the model's baseline to the disk (≤ 2 KiB), or a
	// note saying why there is none.
	Diff string `json:"diff,omitempty"`
}

// Note renders the change for the state block of the next prompt.
func (c FileChange) Note() string {
	if c.Kind == messages.FileDeleted {
		return c.Path + " was deleted outside this session; your earlier read of it is stale."
	}
	return c.Path + " was changed outside this session since you read it; read_file it again before editing it.\n" + c.Diff
}

// FileTracker is one session's file truth. It is safe for concurrent use.
type FileTracker struct {
	persist func(*FileRecord) error

	mu         sync.Mutex
	recs       map[string]*FileRecord
	persistErr error
}

// NewFileTracker returns an empty tracker. persist, if not nil, is called with a copy of every
// record that changes (the session stores it at s/<session>/fs/<path>); calls are serialized.
func NewFileTracker(persist func(*FileRecord) error) *FileTracker {
	return &FileTracker{persist: persist, recs: make(map[string]*FileRecord)}
}

// Restore replaces the records with recs (a resumed session's), without persisting them.
func (t *FileTracker) Restore(recs []*FileRecord) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.recs = make(map[string]*FileRecord, len(recs))
	for _, r := range recs {
		c := *r
		t.recs[c.Path] = &c
	}
}

// Records returns copies of the records, sorted by path.
func (t *FileTracker) Records() []*FileRecord {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]*FileRecord, 0, len(t.recs))
	for _, r := range t.recs {
		c := *r
		out = append(out, &c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Record returns a copy of the record for the workspace-relative path.
func (t *FileTracker) Record(path string) (FileRecord, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.recs[path]
	if !ok {
		return FileRecord{}, false
	}
	return *r, true
}

// ForgetShown marks every record as no longer in the model's view (after a compaction dropped
// the reads), so the next read of a file returns its text again. Baselines stay.
func (t *FileTracker) ForgetShown() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, r := range t.recs {
		if r.Shown {
			r.Shown = false
			t.save(r)
		}
	}
}

// PersistErr returns the first error persist returned since the last call, and clears it. The
// tracker keeps working from memory when persisting fails.
func (t *FileTracker) PersistErr() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	err := t.persistErr
	t.persistErr = nil
	return err
}

// put stores rec as the record of its path.
func (t *FileTracker) put(rec *FileRecord) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.recs[rec.Path] = rec
	t.save(rec)
}

// save persists rec; the caller holds t.mu.
func (t *FileTracker) save(rec *FileRecord) {
	if t.persist == nil {
		return
	}
	c := *rec
	if err := t.persist(&c); err != nil && t.persistErr == nil {
		t.persistErr = err
	}
}

// get returns a copy of the record for path.
func (t *FileTracker) get(path string) (*FileRecord, bool) {
	r, ok := t.Record(path)
	return &r, ok
}
