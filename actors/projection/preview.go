package projection

import (
	"fmt"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/store"
)

// Idle-gap microcompact. After a long idle (lunch, a night) the provider's prompt cache has
// expired anyway, so rewriting old messages costs nothing extra, and old command output is the
// least likely part of the context to matter now. Older outputs become previews; the latest
// ones stay whole. The gap is measured between entries that are in the log, so the choice is
// the same on every call until the next gap: the rewritten prefix caches again.

// elapsed is b - a, or 0 when either is unknown (a clock stepping back gives ≤ 0 too).
func elapsed(a, b time.Time) time.Duration {
	if a.IsZero() || b.IsZero() {
		return 0
	}
	return b.Sub(a)
}

// preview keeps the head of an output within n bytes — at a line end when one is in its
// second half, else at a rune boundary — and a line saying what was elided. Artifact refs in
// the output survive in that line, since they often sit at its end (the tool layer appends
// them) and are the model's way back to the whole output.
func preview(out string, n int) string {
	head := textfmt.Head(out, n)
	if i := strings.LastIndexByte(head, '\n'); i >= len(head)/2 {
		head = head[:i+1]
	}
	var sb strings.Builder
	sb.Grow(len(head) + 160)
	sb.WriteString(head)
	if head != "" && !strings.HasSuffix(head, "\n") {
		sb.WriteByte('\n')
	}
	fmt.Fprintf(&sb, "[troupe: older output elided after an idle gap; %d bytes; ", len(out))
	if refs := artifactRefs(out); len(refs) > 0 {
		sb.WriteString("the whole output is stored: read_artifact ref=" + strings.Join(refs, ", ref=") + "]")
	} else {
		sb.WriteString("run the call again if you need the rest]")
	}
	return sb.String()
}

// maxRefs bounds the refs one preview repeats.
const maxRefs = 3

// artifactRefs returns the distinct artifact refs in s, in order of kind then position:
// "sha256:<64 hex>" as the store names artifacts, then as its keys spell them (see
// store.ArtifactRefSchemes).
func artifactRefs(s string) []string {
	var refs []string
	// Scan for the rarer byte after each scheme (':', '/') and look back, rather than for the
	// scheme itself: 's' and 'a' are on every line, and this runs over every elided output on
	// every call.
	for _, scheme := range store.ArtifactRefSchemes() {
		sep := scheme[len(scheme)-1]
		for off := 0; len(refs) < maxRefs; {
			i := strings.IndexByte(s[off:], sep)
			if i < 0 {
				break
			}
			if at := off + i + 1 - len(scheme); at >= 0 && s[at:off+i+1] == scheme {
				refs = appendUnique(refs, refAt(s, at, len(scheme)))
			}
			off += i + 1
		}
	}
	return refs
}

// refAt returns the ref starting at s[at:] (a scheme of schemeLen bytes and 64 hex digits), or
// "" when there is none: too few or too many digits, or a scheme inside a longer word.
func refAt(s string, at, schemeLen int) string {
	end := at + schemeLen + 64
	if end > len(s) || !isHex(s[at+schemeLen:end]) || (end < len(s) && isHexByte(s[end])) ||
		(at > 0 && isWordByte(s[at-1])) {
		return ""
	}
	return s[at:end]
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHexByte(s[i]) {
			return false
		}
	}
	return true
}

func isHexByte(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

// isWordByte reports whether c can be part of a word: a ref inside one ("data/…") is no ref.
func isWordByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}
