package tools

import (
	"bytes"
	"fmt"

	"github.com/troupe-dev/troupe/internal/textfmt"
)

// boundText keeps s within budget bytes: the head and the tail, cut at line boundaries where
// one is near, with a marker saying how much was dropped between them. Errors and summaries
// tend to sit at both ends of an output, so both ends survive.
func boundText(s string, budget int) (string, bool) {
	if len(s) <= budget {
		return s, false
	}
	h := newHeadTail(budget/2, budget/2-markerReserve)
	h.Write([]byte(s))
	return h.String(), true
}

// markerReserve is room left in a budget for the "dropped" marker.
const markerReserve = 96

// headTail collects a stream keeping only its first headMax and last tailMax bytes, so a
// command printing gigabytes costs a bounded amount of memory. Not safe for concurrent use.
type headTail struct {
	headMax, tailMax int
	head, tail       []byte
	total, newlines  int
}

func newHeadTail(headMax, tailMax int) *headTail {
	return &headTail{headMax: max(headMax, 0), tailMax: max(tailMax, 0)}
}

func (h *headTail) Write(p []byte) (int, error) {
	n := len(p)
	h.total += n
	h.newlines += bytes.Count(p, []byte{'\n'})
	if room := h.headMax - len(h.head); room > 0 {
		take := min(room, len(p))
		h.head = append(h.head, p[:take]...)
		p = p[take:]
	}
	if len(p) == 0 {
		return n, nil
	}
	h.tail = append(h.tail, p...)
	if len(h.tail) > 2*h.tailMax+4096 {
		keep := h.tail[len(h.tail)-h.tailMax:]
		h.tail = append(h.tail[:0], keep...)
	}
	return n, nil
}

// Truncated reports whether anything will be dropped.
func (h *headTail) Truncated() bool { return h.total > len(h.head)+min(len(h.tail), h.tailMax) }

// String is the kept text, with a marker where bytes were dropped.
func (h *headTail) String() string {
	if !h.Truncated() {
		return string(h.head) + string(h.tail)
	}
	head := h.head
	if i := bytes.LastIndexByte(head, '\n'); i >= len(head)/2 {
		head = head[:i+1]
	} else {
		head = textfmt.TrimPartialRune(head)
	}
	tail := h.tail[len(h.tail)-min(len(h.tail), h.tailMax):]
	if i := bytes.IndexByte(tail, '\n'); i >= 0 && i < len(tail)/2 {
		tail = tail[i+1:]
	} else {
		tail = textfmt.SkipPartialRune(tail)
	}
	droppedBytes := h.total - len(head) - len(tail)
	droppedLines := h.newlines - bytes.Count(head, []byte{'\n'}) - bytes.Count(tail, []byte{'\n'})
	sep := ""
	if len(head) > 0 && head[len(head)-1] != '\n' {
		sep = "\n"
	}
	marker := fmt.Sprintf("%s… %s dropped (%s) …\n", sep, textfmt.Count(droppedLines, "line"), textfmt.Count(droppedBytes, "byte"))
	return string(head) + marker + string(tail)
}
