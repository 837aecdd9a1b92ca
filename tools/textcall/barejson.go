package textcall

import (
	"encoding/json"
	"strings"
)

// Bare JSON calls written straight into the text:
//
//	{"name": "read_file", "arguments": {"path": "a.go"}}
//	[{"name": "a", "parameters": {}}, {"name": "b", "args": {}}]
//	{"function": {"name": "read_file", "arguments": "{\"path\":\"a.go\"}"}}
//	{"tool_calls": [{"type": "function", "function": {…}}]}
//
// With no marker around them, a candidate counts only when a call name is Known (or the
// candidate sits in a marker, or is followed by a stray </tool_call> whose opening was lost).
// Arguments may be a JSON string holding JSON; trailing commas and single quotes are repaired.

func scanBareJSON(text string, sc scanCtx) []span {
	var out []span
	budget := workBudget(text)
	for pos := 0; pos < len(text) && budget > 0; {
		i := strings.IndexAny(text[pos:], "{[")
		if i < 0 {
			break
		}
		start := pos + i
		if !bareCandidate(text, start) {
			pos = start + 1
			continue
		}
		end, closed := matchJSON(text, start)
		budget -= end - start
		if !closed {
			if name := leadingName(text[start:]); sc.accepts(name) {
				// A member fused with its value ("arguments="{…}") unpairs the quotes.
				if sp, cost, ok := fusedCall(text, start, name, false); ok {
					budget -= cost
					out = append(out, sp)
					pos = sp.end
					continue
				}
				// A key's quote escaped by mistake, or the closers dropped before the prose
				// resumes (jsonprose.go).
				if fixed, n, ok := closedBeforeProse(text[start:]); ok && mentionsCallKey(fixed) {
					budget -= n
					if calls := jsonCallsIn(fixed, FormatJSON); acceptedAny(calls, sc) {
						out = append(out, span{start: start, end: start + n, calls: calls})
						pos = start + n
						continue
					}
				}
				// A reply that ends one or two closing brackets short of a whole call
				// (vllm#11786, Llama 3.2): the model dropped them. Anything else is cut off.
				if fixed, ok := closeBrackets(beforeLastFence(text, start)); ok && mentionsCallKey(fixed) {
					if calls := jsonCallsIn(fixed, FormatJSON); acceptedAny(calls, sc) {
						return append(out, span{start: start, end: len(text), calls: calls})
					}
				}
				return append(out, span{start: start, end: len(text), partial: true})
			}
			pos = start + 1
			continue
		}
		var calls []Call
		if mentionsCallKey(text[start:end]) {
			calls = jsonCallsIn(text[start:end], FormatJSON)
			if len(calls) == 0 && sc.inMarker {
				calls = flatCallIn(text[start:end], FormatJSON)
			}
		}
		orphan := skipSpace(text, end)
		markedByClose := strings.HasPrefix(text[orphan:], hermesClose)
		if len(calls) > 0 && (markedByClose || acceptedAny(calls, sc)) {
			if markedByClose {
				end = orphan + len(hermesClose)
				for c := range calls {
					calls[c].Format = FormatHermes
				}
			}
			out = append(out, span{start: start, end: end, calls: calls})
		}
		pos = end
	}
	return out
}

// bareCandidate reports whether the bracket at text[i] opens something shaped like a call:
// an object whose first key is quoted, or an array whose first element is such an object.
func bareCandidate(text string, i int) bool {
	j := skipSpace(text, i+1)
	if j >= len(text) {
		return false
	}
	if text[i] == '[' {
		return text[j] == '{' && bareCandidate(text, j)
	}
	return text[j] == '"' || text[j] == '\''
}

// acceptedAny reports whether any call's name counts in the context.
func acceptedAny(calls []Call, sc scanCtx) bool {
	for _, c := range calls {
		if sc.accepts(c.Name) {
			return true
		}
	}
	return false
}

// beforeLastFence is text[start:] without the fence that closes the reply, when the candidate
// sits in that fence: the object is then short of its brackets before the fence, as forge's
// e2e log shows Ornith-1.5-9B sending a fenced action one '}' short four times running.
func beforeLastFence(text string, start int) string {
	t := strings.TrimRight(text[start:], " \t\r\n")
	if rest, ok := strings.CutSuffix(t, fence); ok && strings.Contains(text[:start], fence) {
		return rest
	}
	return text[start:]
}

// leadingNameWindow is how far into an unterminated candidate its name is looked for.
const leadingNameWindow = 512

// leadingName returns the value of the first "name" key near the start of an unterminated
// candidate, read without decoding it: the test for a call cut off at the end of the reply.
func leadingName(tail string) string {
	head := tail[:min(len(tail), leadingNameWindow)]
	for _, key := range []string{`"name"`, `'name'`, `"tool"`, `"tool_name"`} {
		i := strings.Index(head, key)
		if i < 0 {
			continue
		}
		j := skipSpace(head, i+len(key))
		if j >= len(head) || head[j] != ':' {
			continue
		}
		j = skipSpace(head, j+1)
		if j >= len(head) || head[j] != '"' && head[j] != '\'' {
			continue
		}
		if end := strings.IndexByte(head[j+1:], head[j]); end >= 0 {
			return head[j+1 : j+1+end]
		}
	}
	return ""
}

// mentionsCallKey is a cheap filter before decoding: a call object names its tool under one
// of these keys.
func mentionsCallKey(s string) bool {
	return strings.Contains(s, "name") || strings.Contains(s, "function") || strings.Contains(s, "tool") || // tool, tool_calls
		strings.Contains(s, "action_input")
}

// closeBrackets completes s when only closing brackets are missing at its end: no string or
// value is left open. It returns s with them appended, when that is valid JSON.
func closeBrackets(s string) (string, bool) {
	var open []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			if i >= len(s) {
				return "", false
			}
		case '{':
			open = append(open, '}')
		case '[':
			open = append(open, ']')
		case '}', ']':
			if len(open) == 0 || open[len(open)-1] != c {
				return "", false
			}
			open = open[:len(open)-1]
		}
	}
	t := strings.TrimRight(s, " \t\r\n")
	if len(open) == 0 || len(open) > 2 || t == "" || strings.ContainsRune(",:", rune(t[len(t)-1])) {
		return "", false
	}
	closed := []byte(t)
	for i := len(open) - 1; i >= 0; i-- {
		closed = append(closed, open[i])
	}
	return string(closed), json.Valid(closed)
}
