package projection

import (
	"encoding/json"
	"strings"

	"github.com/troupe-dev/troupe/llm"
)

// SelectSpan chooses the span to collapse: items[from:to], from the start of what the model
// sees (the last boundary included, so the new summary folds it in) up to a tail kept verbatim.
// The tail is the longest one within keepTokens (estimated) that holds at least minKeepTurns
// user or assistant messages; when those turns alone exceed keepTokens, the turns win. The cut
// is a SafeCut point, so no call is separated from its result. ok is false when nothing is
// worth collapsing: the tail would hold everything, or the last boundary (which must be
// folded, not left behind), or the span would hold no message.
func SelectSpan(items []Item, keepTokens, minKeepTurns int) (from, to int, ok bool) {
	b := lastBoundary(items)
	from = firstVisible(items, b)
	var limit uint64
	if b >= 0 {
		limit = items[b].Boundary.ToSeq
	}
	safe := cutPoints(items)
	tokens, turns, cand := 0, 0, -1
	for j := len(items); j >= from; j-- {
		if j < len(items) {
			if it := items[j]; it.Boundary == nil && (b < 0 || it.Seq > limit) {
				tokens += EstimateMessage(it.Msg)
				if startsTurn(it) {
					turns++
				}
			}
		}
		if !safe[j] || turns < minKeepTurns {
			continue
		}
		if tokens <= keepTokens {
			cand = j
			continue
		}
		if cand < 0 {
			cand = j
		}
		break
	}
	if cand <= from || cand <= b {
		return 0, 0, false
	}
	for _, it := range items[from:cand] {
		if it.Boundary == nil {
			return from, cand, true
		}
	}
	return 0, 0, false
}

// SpanSeqs returns the range of log entries span covers: from the first entry of the earliest
// item (for a boundary, the first entry it replaced) to the last item's seq.
func SpanSeqs(span []Item) (from, to uint64) {
	for _, it := range span {
		first := it.Seq
		if it.Boundary != nil && it.Boundary.FromSeq > 0 {
			first = it.Boundary.FromSeq
		}
		if first > 0 && (from == 0 || first < from) {
			from = first
		}
		to = max(to, it.Seq)
	}
	return from, to
}

// Mechanical bounds: a summary written without a model must stay small whatever the span held.
const (
	mechBudget     = 4 << 10 // bytes of summary and lists together
	mechListItems  = 20
	mechItemBytes  = 200
	mechQuoteBytes = 600 // the earlier summary, the last assistant text
)

// Mechanical summarizes span without a model: the user's requests (first lines), the files the
// calls named, the outcome of each bash command and every tool error, and the last thing the
// assistant said. A boundary in span is folded in: its summary is quoted and its lists carried
// over. Every list is bounded and the whole stays within about 4 KB. It is the fallback when
// the model's summary fails, so it cannot fail itself.
func Mechanical(span []Item, reason string) Boundary {
	var (
		requests, files, results, issues []string
		earlier, lastText                string
		calls                            []llm.ToolCall // of the last assistant message
	)
	for _, it := range span {
		if b := it.Boundary; b != nil {
			earlier = b.Summary
			files = appendUnique(files, b.FilesTouched...)
			results = append(results, b.KeyResults...)
			issues = append(issues, b.OpenIssues...)
			continue
		}
		m := it.Msg
		switch m.Role {
		case llm.RoleUser:
			if !strings.HasPrefix(m.Content, NotePrefix) {
				requests = appendLine(requests, firstLine(m.Content, mechItemBytes))
			}
		case llm.RoleAssistant:
			if t := strings.TrimSpace(m.Content); t != "" {
				lastText = t
			}
			calls = m.ToolCalls
			for _, c := range calls {
				files = appendUnique(files, argString(c.Args, "path"))
			}
		case llm.RoleTool:
			results = appendLine(results, keyResult(callFor(calls, m.ToolCallID), m))
		}
	}
	b := Boundary{Mechanical: true, Reason: reason}
	b.FromSeq, b.ToSeq = SpanSeqs(span)
	for limit := mechListItems; ; limit -= 2 {
		b.Summary = mechSummary(earlier, requests, lastText, limit)
		b.FilesTouched = boundList(files, limit, mechItemBytes)
		b.KeyResults = boundList(results, limit, mechItemBytes)
		b.OpenIssues = boundList(issues, limit, mechItemBytes)
		if size(b) <= mechBudget || limit <= 2 {
			break
		}
	}
	return b
}

func mechSummary(earlier string, requests []string, lastText string, limit int) string {
	var sb strings.Builder
	if earlier = strings.TrimSpace(earlier); earlier != "" {
		sb.WriteString("Earlier: " + clip(earlier, mechQuoteBytes) + "\n\n")
	}
	if len(requests) > 0 {
		sb.WriteString("User requests, in order:\n")
		for _, r := range boundList(requests, limit, mechItemBytes) {
			sb.WriteString("- " + r + "\n")
		}
	}
	if lastText != "" {
		sb.WriteString("\nLast assistant message: " + clip(lastText, mechQuoteBytes))
	}
	return strings.TrimSpace(sb.String())
}

func size(b Boundary) int {
	n := len(b.Summary)
	for _, list := range [][]string{b.FilesTouched, b.KeyResults, b.OpenIssues} {
		for _, s := range list {
			n += len(s) + 3 // "- " and a newline
		}
	}
	return n
}

// keyResult is the line a tool result contributes to the key results: every bash command
// with its outcome, and every other tool's error; other results (reads, listings) are
// evidence the model already acted on, not results.
func keyResult(call llm.ToolCall, m llm.Message) string {
	name := m.ToolName
	if name == "" {
		name = call.Name
	}
	if name == "bash" {
		cmd := firstLine(argString(call.Args, "command"), 120)
		if !m.IsError {
			return "$ " + cmd + " → ok"
		}
		return "$ " + cmd + " → " + failure(m.Content)
	}
	if !m.IsError {
		return ""
	}
	if p := argString(call.Args, "path"); p != "" {
		name += " " + clip(p, 80)
	}
	return name + " → " + failure(m.Content)
}

// failure describes a failed output by its first line, led by the bash status marker
// ("[exit code 1]") when the output ends with one.
func failure(out string) string {
	status := "error"
	out = strings.TrimSpace(out)
	last := out[strings.LastIndexByte(out, '\n')+1:]
	if strings.HasPrefix(last, "[") && strings.HasSuffix(last, "]") {
		status = clip(last[1:len(last)-1], 60)
		out = strings.TrimSpace(strings.TrimSuffix(out, last))
	}
	if line := firstLine(out, mechItemBytes); line != "" {
		return status + ": " + line
	}
	return status
}

// callFor returns the call of calls with id (the zero call when there is none).
func callFor(calls []llm.ToolCall, id string) llm.ToolCall {
	for _, c := range calls {
		if c.ID == id {
			return c
		}
	}
	return llm.ToolCall{}
}

// argString returns the string field key of a call's JSON arguments; malformed arguments give
// "". "." says nothing about what was touched and is dropped too.
func argString(args, key string) string {
	if !strings.Contains(args, key) {
		return "" // most arguments lack the key: skip decoding them
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(obj[key], &s) != nil || s == "." {
		return ""
	}
	return strings.TrimSpace(s)
}

func appendLine(list []string, s string) []string {
	if s == "" {
		return list
	}
	return append(list, s)
}
