package textcall

import "strings"

// The invoke form with each parameter written as a self-closing element, its value in an
// attribute: DeepSeek V4 in codex-relay#49 wrote its DSML parameter as a nested invoke,
//
//	<｜｜DSML｜｜invoke name="exec_command">
//	<｜｜DSML｜｜invoke name="cmd" string="echo alpha" />
//	</｜｜DSML｜｜invoke>
//
// and <parameter name="k" value="v"/> is the same form's attribute spelling. Invokes do not
// nest and a self-closing element has no body, so each self-closing child naming a key is a
// parameter: its value is the value attribute, or the string attribute when that holds more
// than the form's true/false flag. The block must be exactly an invoke, such children and
// its closer.

// selfTagMax bounds the attribute text of one tag read here.
const selfTagMax = 2 << 10

// scanSelfClosingParams reads those blocks for each spelling of the form.
func scanSelfClosingParams(text string, forms []invokeForm) []span {
	var out []span
	for _, f := range forms {
		if f.tag != "invoke" {
			continue
		}
		open := "<" + f.prefix + "invoke"
		opens := newFinder(text, open)
		for pos := 0; ; {
			start := opens.at(pos)
			if start < 0 {
				break
			}
			pos = start + len(open)
			call, end, ok := selfClosingBlock(text, start+len(open), f.prefix)
			if ok {
				out = mergeFree(out, []span{{start: start, end: end, calls: []Call{call}}})
				pos = end
			}
		}
	}
	return out
}

// selfClosingBlock reads ` name="N">` at i, then self-closing parameter children, then the
// invoke's closer.
func selfClosingBlock(text string, i int, prefix string) (Call, int, bool) {
	attrs, j, ok := tagAttrs(text, i)
	if !ok || strings.HasSuffix(attrs, "/") || attrs == "" || attrs[0] != ' ' {
		return Call{}, 0, false
	}
	name := attribute(attrs, "name")
	if !plausibleName(name) {
		return Call{}, 0, false
	}
	var pairs []kv
	var raw strings.Builder
	for {
		j = skipSpace(text, j)
		var child string
		for _, t := range []string{"<" + prefix + "invoke", "<" + prefix + "parameter"} {
			if strings.HasPrefix(text[j:], t) {
				child = t
			}
		}
		if child == "" {
			break
		}
		cattrs, next, ok := tagAttrs(text, j+len(child))
		if !ok || !strings.HasSuffix(cattrs, "/") {
			return Call{}, 0, false
		}
		key, value := attribute(cattrs, "name"), attribute(cattrs, "value")
		if value == "" {
			if s := attribute(cattrs, "string"); s != "true" && s != "false" {
				value = s
			}
		}
		if !plausibleName(key) || value == "" {
			return Call{}, 0, false
		}
		pairs = append(pairs, kv{key, quoteJSON(value)})
		raw.WriteString(text[j:next])
		j = next
	}
	closer := "</" + prefix + "invoke>"
	if len(pairs) == 0 || !strings.HasPrefix(text[j:], closer) {
		return Call{}, 0, false
	}
	return Call{Name: name, Args: objectOf(pairs), Raw: raw.String(), Format: FormatInvoke}, j + len(closer), true
}

// tagAttrs returns the attribute text of the tag whose name ends at i (up to its '>', trimmed
// of trailing blanks) and the index past the '>'.
func tagAttrs(text string, i int) (string, int, bool) {
	gt := strings.IndexByte(text[i:min(len(text), i+selfTagMax)], '>')
	if gt < 0 {
		return "", 0, false
	}
	return strings.TrimRight(text[i:i+gt], " \t"), i + gt + 1, true
}
