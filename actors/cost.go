package actors

import (
	"fmt"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// usageLine is the token use of the session or of one of the agents under it, for /cost.
type usageLine struct {
	Who     string // "session root" or an agent's handle
	Model   string
	In, Out int
	Cached  int  // of In, read from the provider's prompt cache
	Running bool // an agent still running: its usage so far
}

// costReport prices each line with llm's price table, cached input at the cached rate. A model
// the table does not know gets "no price known", never a guess, and the total says it leaves
// that line out.
func costReport(lines []usageLine) string {
	var b strings.Builder
	total, unpriced, running, cached := 0.0, map[string]bool{}, 0, 0
	for _, l := range lines {
		price, ok := llm.PriceOf(l.Model)
		cost := "no price known for " + l.Model
		if ok {
			c := price.Cost(l.In, l.Cached, l.Out)
			total += c
			cost = formatDollars(c)
		} else {
			unpriced[l.Model] = true
		}
		if l.Running {
			cost += " so far (running)"
			running++
		}
		in := fmt.Sprintf("%d in", l.In)
		if l.Cached > 0 {
			in = fmt.Sprintf("%d in (%d cached)", l.In, l.Cached)
			cached += l.Cached
		}
		fmt.Fprintf(&b, "%-22s %-24s %s, %d out  %s\n", l.Who, l.Model, in, l.Out, cost)
	}
	fmt.Fprintf(&b, "total %s", formatDollars(total))
	if len(lines) > 1 {
		b.WriteString(" with subagents")
	}
	if running > 0 {
		fmt.Fprintf(&b, " (%s still running)", textfmt.Count(running, "agent"))
	}
	if len(unpriced) > 0 {
		fmt.Fprintf(&b, ", not counting %s without a known price", textfmt.Count(len(unpriced), "model"))
	}
	if cached == 0 {
		b.WriteString("\n(no cached input recorded: input is priced at the full rate)")
	}
	return b.String()
}

func formatDollars(c float64) string {
	if c > 0 && c < 0.01 {
		return fmt.Sprintf("$%.4f", c)
	}
	return fmt.Sprintf("$%.2f", c)
}

// sessionTreeUsage is the usage of self (the session's own meta, fresher than the stored one)
// and of every session under it in all (the stored metas: children, their children…), depth
// first in the order they were created.
func sessionTreeUsage(self *store.SessionMeta, all []*store.SessionMeta) []usageLine {
	lines := []usageLine{{Who: "session " + handleOr(self.Agent, "root"), Model: self.Model, In: self.InputTokens, Out: self.OutputTokens,
		Cached: self.CachedInputTokens}}
	kids := map[string][]*store.SessionMeta{}
	for _, m := range all {
		if m.Parent != "" && m.ID != self.ID {
			kids[m.Parent] = append(kids[m.Parent], m)
		}
	}
	var walk func(id string, depth int)
	walk = func(id string, depth int) {
		if depth > 64 { // a cycle in damaged metas must not recurse forever
			return
		}
		list := kids[id]
		slices.SortFunc(list, func(a, b *store.SessionMeta) int { return a.Created.Compare(b.Created) })
		for _, m := range list {
			lines = append(lines, usageLine{Who: handleOr(m.Agent, m.ID), Model: m.Model, In: m.InputTokens, Out: m.OutputTokens,
				Cached: m.CachedInputTokens, Running: m.Status == string(messages.AgentRunning)})
			walk(m.ID, depth+1)
		}
	}
	walk(self.ID, 0)
	return lines
}

func handleOr(handle, fallback string) string {
	if handle == "" {
		return fallback
	}
	return handle
}
