package actors

import (
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// mcpLife is an MCP server's state and restart policy, as a plain value its actor owns: a
// failed start or a dead server waits a backoff that doubles with each failure in a row (1s,
// 2s, 4s … up to a minute) before the next start; a successful start resets it.
type mcpLife struct {
	state    messages.MCPState
	lastErr  string
	failures int // in a row
	restarts int
	version  int
	wait     time.Duration
	retryAt  time.Time
}

const (
	mcpBackoffFirst = time.Second
	mcpBackoffMax   = time.Minute
)

// mayStart says whether a start may begin now: the server is not up or starting, and any
// backoff has passed.
func (l *mcpLife) mayStart(now time.Time) bool {
	switch l.state {
	case messages.MCPReady, messages.MCPStarting:
		return false
	}
	return !now.Before(l.retryAt)
}

func (l *mcpLife) ready() {
	l.state, l.failures, l.retryAt, l.wait = messages.MCPReady, 0, time.Time{}, 0
	l.version++
}

// failed records a start that failed.
func (l *mcpLife) failed(now time.Time, err error) {
	l.state, l.lastErr = messages.MCPFailed, err.Error()
	l.backoff(now)
}

// lost records a server that died after it was up.
func (l *mcpLife) lost(now time.Time, err error) {
	l.state, l.lastErr = messages.MCPFailed, err.Error()
	l.restarts++
	l.backoff(now)
}

func (l *mcpLife) backoff(now time.Time) {
	l.wait = mcpBackoffFirst << min(l.failures, 6)
	l.wait = min(l.wait, mcpBackoffMax)
	l.failures++
	l.retryAt = now.Add(l.wait)
}
