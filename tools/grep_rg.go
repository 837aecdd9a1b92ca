package tools

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// ripgrep finds the files that match with rg (fast, .gitignore aware), then greps each of them
// in Go through the workspace handle. rg opens files by path, so a directory swapped for a
// symlink mid-search could make it read outside the workspace: only the names it reports are
// used, and every line shown comes from a file opened beneath the handle.
func (s *grepSearch) ripgrep(ctx context.Context, rg string) (*grepHits, error) {
	re, err := regexp.Compile(s.args.Pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid regex %q: %v", s.args.Pattern, err)
	}
	files, err := s.ripgrepFiles(ctx, rg)
	if err != nil {
		return nil, err
	}
	hits, bufs := &grepHits{}, &grepBuffers{}
	for _, rel := range files {
		info, err := s.ws.Lstat(rel)
		if err != nil {
			continue
		}
		target, ok := s.searchable(rel, info.Mode().Type())
		if !ok {
			continue
		}
		more, err := s.searchFile(ctx, re, target, rel, hits, bufs)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("grep: %w", ctx.Err())
		}
		if err == nil && !more {
			break
		}
	}
	return hits, nil
}

// ripgrepFiles runs rg from the workspace root and returns the root-relative paths of the files
// with a match, sorted by path.
func (s *grepSearch) ripgrepFiles(ctx context.Context, rg string) ([]string, error) {
	args := []string{"--files-with-matches", "--null", "--no-config", "--no-require-git", "--hidden",
		"--glob", "!.git", "--glob", "!.troupe", "--sort", "path", "--regexp", s.args.Pattern}
	if s.args.Glob != "" {
		args = append(args, "--glob", s.args.Glob)
	}
	args = append(args, "--", filepath.FromSlash(s.rel))
	cmd := exec.Command(rg, args...)
	cmd.Dir = s.root
	cmd.Env = s.environ
	inOwnGroup(cmd)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("grep: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("grep: start rg: %w", err)
	}
	stop := context.AfterFunc(ctx, func() { _ = cmd.Process.Kill() })
	defer stop()
	var files []string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 4<<10), 64<<10)
	sc.Split(splitNUL)
	for sc.Scan() {
		rel := filepath.ToSlash(filepath.Clean(sc.Text()))
		if !isTroupeState(rel) && !underHidden(rel, s.hidden) {
			files = append(files, rel)
		}
	}
	waitErr := cmd.Wait()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("grep: %w", ctx.Err())
	}
	if waitErr == nil {
		return files, nil
	}
	if exit, ok := waitErr.(*exec.ExitError); ok && exit.ExitCode() == 1 {
		return nil, nil // no matches
	}
	msg := strings.TrimSpace(stderr.String())
	if len(files) == 0 && strings.Contains(msg, "regex") {
		return nil, fmt.Errorf("invalid regex %q: %s", s.args.Pattern, msg)
	}
	if len(files) > 0 {
		return files, nil // some files could not be read; what matched is still right
	}
	return nil, fmt.Errorf("grep: rg failed: %v: %s", waitErr, msg)
}

// splitNUL splits rg's --null output into paths.
func splitNUL(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
