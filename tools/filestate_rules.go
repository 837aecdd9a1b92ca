package tools

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// The rules the file tools apply through Env.Files: a read records a baseline, a repeated
// read of unchanged content answers with a note, a write to an existing file needs a baseline
// that still matches the disk, and the agent's own write becomes the new baseline.

// fingerprint is what the disk says about a file.
type fingerprint struct {
	sha     string
	size    int64
	modTime time.Time
}

// hashFile fingerprints abs, streaming it through SHA-256.
func hashFile(abs string) (fingerprint, error) {
	f, err := os.Open(abs)
	if err != nil {
		return fingerprint{}, err
	}
	defer f.Close()
	return hashOpenFile(f)
}

// hashOpenFile fingerprints an open file from where it stands, streaming it through SHA-256
// and into also (a baseline capture, a line counter) in the same pass.
func hashOpenFile(f *os.File, also ...io.Writer) (fingerprint, error) {
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(append([]io.Writer{h}, also...)...), f); err != nil {
		return fingerprint{}, fmt.Errorf("hash %s: %w", f.Name(), err)
	}
	info, err := f.Stat()
	if err != nil {
		return fingerprint{}, fmt.Errorf("stat %s: %w", f.Name(), err)
	}
	return fingerprint{sha: hex.EncodeToString(h.Sum(nil)), size: info.Size(), modTime: info.ModTime()}, nil
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// baselineCapture keeps the first fileBaselineMax bytes written to it and notes overflow.
type baselineCapture struct {
	buf  bytes.Buffer
	over bool
}

func (c *baselineCapture) Write(p []byte) (int, error) {
	if room := fileBaselineMax - c.buf.Len(); !c.over && len(p) <= room {
		c.buf.Write(p)
	} else {
		c.over = true
	}
	return len(p), nil
}

// content is the captured file, or "" when it was over the bound.
func (c *baselineCapture) content() string {
	if c.over {
		return ""
	}
	return c.buf.String()
}

// readSpan is the part of a file one read_file call returned.
type readSpan struct {
	start, end, total int
	linesCut          bool
}

// unchangedNote answers a read of rel whose requested lines the model has already seen and
// whose content has not changed since; ok is false when the read must return text.
func (t *FileTracker) unchangedNote(rel, abs string, offset, limit int) (note string, ok bool) {
	rec, found := t.get(rel)
	if !found || !rec.Shown || rec.Source != SourceRead || offset > max(rec.TotalLines, 1) {
		return "", false
	}
	end := min(offset+limit-1, rec.TotalLines)
	if !rec.Whole && (offset < rec.RangeStart || end > rec.RangeEnd) {
		return "", false
	}
	fp, err := hashFile(abs)
	if err != nil || fp.sha != rec.SHA256 {
		return "", false
	}
	what := textfmt.Count(rec.TotalLines, "line")
	if !rec.Whole {
		what = fmt.Sprintf("lines %d–%d of %d", rec.RangeStart, rec.RangeEnd, rec.TotalLines)
	}
	return fmt.Sprintf("%s unchanged since turn %d (%s); the content you read then is current", rel, rec.Turn, what), true
}

// recordRead records what a read returned. Consecutive partial reads of the same content
// merge, so reading a long file in parts gives a whole baseline.
func (t *FileTracker) recordRead(rel string, fp fingerprint, content string, span readSpan, turn int) {
	start, end := span.start, span.end
	if prev, ok := t.get(rel); ok && prev.SHA256 == fp.sha && prev.Shown && !prev.Whole &&
		start <= prev.RangeEnd+1 && end >= prev.RangeStart-1 {
		start, end = min(start, prev.RangeStart), max(end, prev.RangeEnd)
	}
	rec := &FileRecord{Path: rel, RangeStart: start, RangeEnd: end, TotalLines: span.total,
		Whole: start <= 1 && end >= span.total, SHA256: fp.sha, ModTime: fp.modTime, Size: fp.size,
		Baseline: content, Source: SourceRead, Turn: turn, Shown: true}
	switch {
	case !rec.Whole:
		rec.Status = StatusPartial
	case span.linesCut:
		rec.Status = StatusTruncated
	default:
		rec.Status = StatusFresh
	}
	t.put(rec)
}

// recordWrite makes the agent's own write the fresh baseline.
func (t *FileTracker) recordWrite(rel, abs string, data []byte, turn int) {
	rec := &FileRecord{Path: rel, SHA256: sha256Hex(data), Size: int64(len(data)), TotalLines: countLines(string(data)),
		Whole: true, Source: SourceAgentWrite, Status: StatusFresh, Turn: turn, RangeStart: 1}
	rec.RangeEnd = rec.TotalLines
	if info, err := os.Stat(abs); err == nil {
		rec.ModTime, rec.Size = info.ModTime(), info.Size()
	}
	if len(data) <= fileBaselineMax {
		rec.Baseline = string(data)
	}
	t.put(rec)
}

// requireBaseline is the state requirement of a write to rel: an existing file needs a
// baseline whose content still matches the disk (re-hashed now, so a file replaced with an
// equal size and mtime is caught). A whole baseline is needed unless partialOK, in which case
// the tool checks the range itself. A missing file needs none, unless missingIsStale. It
// returns the rejection, or nil.
func (t *FileTracker) requireBaseline(tool, rel, abs string, partialOK, missingIsStale bool) *Result {
	rec, tracked := t.get(rel)
	if info, err := os.Stat(abs); err == nil && !info.Mode().IsRegular() {
		return nil // a directory or a device: the tool itself refuses it
	}
	fp, err := hashFile(abs)
	reject := func(format string, a ...any) *Result {
		res := errorResult(fmt.Sprintf(format, a...))
		return &res
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if tracked && missingIsStale {
			t.markMissing(rel)
			by := ""
			if rec.Source == SourceAgentCommand && rec.Status == StatusStale {
				by = ": " + rec.ownCommandText() + " deleted it"
			}
			return reject("%s was deleted since you read it (turn %d)%s; list_dir to see what is there now, or write_file to create it anew", rel, rec.Turn, by)
		}
		return nil
	case err != nil:
		return reject("%s: cannot check %s against your last read: %v", tool, rel, err)
	case !tracked:
		return reject("%s exists and you have not read it in this session; read_file it first, then retry the %s", rel, tool)
	case fp.sha != rec.SHA256 && rec.changedByOwnCommand(fp.sha):
		return reject("%s changed since you read it (turn %d): %s changed it; read_file it again, then retry", rel, rec.Turn, rec.ownCommandText())
	case fp.sha != rec.SHA256:
		t.markChanged(rel, fp)
		return reject("%s changed on disk since you read it (turn %d): someone or something else modified it; read_file it again first, then redo the %s against its current content", rel, rec.Turn, tool)
	case !rec.Whole && !partialOK:
		return reject("you have read only lines %d–%d of %d of %s; %s replaces the whole file, so read_file it again first (all of it)", rec.RangeStart, rec.RangeEnd, rec.TotalLines, rel, tool)
	}
	return nil
}

// requireRange checks that an edit touching lines [first, last] of rel stays within what the
// model read, for a partial baseline.
func (t *FileTracker) requireRange(rel string, first, last int) *Result {
	rec, ok := t.get(rel)
	if !ok || rec.Whole || (first >= rec.RangeStart && last <= rec.RangeEnd) {
		return nil
	}
	res := errorResult(fmt.Sprintf("old_string is at lines %d–%d of %s, outside the lines you read (%d–%d of %d); read_file it again first, covering those lines",
		first, last, rel, rec.RangeStart, rec.RangeEnd, rec.TotalLines))
	return &res
}

// markChanged notes that the disk differs from rel's baseline.
func (t *FileTracker) markChanged(rel string, fp fingerprint) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r, ok := t.recs[rel]; ok && (r.Status != StatusChanged || r.DiskSHA256 != fp.sha) {
		r.Status = StatusChanged
		r.byOther()
		r.DiskSHA256, r.ModTime, r.Size = fp.sha, fp.modTime, fp.size
		t.save(r)
	}
}

// markMissing notes that rel was deleted.
func (t *FileTracker) markMissing(rel string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r, ok := t.recs[rel]; ok && r.Status != StatusStale {
		r.Status = StatusStale
		if r.Source == SourceAgentCommand {
			r.byOther()
		}
		t.save(r)
	}
}
