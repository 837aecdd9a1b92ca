package textcall

import "strings"

// Line-labelled calls of agent frameworks, each a label line for the name and one for the
// arguments:
//
//	Action: read_file                      (LangChain's ReAct agent prompt; smolagents,
//	Action Input: {"path": "a.go"}          LlamaIndex's ReActAgent write the same labels)
//
//	✿FUNCTION✿: read_file                   (Qwen-Agent's fncall prompt for Qwen2 / Qwen2.5,
//	✿ARGS✿: {"path": "a.go"}                 ended by ✿RESULT✿ or ✿RETURN✿)
//
// The arguments are a JSON object (to its closing brace), or else the rest of the line: a
// plain input the tool layer reads as a one-argument tool's value. ✿FUNCTION✿ is a marker
// token no prose writes; "Action:" is plain English, so a ReAct call counts only when its
// name is Known. A label pair whose arguments are an unterminated object at the end of the
// text is a cut-off call.

// reactLabels is one framework's pair of labels.
type reactLabels struct{ name, args string }

var (
	reactForm     = reactLabels{"Action:", "Action Input:"}
	qwenAgentForm = reactLabels{"✿FUNCTION✿", "✿ARGS✿"}
)

// reactGapMax bounds the white space between the name line and the arguments label, and
// reactNameMax the name line, so a label never makes the scan look far ahead.
const (
	reactGapMax  = 16
	reactNameMax = 160
)

func scanReAct(text string, sc scanCtx) []span {
	return scanLabelled(text, reactForm, sc, false)
}

func scanQwenAgent(text string, sc scanCtx) []span {
	return scanLabelled(text, qwenAgentForm, sc, true)
}

func scanLabelled(text string, form reactLabels, sc scanCtx, marked bool) []span {
	labels := newFinder(text, form.name)
	var out []span
	for pos := 0; ; {
		start := labels.at(pos)
		if start < 0 {
			return out
		}
		pos = start + len(form.name)
		if !marked && start > 0 && text[start-1] != '\n' {
			continue // "Action:" opens its line
		}
		s, ok := labelledCall(text, start, form, sc, marked)
		if !ok {
			continue
		}
		out = append(out, s)
		if s.partial {
			return out
		}
		pos = s.end
	}
}

// labelledCall reads the name line at start and the arguments label after it.
func labelledCall(text string, start int, form reactLabels, sc scanCtx, marked bool) (span, bool) {
	i := start + len(form.name)
	i = skipColon(text, i)
	lineEnd := strings.IndexByte(text[i:min(len(text), i+reactNameMax)], '\n')
	if lineEnd < 0 {
		return span{}, false
	}
	name := strings.Trim(strings.TrimSpace(text[i:i+lineEnd]), "`\"'")
	if !plausibleName(name) || !marked && !sc.accepts(name) {
		return span{}, false
	}
	j := i + lineEnd + 1
	gap := skipSpace(text, j)
	if gap-j > reactGapMax || !strings.HasPrefix(text[gap:], form.args) {
		return span{}, false
	}
	a := skipColon(text, gap+len(form.args))
	for a < len(text) && (text[a] == ' ' || text[a] == '\t') {
		a++
	}
	if a < len(text) && text[a] == '\n' && marked { // Qwen-Agent may break before the object
		a = skipSpace(text, a)
	}
	end := a
	if a < len(text) && text[a] == '{' {
		e, closed := matchJSON(text, a)
		if !closed {
			return span{start: start, end: len(text), partial: true}, true
		}
		end = e
	} else {
		nl := strings.IndexByte(text[a:], '\n')
		if nl < 0 {
			nl = len(text) - a
		}
		end = a + nl
	}
	call := newCall(name, strings.Trim(strings.TrimSpace(text[a:end]), "`"), FormatReAct)
	spanEnd := end
	if marked {
		for _, stop := range []string{"✿RESULT✿", "✿RETURN✿"} {
			if k := skipSpace(text, end); strings.HasPrefix(text[k:], stop) {
				spanEnd = k + len(stop)
				if c := skipColon(text, spanEnd); c > spanEnd && skipSpace(text, c) == len(text) {
					spanEnd = len(text)
				}
			}
		}
	}
	return span{start: start, end: spanEnd, calls: []Call{call}}, true
}

// skipColon skips blanks and one ':' or full-width '：' after a label.
func skipColon(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if strings.HasPrefix(text[i:], ":") {
		i++
	} else if strings.HasPrefix(text[i:], "：") {
		i += len("：")
	}
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i
}
