package tools

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// A plain shell read (see bash_reads.go) counts for file truth as the read_file it stands for:
// the files are fingerprinted before the command runs and read again after it succeeded, and
// each one whose content held still gets the same record a read_file of those lines would.
// In a numbered range (nl -ba a.go | sed -n '1,80p') bash reports only the last command's
// status, so the first one's success rests on troupe itself reading the file, unchanged,
// before and after: a file that could not be read is not planned, one that went away or
// changed is not recorded.

// shellReadTarget is a file a read command is about to print, fingerprinted before it runs.
type shellReadTarget struct {
	rel    string
	lines  lineChoice
	before string // the content's SHA-256 before the command ran
}

// planShellReads returns the workspace files command reads when it is a plain read, each
// fingerprinted now; nil when it is not one, or when any file is not a regular file inside the
// workspace (an outside path, troupe's own state, a directory).
func (e *Env) planShellReads(command string) []shellReadTarget {
	reads := parseShellRead(command)
	if e.Files == nil || reads == nil {
		return nil
	}
	ws, err := e.openRoot()
	if err != nil {
		return nil
	}
	defer ws.Close()
	targets := make([]shellReadTarget, 0, len(reads))
	for _, r := range reads {
		path := r.path
		if r.dir != "" && !filepath.IsAbs(path) {
			if !filepath.IsAbs(r.dir) && e.cdSearchesPath() {
				return nil // cd DIR may land outside the workspace root's DIR
			}
			path = filepath.Join(r.dir, path)
		}
		_, rel, err := e.resolve(path)
		if err != nil || isTroupeState(rel) {
			return nil
		}
		f, err := ws.OpenFile(rel)
		if err != nil {
			return nil
		}
		fp, _, _, err := readBaseline(f)
		f.Close()
		if err != nil {
			return nil
		}
		targets = append(targets, shellReadTarget{rel: rel, lines: r.lines, before: fp.sha})
	}
	return targets
}

// cdSearchesPath says whether commands run with CDPATH set, under which "cd DIR" may go to a
// directory other than the one under the workspace root.
func (e *Env) cdSearchesPath() bool {
	for _, kv := range e.commandEnviron() {
		if strings.HasPrefix(kv, "CDPATH=") {
			return true
		}
	}
	return false
}

// recordShellReads records what a read command that succeeded showed, as read_file records
// it. A file whose content changed while the command ran is left out: the model may have seen
// neither version whole.
func (e *Env) recordShellReads(targets []shellReadTarget) {
	if len(targets) == 0 {
		return
	}
	ws, err := e.openRoot()
	if err != nil {
		return
	}
	defer ws.Close()
	for _, t := range targets {
		f, err := ws.OpenFile(t.rel)
		if err != nil {
			continue
		}
		fp, content, total, err := readBaseline(f)
		f.Close()
		start, end, shown := t.lines.span(total)
		if err != nil || fp.sha != t.before || !shown {
			continue
		}
		e.Files.recordRead(t.rel, fp, content, readSpan{start: start, end: end, total: total}, e.Turn)
	}
}

// readBaseline reads a regular file whole: its fingerprint, its content when it is at most
// fileBaselineMax bytes, and its line count as read_file counts lines.
func readBaseline(f *os.File) (fp fingerprint, content string, total int, err error) {
	info, err := f.Stat()
	if err != nil {
		return fingerprint{}, "", 0, err
	}
	if !info.Mode().IsRegular() {
		return fingerprint{}, "", 0, os.ErrInvalid
	}
	baseline, lines := &baselineCapture{}, &lineCounter{}
	if fp, err = hashOpenFile(f, baseline, lines); err != nil {
		return fingerprint{}, "", 0, err
	}
	return fp, baseline.content(), lines.total(), nil
}

// lineCounter counts lines as countLines does: a last line without a newline counts.
type lineCounter struct {
	newlines int
	last     byte
	any      bool
}

func (c *lineCounter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		c.newlines += bytes.Count(p, []byte{'\n'})
		c.last, c.any = p[len(p)-1], true
	}
	return len(p), nil
}

func (c *lineCounter) total() int {
	if c.any && c.last != '\n' {
		return c.newlines + 1
	}
	return c.newlines
}
