package actors

import (
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// usageLine is the token use of the session or of one of its children, for /cost.
type usageLine struct {
	Who     string // "session" or a child's handle
	Model   string
	In, Out int
	Running bool // a child still running: its usage is known when it ends
}

// costReport prices each line with llm's price table. A model the table does not know gets
// "no price known", never a guess, and the total says it leaves that line out. Cached input is
// not in the session's totals, so input is priced at the full rate: an upper bound.
func costReport(lines []usageLine) string {
	var b strings.Builder
	total, unpriced, pending := 0.0, map[string]bool{}, 0
	for _, l := range lines {
		if l.Running {
			fmt.Fprintf(&b, "%-22s %-24s running: its usage is known when it ends\n", l.Who, l.Model)
			pending++
			continue
		}
		price, ok := llm.PriceOf(l.Model)
		cost := "no price known for " + l.Model
		if ok {
			c := price.Cost(l.In, 0, l.Out)
			total += c
			cost = formatDollars(c)
		} else {
			unpriced[l.Model] = true
		}
		fmt.Fprintf(&b, "%-22s %-24s %d in, %d out  %s\n", l.Who, l.Model, l.In, l.Out, cost)
	}
	fmt.Fprintf(&b, "total %s", formatDollars(total))
	if len(lines) > 1 {
		b.WriteString(" with children")
	}
	if len(unpriced) > 0 {
		fmt.Fprintf(&b, ", not counting %s without a known price", textfmt.Count(len(unpriced), "model"))
	}
	if pending > 0 {
		fmt.Fprintf(&b, ", nor %s", textfmt.Count(pending, "running agent"))
	}
	b.WriteString("\n(cached input tokens are not recorded: input is priced at the full rate, an upper bound)")
	return b.String()
}

func formatDollars(c float64) string {
	if c > 0 && c < 0.01 {
		return fmt.Sprintf("$%.4f", c)
	}
	return fmt.Sprintf("$%.2f", c)
}

// costLines is the session's usage and its children's, for /cost.
func (s *session) costLines() []usageLine {
	lines := []usageLine{{Who: "session " + s.handle(), Model: s.deps.Model}}
	if s.meta != nil {
		lines[0].In, lines[0].Out = s.meta.InputTokens, s.meta.OutputTokens
	}
	for _, c := range s.kids.inOrder() {
		l := usageLine{Who: c.rec.Handle, Model: s.deps.Model}
		if c.start != nil && c.start.Model != "" {
			l.Model = c.start.Model
		}
		if r := c.rec.Result; r != nil {
			l.In, l.Out = r.Usage.InputTokens, r.Usage.OutputTokens
		} else {
			l.Running = !messages.AgentFinal(c.rec.State)
		}
		lines = append(lines, l)
	}
	return lines
}
