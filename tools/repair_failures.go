package tools

import "sync"

// maxRememberedFailures bounds a session's failure memory; when full it starts over.
const maxRememberedFailures = 256

// callFailures is a session's memory of the calls it refused (same tool, same error), so a
// model that repeats a failing call gets a shorter, firmer answer instead of the same schema
// again. The zero value is ready; it lives on Env and is safe for the session's parallel calls.
type callFailures struct {
	mu   sync.Mutex
	seen map[failureKey]int
}

type failureKey struct{ tool, problem string }

// record notes one more failure of tool with problem and says how many there have been.
func (f *callFailures) record(tool, problem string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.seen == nil || len(f.seen) >= maxRememberedFailures {
		f.seen = make(map[failureKey]int)
	}
	key := failureKey{tool, problem}
	f.seen[key]++
	return f.seen[key]
}
