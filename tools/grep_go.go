package tools

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
)

// grepMaxScanLine is the longest line the Go search reads whole; longer lines end the file.
const grepMaxScanLine = 4 << 20

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
	if s.isFile {
		_, err := s.searchFile(ctx, re, s.target, s.rel, hits)
		return hits, err
	}
	err = walkWorkspace(ctx, s.root, s.target, func(rel string, d fs.DirEntry) error {
		if d.IsDir() || !filter.admits(relativeTo(s.rel, rel)) {
			return nil
		}
		abs := filepath.Join(s.root, filepath.FromSlash(rel))
		if d.Type()&fs.ModeSymlink != 0 {
			resolved, _, err := ResolvePath(s.root, abs)
			if err != nil {
				return nil // a symlink out of the workspace is not followed
			}
			if info, err := os.Stat(resolved); err != nil || !info.Mode().IsRegular() {
				return nil
			}
			abs = resolved
		} else if !d.Type().IsRegular() {
			return nil
		}
		more, err := s.searchFile(ctx, re, abs, rel, hits)
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

// searchFile greps one file, with context lines; more is false once counting should stop.
func (s *grepSearch) searchFile(ctx context.Context, re *regexp.Regexp, abs, rel string, hits *grepHits) (more bool, err error) {
	f, err := os.Open(abs)
	if err != nil {
		return true, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	if head, _ := br.Peek(readSniffBytes); bytes.IndexByte(head, 0) >= 0 {
		return true, nil
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 64<<10), grepMaxScanLine)
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
