package turn

import (
	"fmt"
	"sort"
	"strings"

	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// Tally counts a session's calls and their repairs: Pending since the last flush to the store
// (at a turn boundary), and Total for /status.
type Tally struct {
	Pending, Total store.RepairStats
	before         map[string]string // the repair made to a call before it ran (text format, inferred tool), until its result is counted
}

// Call counts one executed call with the repairs made to it (text format, arguments, name…).
func (t *Tally) Call(kinds []string) {
	for _, st := range []*store.RepairStats{&t.Pending, &t.Total} {
		st.Calls++
		if len(kinds) > 0 {
			st.Repaired++
		}
		for _, k := range kinds {
			if st.ByKind == nil {
				st.ByKind = map[string]int{}
			}
			st.ByKind[k]++
		}
	}
}

// Repair counts a repair that belongs to no call (a continued reply).
func (t *Tally) Repair(kind string) {
	for _, st := range []*store.RepairStats{&t.Pending, &t.Total} {
		if st.ByKind == nil {
			st.ByKind = map[string]int{}
		}
		st.ByKind[kind]++
	}
}

// Flush returns the pending counts for model and starts a new batch.
func (t *Tally) Flush(model string) store.RepairStats {
	out := t.Pending
	out.Model = model
	t.Pending = store.RepairStats{}
	return out
}

// kindGroups names the repair kinds for people; every argument repair counts as "arguments".
var kindGroups = map[string]string{
	string(tools.RepairTextFormat):   "text format",
	string(tools.RepairToolName):     "tool names",
	string(tools.RepairInferredTool): "tool names",
	string(tools.RepairContinuation): "continued replies",
}

// RepairLine is one model's counters for people:
// "qwen3-coder: 14% of calls repaired: 9 text format, 5 arguments".
func RepairLine(r store.RepairStats) string {
	pct := 0
	if r.Calls > 0 {
		pct = (100*r.Repaired + r.Calls/2) / r.Calls
	}
	line := fmt.Sprintf("%s: %d%% of %d calls repaired", r.Model, pct, r.Calls)
	groups := map[string]int{}
	for k, n := range r.ByKind {
		g, ok := kindGroups[k]
		if !ok {
			g = "arguments"
		}
		groups[g] += n
	}
	if len(groups) == 0 {
		return line
	}
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Slice(names, func(i, j int) bool {
		if groups[names[i]] != groups[names[j]] {
			return groups[names[i]] > groups[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, g := range names {
		parts[i] = fmt.Sprintf("%d %s", groups[g], g)
	}
	return line + ": " + strings.Join(parts, ", ")
}

// Mark records the repair of kind made to call id before it ran (recovered from text, its tool
// inferred); it is counted with the call's result.
func (t *Tally) Mark(id, kind string) {
	if t.before == nil {
		t.before = map[string]string{}
	}
	t.before[id] = kind
}

// KindsOf is the repairs made before call id ran, forgetting them.
func (t *Tally) KindsOf(id string) []string {
	kind, ok := t.before[id]
	if !ok {
		return nil
	}
	delete(t.before, id)
	return []string{kind}
}
