package textcall

import "strings"

// The invoke form (invoke.go) with every '<' and '</' before its tag names dropped, MiniMax
// M2.1, M2.5 and M2.7 through exo's parser (exo#1882):
//
//	invoke name="read_file">
//	parameter name="path">a.goparameter>
//	invoke>
//
// as the XML tool use's lost brackets are read (xmlmangled.go). An invoke line at a line
// start opens the call, its name must be Known (nothing else marks it); the block runs to the
// line that is only "invoke>" (or "/invoke>") or to the end of the text. The brackets are put
// back and the block must then read as the invoke form, each parameter closed.

const (
	bareInvokeOpen  = "invoke name="
	bareParamOpen   = "parameter name="
	bareParamClose  = "parameter>"
	bareInvokeClose = "invoke>"
)

func scanBareInvoke(text string, sc scanCtx) []span {
	opens := newFinder(text, bareInvokeOpen)
	var out []span
	for pos := 0; ; {
		start := opens.at(pos)
		if start < 0 {
			return out
		}
		pos = start + len(bareInvokeOpen)
		if backOver(text, start, " \t") != 0 && text[backOver(text, start, " \t")-1] != '\n' {
			continue // "<invoke name=" and words before it are not this form
		}
		end := len(text)
		if c := strings.Index(text[pos:], "\n"); c >= 0 {
			if k := closingInvokeLine(text, pos+c); k >= 0 {
				end = k
			}
		}
		call, ok := bareInvokeCall(text[start:end])
		if !ok || !sc.accepts(call.Name) {
			continue
		}
		out = append(out, span{start: start, end: end, calls: []Call{call}})
		pos = end
	}
}

// closingInvokeLine returns the end of the first line from i on that is only "invoke>" (its
// '/' kept or not), or -1. It stops at the next opening invoke line.
func closingInvokeLine(text string, i int) int {
	for at := i; at < len(text); {
		at = skipOver(text, at, "\r\n")
		e := lineEnd(text, at)
		line := strings.TrimSpace(text[at:e])
		switch {
		case line == bareInvokeClose || line == "/"+bareInvokeClose:
			return e
		case strings.HasPrefix(line, bareInvokeOpen):
			return -1
		}
		at = e
	}
	return -1
}

// bareInvokeCall puts the brackets back in a bracket-less invoke block and reads it.
func bareInvokeCall(block string) (Call, bool) {
	var b strings.Builder
	for i, line := range strings.Split(block, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case i == 0:
			if !strings.HasSuffix(t, ">") || strings.Count(t, ">") != 1 {
				return Call{}, false
			}
			b.WriteString("<" + t)
		case t == bareInvokeClose || t == "/"+bareInvokeClose:
		case strings.HasPrefix(t, bareParamOpen):
			head, value, ok := strings.Cut(t, ">")
			v, closed := strings.CutSuffix(value, bareParamClose)
			if !ok || !closed {
				return Call{}, false
			}
			v = strings.TrimSuffix(strings.TrimSuffix(v, "/"), "<")
			b.WriteString("\n<" + head + ">" + v + "</" + bareParamClose)
		case t == "":
		default:
			return Call{}, false // a line that is none of the form's: prose
		}
	}
	calls, complete := invokeBody(strings.TrimPrefix(b.String(), "<invoke"), invokeForm{"invoke", "", "name"})
	if !complete || len(calls) != 1 {
		return Call{}, false
	}
	return calls[0], true
}
