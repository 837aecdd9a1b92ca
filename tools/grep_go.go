package tools

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
)

// grepMaxScanLine is the longest line the Go search reads whole; longer lines end the file.
const grepMaxScanLine = 4 << 20

// grepBufSize is the most of a file the Go search holds at once before reading on (lines up
// to grepMaxScanLine are still read whole: the scanner grows its buffer for them).
const grepBufSize = 64 << 10

// grepBuffers are one search's read buffers, reused from file to file. They are sized to the
// files searched (at most grepBufSize), not allocated at full size per file: most files a
// workspace search meets are far smaller than that.
type grepBuffers struct {
	br   *bufio.Reader
	scan []byte // the scanner's initial buffer
}

// open returns a reader on f and a scanner buffer, both able to hold all of a file of size
// bytes (a negative size is unknown) or else grepBufSize, growing the ones kept for the next
// file when they cannot.
func (b *grepBuffers) open(f *os.File, size int64) (*bufio.Reader, []byte) {
	want := grepBufSize
	if size >= 0 && size < grepBufSize {
		// +1: the read that finds EOF then has room, so the scanner does not grow to make it.
		want = max(int(size)+1, 512)
	}
	if b.br == nil || b.br.Size() < want {
		if b.br != nil {
			want = min(max(want, 2*b.br.Size()), grepBufSize) // grow geometrically
		}
		b.br = bufio.NewReaderSize(f, want)
		b.scan = make([]byte, 0, want)
		return b.br, b.scan
	}
	b.br.Reset(f)
	return b.br, b.scan[:0]
}

// sniff readies f (of size bytes, as its stat said) for reading and tells whether it is binary:
// a NUL byte in its first readSniffBytes.
func (b *grepBuffers) sniff(f *os.File, size int64) (br *bufio.Reader, scanBuf []byte, binary bool, err error) {
	br, scanBuf = b.open(f, size)
	head, _ := br.Peek(readSniffBytes)
	if len(head) < readSniffBytes && len(head) == br.Size() {
		// A buffer sized to the file (plus one byte) is full: the file grew since the stat.
		// Start over with a full-size buffer, so the head is readSniffBytes as for any file.
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, nil, false, err
		}
		br, scanBuf = b.open(f, -1)
		head, _ = br.Peek(readSniffBytes)
	}
	return br, scanBuf, bytes.IndexByte(head, 0) >= 0, nil
}

// goSearch is the pure-Go grep: the regexp package, .gitignore respected, binary files and
// symlinks leading out of the workspace skipped.
func (s *grepSearch) goSearch(ctx context.Context) (*grepHits, error) {
	re, err := regexp.Compile(s.args.Pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid regex %q: %v", s.args.Pattern, err)
	}
	filter, err := newGlobFilter(s.args.Glob)
	if err != nil {
		return nil, err
	}
	hits := &grepHits{}
	bufs := &grepBuffers{}
	if s.isFile {
		_, err := s.searchFile(ctx, re, s.rel, s.rel, hits, bufs)
		return hits, err
	}
	err = walkWorkspace(ctx, s.ws, s.rel, s.hidden, func(rel string, d fs.DirEntry) error {
		if d.IsDir() || !filter.admits(relativeTo(s.rel, rel)) {
			return nil
		}
		target, ok := s.searchable(rel, d.Type())
		if !ok {
			return nil
		}
		more, err := s.searchFile(ctx, re, target, rel, hits, bufs)
		if err != nil {
			return nil // an unreadable file is skipped, as ripgrep does
		}
		if !more {
			return fs.SkipAll
		}
		return nil
	})
	if !isStop(err) {
		return nil, fmt.Errorf("grep %s: %w", s.rel, err)
	}
	return hits, nil
}

// searchable says whether the entry rel (of type typ) is searched, and which workspace path
// to open for it: a symlink is followed only to a regular file inside the workspace and
// outside troupe's own state.
func (s *grepSearch) searchable(rel string, typ fs.FileMode) (string, bool) {
	if typ&fs.ModeSymlink == 0 {
		return rel, typ.IsRegular()
	}
	_, resolved, err := ResolvePath(s.root, rel)
	if err != nil || isTroupeState(resolved) || underHidden(resolved, s.hidden) {
		return "", false // a symlink out of the workspace is not followed
	}
	return resolved, true
}

// searchFile greps the file target (opened beneath the workspace handle), reporting its lines
// as rel, with context lines, reading through bufs; more is false once counting should stop.
func (s *grepSearch) searchFile(ctx context.Context, re *regexp.Regexp, target, rel string, hits *grepHits, bufs *grepBuffers) (more bool, err error) {
	f, err := s.ws.OpenFile(target)
	if err != nil {
		return true, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return true, err // a FIFO or device is never read (it was opened without blocking)
	}
	size := info.Size()
	br, scanBuf, binary, err := bufs.sniff(f, size)
	if err != nil || binary {
		return true, err
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(scanBuf, grepMaxScanLine)
	n := s.args.Context
	type pending struct {
		num  int
		text string
	}
	var before []pending // up to n lines preceding the current one
	afterLeft := 0       // context lines still owed after the last match
	for num := 1; sc.Scan(); num++ {
		if num%4096 == 0 && ctx.Err() != nil {
			return false, ctx.Err()
		}
		line := sc.Text()
		if re.MatchString(line) {
			for _, p := range before {
				hits.add(rel, p.num, p.text, false)
			}
			before = before[:0]
			if !hits.add(rel, num, line, true) {
				return false, nil
			}
			afterLeft = n
			continue
		}
		if afterLeft > 0 {
			afterLeft--
			hits.add(rel, num, line, false)
			continue
		}
		if n > 0 {
			if len(before) == n {
				before = append(before[:0], before[1:]...)
			}
			before = append(before, pending{num, line})
		}
	}
	if err := sc.Err(); err != nil && err != io.EOF && err != bufio.ErrTooLong {
		return true, err
	}
	return true, nil
}
