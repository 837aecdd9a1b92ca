package tools

import (
	"fmt"
	"strings"
)

// Values wrapped in stray quotes (issue 20): {"filePath": "\"scrypt.py\""}, the quotes of a
// Python or shell literal kept inside the JSON string (Gemma 4 through FastFlowLM to opencode
// wrote a file named "scrypt.py", quotes and all). A path that starts and ends with the same
// quote, with none inside, is never a name a model means, so the quotes go, as blanks around
// a path do (pathValues).
//
// A file's content may begin and end with quotes of its own, so it is only unwrapped when the
// call's path was: the model wrapped this call's values, and the content is wrapped the same
// way, either in one quote each side or opened as a Python triple-quoted string (""" and
// closed with two or three quotes, the content holding no """ of its own, which would make the
// opening a docstring that closes inside).

// quotedValues strips the wrapping quotes from each path argument, then from the content when
// a path was wrapped.
func (s *argsSchema) quotedValues(args map[string]any, pathArgs []string) []Repair {
	var repairs []Repair
	var quote byte
	for _, name := range pathArgs {
		p, ok := args[name].(string)
		if !ok {
			continue
		}
		inner, q, ok := wrappedPath(p)
		if !ok {
			continue
		}
		args[name], quote = inner, q
		repairs = append(repairs, newRepair(RepairStrayText, fmt.Sprintf("%s: %s", name, p), fmt.Sprintf("%s: %s", name, inner)))
	}
	if quote == 0 || !s.has("content") {
		return repairs
	}
	if c, ok := args["content"].(string); ok {
		if inner, ok := wrappedContent(c, quote); ok {
			args["content"] = inner
			repairs = append(repairs, newRepair(RepairStrayText, "content: "+c, "content: "+inner))
		}
	}
	return repairs
}

// wrappedPath is p without the quotes around it (" or ', blanks outside them aside), when the
// rest holds no quote and no line break.
func wrappedPath(p string) (string, byte, bool) {
	t := strings.TrimSpace(p)
	if len(t) < 3 || (t[0] != '"' && t[0] != '\'') || t[len(t)-1] != t[0] {
		return "", 0, false
	}
	inner := strings.TrimSpace(t[1 : len(t)-1])
	if inner == "" || strings.ContainsAny(inner, "\"'\n\r") {
		return "", 0, false
	}
	return inner, t[0], true
}

// wrappedContent is content without its wrapping quotes of the kind q: one each side, or a
// triple opening closed by two or three.
func wrappedContent(content string, q byte) (string, bool) {
	lead := quoteRun(content, q, false)
	trail := quoteRun(content, q, true)
	if lead == 0 || trail == 0 || lead+trail > len(content) {
		return "", false
	}
	inner := content[lead : len(content)-trail]
	switch {
	case lead == 1 && trail == 1:
	case lead == 3 && trail >= 2 && trail <= 3 && !strings.Contains(inner, strings.Repeat(string(q), 3)):
	default:
		return "", false
	}
	return inner, true
}

// quoteRun counts the quotes q at the start (or the end) of s.
func quoteRun(s string, q byte, fromEnd bool) int {
	n := 0
	for n < len(s) {
		i := n
		if fromEnd {
			i = len(s) - 1 - n
		}
		if s[i] != q {
			break
		}
		n++
	}
	return n
}
