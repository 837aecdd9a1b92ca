package tools

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/troupe-dev/troupe/internal/safefs"
	"github.com/troupe-dev/troupe/messages"
)

// fileChangeDiffMax bounds the diff of one external change in the next prompt.
const fileChangeDiffMax = 2 << 10

// emptySHA256 is the hash of no bytes: an empty Baseline is real content when SHA256 is this.
var emptySHA256 = sha256Hex(nil)

// Recheck compares every tracked file under root with its record, before a model call. An
// unchanged file costs one stat; the same content with a new mtime refreshes the record
// quietly; different content marks it changed and reports a bounded diff; a missing file marks
// it stale. Each change is reported once.
func (t *FileTracker) Recheck(root string) []FileChange {
	t.mu.Lock()
	type tracked struct {
		live *FileRecord
		copy FileRecord
	}
	all := make([]tracked, 0, len(t.recs))
	for _, r := range t.recs {
		all = append(all, tracked{live: r, copy: *r})
	}
	t.mu.Unlock()

	ws, err := safefs.Open(root)
	if err != nil {
		return nil // the workspace is gone or unreadable: nothing can be judged now
	}
	defer ws.Close()
	var changes []FileChange
	for _, tr := range all {
		updated, change := recheckOne(ws, tr.copy)
		if updated == nil {
			continue
		}
		t.mu.Lock()
		if t.recs[tr.copy.Path] == tr.live && *tr.live == tr.copy { // not replaced meanwhile
			*tr.live = *updated
			t.save(tr.live)
			if change != nil {
				changes = append(changes, *change)
			}
		}
		t.mu.Unlock()
	}
	slices.SortFunc(changes, func(a, b FileChange) int { return strings.Compare(a.Path, b.Path) })
	return changes
}

// recheckOne returns the record's new value (nil when nothing changed) and the change to
// report, if any. The file is opened beneath the workspace handle ws, so a directory swapped
// for a symlink cannot put an outside file's content into the diff.
func recheckOne(ws *safefs.Root, rec FileRecord) (*FileRecord, *FileChange) {
	info, err := ws.Stat(rec.Path)
	if errors.Is(err, fs.ErrNotExist) {
		if rec.Status == StatusStale {
			return nil, nil
		}
		rec.Status = StatusStale
		if rec.Source == SourceAgentCommand {
			rec.byOther()
		}
		return &rec, &FileChange{Path: rec.Path, Kind: messages.FileDeleted}
	}
	if err != nil || !info.Mode().IsRegular() {
		return nil, nil // unreadable for now: judged at the next edit
	}
	if info.Size() == rec.Size && info.ModTime().Equal(rec.ModTime) && rec.Status != StatusStale {
		return nil, nil
	}
	f, err := ws.OpenFile(rec.Path)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	fp, err := hashOpenFile(f)
	if err != nil {
		return nil, nil
	}
	rec.ModTime, rec.Size = fp.modTime, fp.size
	switch fp.sha {
	case rec.SHA256: // a touch, or a change undone: the baseline is current again
		rec.DiskSHA256 = ""
		rec.Status = restoredStatus(rec)
		return &rec, nil
	case rec.DiskSHA256: // the change already reported
		return &rec, nil
	}
	rec.Status, rec.DiskSHA256 = StatusChanged, fp.sha
	rec.byOther()
	return &rec, &FileChange{Path: rec.Path, Kind: messages.FileChanged, Diff: changeDiff(f, rec)}
}

// restoredStatus is the status of a record whose file holds its baseline again: fresh or
// partial when it had changed or gone, else what it was.
func restoredStatus(rec FileRecord) string {
	switch {
	case rec.Status != StatusChanged && rec.Status != StatusStale:
		return rec.Status
	case !rec.Whole:
		return StatusPartial
	}
	return StatusFresh
}

// changeDiff is a bounded unified diff from the record's baseline to the file on disk.
// f is the file as opened for hashing; it is read again from its start.
func changeDiff(f *os.File, rec FileRecord) string {
	if rec.Baseline == "" && rec.SHA256 != emptySHA256 {
		return "(the file is too large to diff here; read_file the part you need)"
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "(could not read the new content: " + err.Error() + ")"
	}
	now, err := io.ReadAll(io.LimitReader(f, fileBaselineMax+1))
	if err != nil {
		return "(could not read the new content: " + err.Error() + ")"
	}
	if len(now) > fileBaselineMax {
		return "(the file grew past 256 KiB; read_file the part you need)"
	}
	diff := udiff.Unified("a/"+rec.Path, "b/"+rec.Path, rec.Baseline, string(now))
	out, _ := boundText(diff, fileChangeDiffMax)
	return out
}
