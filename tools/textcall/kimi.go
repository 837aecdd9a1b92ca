package textcall

import "strings"

// Kimi K2, from moonshotai/Kimi-K2-Instruct's tool-call guidance and vLLM's kimi_k2 parser:
//
//	<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{"path":"a.go"}<|tool_call_end|><|tool_calls_section_end|>
//
// The call id is functions.NAME:INDEX; the namespace and index are stripped. A server that
// strips the call tokens leaves the id and the object (scanKimiIDs).

const (
	kimiCallBegin = "<|tool_call_begin|>"
	kimiCallEnd   = "<|tool_call_end|>"
	kimiArgBegin  = "<|tool_call_argument_begin|>"
)

// kimiWrapTokens are the section markers, plural as the template writes them and singular as
// vLLM's parser also accepts them (llama.cpp#17376, thinking-machines-lab/tinker-cookbook#248).
var kimiWrapTokens = []string{"<|tool_calls_section_begin|>", "<|tool_calls_section_end|>", "<|tool_call_section_begin|>", "<|tool_call_section_end|>"}

func scanKimi(text string, sc scanCtx) []span {
	calls := scanTagged(text, kimiCallBegin, kimiCallEnd, kimiBody)
	calls = mergeFree(calls, scanOrphans(text, kimiArgBegin, kimiCallEnd, kimiBody))
	calls = mergeFree(calls, scanKimiIDs(text, sc))
	return callsOrNothing(calls, tokenSpans(text, kimiWrapTokens...))
}

// kimiIDPrefix opens Kimi's call id, functions.NAME:INDEX.
const kimiIDPrefix = "functions."

// scanKimiIDs reads calls whose call tokens were stripped, leaving the call id and the
// arguments, glued or apart: functions.read_file:0{"path": "a.go"}. The id's :INDEX suffix
// is Kimi's own; the name must be Known and the object complete, on the id's line, which
// ends with it (or with <|tool_call_end|>).
func scanKimiIDs(text string, sc scanCtx) []span {
	var out []span
	budget := workBudget(text)
	ids := newFinder(text, kimiIDPrefix)
	for pos := 0; budget > 0; {
		at := ids.at(pos)
		if at < 0 {
			break
		}
		pos = at + len(kimiIDPrefix)
		j := pos
		for j < len(text) && j-pos <= pyNameMax && isNameByte(text[j]) && text[j] != ':' {
			j++
		}
		name := text[pos:j]
		if j >= len(text) || text[j] != ':' || at > 0 && isIdentByte(text[at-1]) || !sc.accepts(name) {
			continue
		}
		k := j + 1
		for k < len(text) && text[k] >= '0' && text[k] <= '9' {
			k++
		}
		if k == j+1 {
			continue
		}
		k = skipOver(text, k, " \t")
		if strings.HasPrefix(text[k:], kimiArgBegin) {
			k = skipSpace(text, k+len(kimiArgBegin))
		}
		if k >= len(text) || text[k] != '{' {
			continue
		}
		end, ok := matchJSON(text, k)
		budget -= end - k
		if !ok {
			continue
		}
		call := newCall(name, text[k:end], FormatKimi)
		if call.Args == nil {
			continue
		}
		if e := skipSpace(text, end); strings.HasPrefix(text[e:], kimiCallEnd) {
			end = e + len(kimiCallEnd)
		} else if !lineEndsAt(text, end) && !strings.HasPrefix(text[e:], kimiWrapTokens[1]) && !strings.HasPrefix(text[e:], kimiWrapTokens[3]) {
			continue // a sentence goes on after the object: prose quoting an id
		}
		out = append(out, span{start: at, end: end, calls: []Call{call}})
		pos = end
	}
	return out
}

// kimiBody reads "functions.NAME:0<|tool_call_argument_begin|>{…}".
func kimiBody(body string) ([]Call, bool) {
	id, args, ok := strings.Cut(body, kimiArgBegin)
	if !ok {
		return nil, false
	}
	name := strings.TrimSpace(id)
	if colon := strings.LastIndexByte(name, ':'); colon > 0 {
		name = name[:colon]
	}
	name = stripNamespace(name, "functions.")
	if !plausibleName(name) {
		return nil, true
	}
	return []Call{newCall(name, args, FormatKimi)}, jsonComplete(args)
}
