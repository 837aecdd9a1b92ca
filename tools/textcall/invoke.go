package textcall

import (
	"encoding/json"
	"slices"
	"strings"
)

// The XML-ish invoke form used by DeepSeek V3.2 (with its ｜DSML｜ tag prefix), MiniMax-M2
// (inside <minimax:tool_call>) and models trained on Claude-style transcripts (inside
// <function_calls>):
//
//	<function_calls>
//	<invoke name="read_file">
//	<parameter name="path" string="true">a.go</parameter>
//	</invoke>
//	</function_calls>
//
// string="false" marks a JSON value; otherwise values stay strings except obvious JSON
// arrays and objects. Variants seen in reports: MiniMax-M3 writes each argument as its own
// tag (<path>a.go</path>) with its boundary token ]<]minimax[>[ leaking between the tags
// (MiniMax-M3#31); Gemini 3 writes <call_record tool="read"> (oh-my-pi#92). Step-3 prefixes
// the tags with steptml: (<steptml:invoke name="N"><steptml:parameter name="k">, vLLM's
// step3 tool parser) inside its own call tokens. Claude's own tool-use prompt format prefixes
// the same tags with antml: (Anthropic's docs on the tool-use system prompt), which Claude
// models write into text when a proxy passes them no tools.

// anthropicPrefix is the namespace of the tags of Anthropic's tool-use prompt format.
const anthropicPrefix = "antml:"

// invokeForm is one spelling of the form: its tag, the prefix of its tag names, and the
// attribute that names the tool.
type invokeForm struct{ tag, prefix, nameAttr string }

// dsmlPrefixes are the spellings of DeepSeek's ｜DSML｜ tag prefix seen in reports: the
// template's, and the doubled and ASCII forms clients render (cline#14057, AgentFlocks/flocks#687),
// and the template's under Unicode compatibility normalization (NFKC turns the full-width
// bar into ASCII '|', as it does DeepSeek's other tokens: <|tool▁call▁begin|>).
var dsmlPrefixes = []string{"｜DSML｜", "｜｜DSML｜｜ ", "｜｜DSML｜｜", "||DSML||", " | DSML | ", "|DSML|"}

// invokeForms is built once and only read afterwards.
var invokeForms = func() []invokeForm {
	forms := []invokeForm{{"invoke", "", "name"}, {"call_record", "", "tool"}, {"invoke", "steptml:", "name"}, {"invoke", anthropicPrefix, "name"}}
	for _, p := range dsmlPrefixes {
		forms = append(forms, invokeForm{"invoke", p, "name"})
	}
	return forms
}()

// minimaxBoundary is MiniMax-M3's internal boundary token, leaked into content.
const minimaxBoundary = "]<]minimax[>["

func scanInvoke(text string, sc scanCtx) []span {
	var calls, wrappers []span
	forms := invokeForms
	for _, p := range tagPrefixes(text, ":invoke name=") {
		forms = append(forms[:len(forms):len(forms)], invokeForm{"invoke", p, "name"})
		for _, w := range []string{"function_calls", "tool_calls", "tool_call"} {
			wrappers = append(wrappers, tokenSpans(text, "<"+p+w+">", "</"+p+w+">")...)
		}
	}
	calls = scanSelfClosingParams(text, forms)
	for _, f := range forms {
		calls = mergeFree(calls, scanTagged(text, "<"+f.prefix+f.tag, "</"+f.prefix+f.tag+">", func(body string) ([]Call, bool) {
			return invokeBody(body, f)
		}))
	}
	wrappers = append(wrappers, tokenSpans(text, "<function_calls>", "</function_calls>", "<"+anthropicPrefix+"function_calls>", "</"+anthropicPrefix+"function_calls>")...)
	for _, p := range dsmlPrefixes {
		for _, w := range []string{"function_calls", "tool_calls", "calls"} {
			wrappers = append(wrappers, tokenSpans(text, "<"+p+w+">", "</"+p+w+">")...)
		}
	}
	wrappers = append(wrappers, tokenSpans(text, "<｜tool_calls_begin｜>", "<｜tool_calls_end｜>", "<｜tool_call_begin｜>", "<｜tool_call_end｜>", "function<｜tool_sep｜>")...)
	wrappers = append(wrappers, tokenSpans(text, "<minimax:tool_call>", "</minimax:tool_call>", hermesOpen, hermesClose, "<｜end▁of▁sentence｜>", minimaxBoundary)...)
	return callsOrNothing(calls, wrappers)
}

// tagPrefixesMax bounds how many namespace prefixes one reply may introduce, and
// tagPrefixMax how long one may be.
const (
	tagPrefixesMax = 4
	tagPrefixMax   = 24
)

// tagPrefixes returns the namespace prefixes ("atem:") written before marker in text
// ("<atem:invoke name="), other than the ones invokeForms already spells. The invoke form keeps
// its grammar under any namespace: Anthropic's antml:, Step-3's steptml:, MiniMax's minimax:
// wrapper, and models trained on such transcripts under their own (hermes-agent#83824:
// <atem:function_calls><atem:invoke name=…><atem:parameter name=…>).
func tagPrefixes(text, marker string) []string {
	var out []string
	for at := 0; len(out) < tagPrefixesMax; {
		i := strings.Index(text[at:], marker)
		if i < 0 {
			return out
		}
		i += at
		at = i + len(marker)
		j := i
		for j > 0 && i-j < tagPrefixMax && isNameByte(text[j-1]) && text[j-1] != ':' {
			j--
		}
		if j == i || j == 0 || text[j-1] != '<' {
			continue
		}
		p := text[j : i+1]
		known := slices.Contains(out, p)
		for _, f := range invokeForms {
			known = known || f.prefix == p
		}
		if !known {
			out = append(out, p)
		}
	}
	return out
}

// invokeBody reads ` name="NAME">…<parameter …>…` (the text after "<invoke").
func invokeBody(body string, f invokeForm) ([]Call, bool) {
	body = strings.ReplaceAll(body, minimaxBoundary, "")
	attrs, rest, ok := strings.Cut(body, ">")
	if !ok || strings.HasPrefix(attrs, "_") || attrs != "" && isNameByte(attrs[0]) {
		return nil, false // another tag that starts with the same letters
	}
	name := attribute(attrs, f.nameAttr)
	if strings.TrimSpace(attrs) == "" && f.tag == "invoke" {
		return legacyInvoke(rest)
	}
	if !plausibleName(name) {
		return nil, true
	}
	open, close := "<"+f.prefix+"parameter", "</"+f.prefix+"parameter>"
	if !strings.Contains(rest, open) {
		if t := strings.TrimSpace(rest); strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
			// the arguments object written straight inside the invoke, which DeepSeek's DSML
			// parsers accept as a fallback (SGLang's deepseek_dsml)
			return []Call{newCall(name, t, FormatInvoke)}, true
		}
		pairs, complete := childTags(rest)
		return []Call{{Name: name, Args: objectOf(pairs), Raw: strings.TrimSpace(rest), Format: FormatInvoke}}, complete
	}
	var pairs []kv
	complete := true
	for _, part := range strings.Split(rest, open)[1:] {
		pattrs, value, ok := strings.Cut(part, ">")
		if !ok {
			complete = false
			break
		}
		value, _, complete = strings.Cut(value, close)
		if !complete {
			value, complete = beforeCallMarkup(value)
		}
		v := tagValue(value)
		if attribute(pattrs, "string") == "false" {
			if decoded, ok := looseValue(value); ok {
				v = compactJSON(decoded)
			}
		}
		pairs = append(pairs, kv{attribute(pattrs, "name"), v})
	}
	return []Call{{Name: name, Args: objectOf(pairs), Raw: strings.TrimSpace(rest), Format: FormatInvoke}}, complete
}

// attribute returns the value of key="…" (or key='…' or key=bare) in a tag's attribute text.
func attribute(attrs, key string) string {
	for rest := attrs; ; {
		i := strings.Index(rest, key+"=")
		if i < 0 {
			return ""
		}
		if i > 0 && isNameByte(rest[i-1]) {
			rest = rest[i+len(key):]
			continue
		}
		v := rest[i+len(key)+1:]
		if v != "" && (v[0] == '"' || v[0] == '\'') {
			if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
				return strings.TrimSpace(v[1 : 1+end])
			}
			return strings.TrimSpace(v[1:])
		}
		if end := strings.IndexAny(v, " \t\n/>"); end >= 0 {
			v = v[:end]
		}
		return strings.TrimSpace(v)
	}
}

// legacyInvoke reads the body of an <invoke> without attributes, Anthropic's earlier XML
// tool-use format (its legacy tool-use docs):
//
//	<function_calls>
//	<invoke>
//	<tool_name>read_file</tool_name>
//	<parameters>
//	<path>a.go</path>
//	</parameters>
//	</invoke>
//	</function_calls>
func legacyInvoke(rest string) ([]Call, bool) {
	open, after, ok := strings.Cut(rest, "<tool_name>")
	if !ok || strings.TrimSpace(open) != "" {
		return nil, true
	}
	name, params, closed := strings.Cut(after, "</tool_name>")
	name = strings.TrimSpace(name)
	if !closed || !plausibleName(name) {
		return nil, closed
	}
	if inner, ok := strings.CutPrefix(strings.TrimSpace(params), "<parameters>"); ok {
		params = inner
		if body, _, closed := strings.Cut(inner, "</parameters>"); closed {
			params = body
		}
	}
	pairs, complete := childTags(params)
	return []Call{{Name: name, Args: objectOf(pairs), Raw: strings.TrimSpace(params), Format: FormatInvoke}}, complete
}

// childTags reads arguments written as their own tags, <path>a.go</path><limit>5</limit>,
// in order; complete is false when the last one is never closed. A value followed by its
// closer whose opener was lost (a.go</path><limit>5</limit>, MiniMax-M3 in vllm#51075) is
// that argument's value.
func childTags(rest string) ([]kv, bool) {
	var pairs []kv
	for {
		i := strings.IndexByte(rest, '<')
		if i < 0 {
			return pairs, true
		}
		if key, after, ok := lostOpener(rest, i); ok {
			pairs = append(pairs, kv{key, tagValue(rest[:i])})
			rest = after
			continue
		}
		j := i + 1
		for j < len(rest) && isNameByte(rest[j]) {
			j++
		}
		if j == i+1 || j >= len(rest) || rest[j] != '>' {
			rest = rest[i+1:]
			continue
		}
		key := rest[i+1 : j]
		value, after, closed := strings.Cut(rest[j+1:], "</"+key+">")
		if !closed { // the closer with its '<' lost: <path>a.go/path>
			value, after, closed = strings.Cut(rest[j+1:], "/"+key+">")
		}
		if !closed {
			if v, leaked := beforeCallMarkup(value); leaked {
				return append(pairs, kv{key, tagValue(v)}), true
			}
			return append(pairs, kv{key, tagValue(value)}), false
		}
		pairs = append(pairs, kv{key, tagValue(value)})
		rest = after
	}
}

// lostOpener reads rest[i:] as the closer </KEY> of a value that stands before it, at
// rest[:i], with no opener: the opening tag lost. after is past the closer.
func lostOpener(rest string, i int) (key, after string, ok bool) {
	if i+1 >= len(rest) || rest[i+1] != '/' || strings.TrimSpace(rest[:i]) == "" {
		return "", "", false
	}
	j := i + 2
	for j < len(rest) && j-i <= xmlTagNameMax && isNameByte(rest[j]) {
		j++
	}
	if j == i+2 || j >= len(rest) || rest[j] != '>' {
		return "", "", false
	}
	return rest[i+2 : j], rest[j+1:], true
}

// callMarkup are the tags of the call around a value. A value never closed that runs into one
// ended there: the model's call markup leaked into its argument and the rest is no value
// (MiniMax-M3's nested <tool_call> after a command, ik_llama.cpp PR #2085). A value that is
// closed keeps whatever it holds.
var callMarkup = []string{"<tool_call>", "</tool_call>", "<invoke ", "</invoke>", "<minimax:tool_call>", "</minimax:tool_call>", "<function_calls>", "</function_calls>"}

// beforeCallMarkup cuts an unclosed value at the first call tag inside it; leaked reports one.
func beforeCallMarkup(value string) (string, bool) {
	cut := -1
	for _, tag := range callMarkup {
		if i := strings.Index(value, tag); i >= 0 && (cut < 0 || i < cut) {
			cut = i
		}
	}
	if cut < 0 {
		return value, false
	}
	return strings.TrimRight(value[:cut], " \t\r\n"), true
}
