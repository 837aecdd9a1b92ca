package textcall

import (
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Qwen3-Coder, from its chat template and tool parser (Qwen/Qwen3-Coder-*, qwen3coder_tool_parser.py):
//
//	<tool_call>
//	<function=write_file>
//	<parameter=path>
//	a.go
//	</parameter>
//	</function>
//	</tool_call>
//
// The <tool_call> wrapper is often missing; a missing </parameter> or </function> ends at the
// next tag. Values stay strings except obvious JSON arrays and objects.
//
// Some models drop every closing tag and write each value on its tag's line (Continue#13057,
// qwen3-coder:30b): "<function=create_new_file>\n<parameter=filepath> test.txt\n<parameter=contents> hello".
// A call in that dialect is complete at the end of the text. So is one in the usual
// multi-line form whose last value's line was ended and whose closing tags never came, as the
// format's reference parser reads it (vLLM's qwen3coder parser lets a parameter, a function
// and the <tool_call> end at the end of the text); one that stops inside a line is cut off.
// (A reply stopped by the output limit is held back by the reply classifier whatever the
// parser says.)

const (
	qwenFunctionOpen  = "<function="
	qwenFunctionClose = "</function>"
	qwenParamOpen     = "<parameter="
	qwenParamClose    = "</parameter>"
)

func scanQwen3Coder(text string, sc scanCtx) []span {
	opens := newFinder(text, qwenFunctionOpen)
	closes := newFinder(text, qwenFunctionClose)
	wrapperEnds := newFinder(text, hermesClose)
	var out []span
	for pos := 0; ; {
		start := opens.at(pos)
		if start < 0 {
			return out
		}
		end, closed := len(text), false
		next := firstOf(start+len(qwenFunctionOpen), opens, wrapperEnds)
		if c := closes.at(start); c >= 0 && (next < 0 || c < next) {
			end, closed = c+len(qwenFunctionClose), true
		} else if next >= 0 {
			end = next
		}
		if k := strings.LastIndex(text[start:end], "function>"); !closed && k > 0 {
			end, closed = start+k+len("function>"), true // a mangled </function> (fixClosers) ends it
		}
		call, complete := qwenFunction(text[start:end])
		if !closed && end == len(text) && !complete {
			return append(out, span{start: start, end: end, partial: true})
		}
		if call != nil {
			// A stray </tool_call> after the call is its wrapper with the opening tag lost.
			if w := skipSpace(text, end); strings.HasPrefix(text[w:], hermesClose) {
				end = w + len(hermesClose)
			}
			out = append(out, span{start: start, end: end, calls: []Call{*call}})
		}
		pos = max(end, start+1)
	}
}

// qwenFunctions reads every <function=…> in a <tool_call> body.
func qwenFunctions(body string) ([]Call, bool) {
	var calls []Call
	complete := true
	for _, part := range strings.Split(body, qwenFunctionOpen)[1:] {
		call, ok := qwenFunction(qwenFunctionOpen + part)
		complete = ok
		if call != nil {
			calls = append(calls, *call)
		}
	}
	return calls, complete
}

// qwenFunction reads one "<function=NAME>…" block (its close tag optional). complete is false
// when the block is cut off inside its name or a parameter.
func qwenFunction(block string) (*Call, bool) {
	rest := fixClosers(block[len(qwenFunctionOpen):])
	if call, matched, complete := llamaFunction(rest); matched {
		return call, complete
	}
	name, after, ok := openerName(rest)
	if !ok {
		return nil, false
	}
	if !plausibleName(name) {
		return nil, true
	}
	body, _, closed := strings.Cut(after, qwenFunctionClose)
	if !closed {
		body, closed = dropStrayClosers(body)
	}
	var keys, values []string
	complete, inline := true, !strings.Contains(body, qwenParamClose)
	for _, part := range strings.Split(body, qwenParamOpen)[1:] {
		key, value, ok := openerName(part)
		if !ok {
			complete = false
			break
		}
		inline = inline && !strings.HasPrefix(strings.TrimLeft(value, " \t"), "\n")
		lineDone := strings.HasSuffix(strings.TrimRight(value, " \t"), "\n")
		value, ended := strings.CutSuffix(strings.TrimRight(value, " \t\r\n"), qwenParamClose)
		if !ended {
			value, _, ended = strings.Cut(value, qwenParamClose)
		}
		complete = ended || closed || lineDone
		keys, values = append(keys, strings.TrimSpace(key)), append(values, value)
	}
	inline = inline && len(keys) > 0
	pairs := make([]kv, len(keys))
	for i, k := range keys {
		if inline { // the closer-less one-line dialect: a space after the tag separates the value
			values[i] = strings.TrimSpace(values[i])
		}
		pairs[i] = kv{k, tagValue(values[i])}
	}
	complete = complete || inline
	return &Call{Name: name, Args: objectOf(pairs), Raw: strings.TrimSpace(body), Format: FormatQwen3Coder}, complete
}

// fixClosers repairs the closing tags models mangle inside a <function=…> block: the '<' lost
// ("a.go/parameter>"), the '/' lost ("a.go<parameter>", never an opener: openers carry '='),
// or "function>" alone on the last line; and an opener written with a closer's '/'. The result parses under the format's grammar or the
// block is read as before.
func fixClosers(block string) string {
	// an opener written as a closer, "</parameter=pattern>" (step-3.5-flash): closers carry no '='
	block = strings.ReplaceAll(block, "</"+qwenParamOpen[1:], qwenParamOpen)
	block = restoreParamOpeners(block)
	if strings.Contains(block, "<parameter name=") {
		// the invoke form's parameter fused in: <parameter name="path"> (invoke.go)
		block = invokeParamOpener.ReplaceAllString(block, qwenParamOpen+"$1>")
	}
	if !strings.Contains(block, "parameter>") && !strings.Contains(block, "function>") {
		return block
	}
	out := make([]byte, 0, len(block)+8)
	for i := 0; i < len(block); i++ {
		if strings.HasPrefix(block[i:], "parameter>") || strings.HasPrefix(block[i:], "function>") {
			n := len(out)
			switch {
			case n >= 2 && string(out[n-2:]) == "</":
			case n >= 1 && (out[n-1] == '/' || out[n-1] == '<'):
				out = append(out[:n-1], '<', '/')
			case block[i] == 'f' && (n == 0 || out[n-1] == '\n'):
				out = append(out, '<', '/')
			}
		}
		out = append(out, block[i])
	}
	return string(out)
}

// restoreParamOpeners gives back the '<' a parameter opener lost at the start of its line
// ("parameter=path>"), as fixClosers does for closers; the name must run to a '>' on the line.
func restoreParamOpeners(block string) string {
	const lost = "parameter="
	if !strings.Contains(block, "\n"+lost) {
		return block
	}
	var b strings.Builder
	for i := 0; i < len(block); i++ {
		if i > 0 && block[i-1] == '\n' && strings.HasPrefix(block[i:], lost) {
			line := block[i:]
			if nl := strings.IndexByte(line, '\n'); nl >= 0 {
				line = line[:nl]
			}
			if gt := strings.IndexByte(line, '>'); gt > len(lost) && plausibleName(line[len(lost):gt]) {
				b.WriteByte('<')
			}
		}
		b.WriteByte(block[i])
	}
	return b.String()
}

// invokeParamOpener is the invoke form's parameter opener, its name quoted or not.
var invokeParamOpener = lazyre.New(`<parameter name=["']?([A-Za-z0-9_.:-]{1,128})["']?(?:\s+[a-z]+="[^"<>]*")*\s*>`)
