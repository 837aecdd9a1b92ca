package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// rgEvent is the part of a ripgrep --json message grep reads.
type rgEvent struct {
	Type string `json:"type"`
	Data struct {
		Path       rgText `json:"path"`
		Lines      rgText `json:"lines"`
		LineNumber int    `json:"line_number"`
	} `json:"data"`
}

// rgText is ripgrep's "arbitrary data": text when it is UTF-8, base64 bytes otherwise.
type rgText struct {
	Text  string `json:"text"`
	Bytes string `json:"bytes"`
}

func (t rgText) String() string {
	if t.Bytes != "" {
		if b, err := base64.StdEncoding.DecodeString(t.Bytes); err == nil {
			return string(b)
		}
	}
	return t.Text
}

// ripgrep runs rg on the search, from the workspace root so it prints root-relative paths.
func (s *grepSearch) ripgrep(ctx context.Context, rg string) (*grepHits, error) {
	args := []string{"--json", "--no-config", "--no-require-git", "--hidden",
		"--glob", "!.git", "--glob", "!.troupe", "--sort", "path",
		"--context", strconv.Itoa(s.args.Context), "--regexp", s.args.Pattern}
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
	hits := &grepHits{}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 64<<10), 2*grepMaxScanLine)
	stoppedEarly := false
	for sc.Scan() {
		var ev rgEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil || (ev.Type != "match" && ev.Type != "context") {
			continue
		}
		rel := filepath.ToSlash(filepath.Clean(ev.Data.Path.String()))
		if !hits.add(rel, ev.Data.LineNumber, ev.Data.Lines.String(), ev.Type == "match") {
			stoppedEarly = true
			_ = cmd.Process.Kill()
			break
		}
	}
	waitErr := cmd.Wait()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("grep: %w", ctx.Err())
	}
	if stoppedEarly || waitErr == nil {
		return hits, nil
	}
	if exit, ok := waitErr.(*exec.ExitError); ok && exit.ExitCode() == 1 {
		return hits, nil // no matches
	}
	msg := strings.TrimSpace(stderr.String())
	if hits.matches == 0 && strings.Contains(msg, "regex") {
		return nil, fmt.Errorf("invalid regex %q: %s", s.args.Pattern, msg)
	}
	if hits.matches > 0 {
		return hits, nil // some files could not be read; what matched is still right
	}
	return nil, fmt.Errorf("grep: rg failed: %v: %s", waitErr, msg)
}
