package memorycli

import (
	"errors"
	"io"
	"testing"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/messages"
)

func code(err error) int {
	var ee *clierr.Error
	if errors.As(err, &ee) {
		return ee.Code
	}
	if err != nil {
		return -1
	}
	return clierr.Done
}

func TestTargetNeedsExactlyOneMemoryForAChange(t *testing.T) {
	for _, c := range []struct {
		user, project, need bool
		want                string
		code                int
	}{
		{false, false, false, "", 0},
		{true, true, false, "", 0},
		{true, false, true, "user", 0},
		{false, true, true, "project", 0},
		{true, true, true, "", clierr.Usage},
		{false, false, true, "", clierr.Usage},
	} {
		got, err := Target(c.user, c.project, c.need)
		if got != c.want || code(err) != c.code {
			t.Errorf("Target(%v, %v, %v) = %q, %v; want %q, exit %d", c.user, c.project, c.need, got, err, c.want, c.code)
		}
	}
}

func TestRequestRefusesAnEmptyText(t *testing.T) {
	req, err := Request("edit", "replace", "user", []string{"old", "new"})
	if err != nil || req.OldText != "old" || req.Content != "new" || req.Target != "user" {
		t.Errorf("replace: %+v, %v", req, err)
	}
	if _, err := Request("add", "add", "project", []string{"  "}); code(err) != clierr.Usage {
		t.Errorf("an empty add is a usage error, got %v", err)
	}
	if req, err := Request("clear", "clear", "project", nil); err != nil || req.Action != "clear" {
		t.Errorf("clear needs no text: %+v, %v", req, err)
	}
}

func TestShowFailsOnARefusalOrADamagedMemory(t *testing.T) {
	refused := &messages.MemoryReply{Refused: true, Result: "over the cap"}
	if err := Show(io.Discard, io.Discard, refused, false, true); code(err) != clierr.Failed {
		t.Errorf("a refused change: %v", err)
	}
	if err := Show(io.Discard, io.Discard, refused, false, false); err != nil {
		t.Errorf("a refusal not asked to fail: %v", err)
	}
	damaged := &messages.MemoryReply{Books: []messages.MemoryBook{{Target: "user", Error: "unreadable"}}}
	if err := Show(io.Discard, io.Discard, damaged, false, false); code(err) != clierr.Failed {
		t.Errorf("a damaged memory: %v", err)
	}
}
