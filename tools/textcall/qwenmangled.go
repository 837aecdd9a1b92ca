package textcall

import "strings"

// Mangled Qwen3-Coder markup (docs/ARCHITECTURE.md, "How a turn flows": calls written as
// text), each read only when the result parses under the format's grammar:
//
//   - an opener's '>' lost: the name runs into its value after a space or a line break
//     ("<parameter=command ls -la\n</parameter>", "<function=bash\n<parameter=…"; step-3.5-flash
//     in opencode logs);
//   - the block's closing tags written as other tags ("…a.go\n</compiling>\n</think>" where
//     "</parameter></function>" belong) after a one-line value;
//   - the <function=NAME> opener written as a parameter opener with no value,
//     "<parameter=bash>\n<parameter=command>\nls\n</parameter>\n</function>" (Qwen3.6-27B
//     under q27), with or without the <tool_call> wrapper: the name must be one of ours or a
//     known alias outside the wrapper, so a parameter that merely holds another is no call.

// openerName reads the name of an opener whose "<function=" or "<parameter=" was cut off s:
// the name and the text after its '>'. When the '>' was lost, the name ends at the first
// blank or '<' and its value follows the blank.
func openerName(s string) (name, after string, ok bool) {
	gt := strings.IndexByte(s, '>')
	if gt < 0 {
		return "", "", false
	}
	i := 0
	for i < gt && isNameByte(s[i]) {
		i++
	}
	if i == gt || i == 0 || strings.TrimSpace(s[i:gt]) == "" {
		return strings.TrimSpace(s[:gt]), s[gt+1:], true
	}
	switch s[i] {
	case ' ', '\t', '\r', '\n':
		return s[:i], s[i+1:], true
	case '<':
		return s[:i], s[i:], true
	}
	return strings.TrimSpace(s[:gt]), s[gt+1:], true
}

// dropStrayClosers removes the closing tags a block without its </function> ends with when
// none of them opens inside it ("</compiling>\n</think>" where "</parameter></function>"
// belong): the model closed the call with the wrong tags, so its last value ended there. A
// value that opens the tag it closes (a file's "</html>") keeps it.
func dropStrayClosers(body string) (string, bool) {
	t := strings.TrimRight(body, " \t\r\n")
	dropped := false
	for strings.HasSuffix(t, ">") {
		lt := strings.LastIndex(t, "</")
		if lt < 0 {
			break
		}
		tag := t[lt+2 : len(t)-1]
		if !plausibleName(tag) || tag == "parameter" || tag == "function" || strings.Contains(t[:lt], "<"+tag) {
			break
		}
		t, dropped = strings.TrimRight(t[:lt], " \t\r\n"), true
	}
	if !dropped || !scalarLastValue(t) {
		return body, false
	}
	return t + "\n", true
}

// scalarLastValue reports whether the last parameter of a block is one short line with no
// markup: a value the dropped closers cannot belong to. A file's content or an edit's
// "</div>\n</section>" ends with closers that are its own.
func scalarLastValue(block string) bool {
	i := strings.LastIndex(block, qwenParamOpen)
	if i < 0 {
		return false
	}
	_, v, ok := openerName(block[i+len(qwenParamOpen):])
	v = strings.TrimSpace(v)
	return ok && v != "" && !strings.ContainsAny(v, "\n<")
}

// namedParamOpener reads text[at:] as "<parameter=NAME>" standing for "<function=NAME>": no
// value, the next parameter's opener right after it, and NAME one the context accepts. It
// returns NAME and where its parameters start.
func namedParamOpener(text string, at int, sc scanCtx) (name string, body int, ok bool) {
	i := at + len(qwenParamOpen)
	j := i
	for j < len(text) && j-i < pyNameMax && isNameByte(text[j]) {
		j++
	}
	if j >= len(text) || text[j] != '>' || !plausibleName(text[i:j]) {
		return "", 0, false
	}
	k := skipSpace(text, j+1)
	if !strings.HasPrefix(text[k:], qwenParamOpen) || !sc.accepts(text[i:j]) {
		return "", 0, false
	}
	return text[i:j], k, true
}

// scanQwenParamNamed reads calls whose <function=NAME> opener is written as a parameter
// opener (see above). A block ends at its </function> or at the next such opener; a stray
// </tool_call> after it is its wrapper with the opening tag lost.
func scanQwenParamNamed(text string, sc scanCtx) []span {
	opens := newFinder(text, qwenParamOpen)
	closes := newFinder(text, qwenFunctionClose)
	var out []span
	for p := opens.at(0); p >= 0; {
		name, body, ok := namedParamOpener(text, p, sc)
		if !ok {
			p = opens.at(p + 1)
			continue
		}
		c := closes.at(body)
		q := opens.at(body + 1)
		for q >= 0 && (c < 0 || q < c) {
			if _, _, named := namedParamOpener(text, q, sc); named {
				break
			}
			q = opens.at(q + 1)
		}
		end, closed := len(text), false
		switch {
		case q >= 0 && (c < 0 || q < c):
			end = q
		case c >= 0:
			end, closed = c+len(qwenFunctionClose), true
		}
		call, complete := qwenFunction(qwenFunctionOpen + name + ">" + text[body:end])
		if !closed && end == len(text) && !complete {
			return append(out, span{start: p, end: end, partial: true})
		}
		if call != nil {
			if w := skipSpace(text, end); strings.HasPrefix(text[w:], hermesClose) {
				end = w + len(hermesClose)
			}
			out = append(out, span{start: p, end: end, calls: []Call{*call}})
		}
		p = q
		if q < end {
			p = opens.at(end)
		}
	}
	return out
}
