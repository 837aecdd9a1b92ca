package textcall

import "strings"

// Tag forms for Salvage: argument tags after a name, a name given in a tag's name attribute,
// and a tag named after the tool.

// tagArgs reads argument tags: <key>v</key>, <parameter=key>v</parameter>, <P name="key" …>v</P>
// (any tag P carrying the key in a name attribute: invoke's parameter under any prefix), and
// <arg_key>key</arg_key><arg_value>v</arg_value> pairs.
func (s *salvager) tagArgs(i int) (payload, bool) {
	t := s.text
	var pairs []kv
	j := i
	for len(pairs) < 64 {
		k := skipSpace(t, j)
		if k >= len(t) || t[k] != '<' {
			break
		}
		gt := strings.IndexByte(t[k:min(len(t), k+160)], '>')
		if gt < 0 || strings.HasPrefix(t[k+1:], "/") {
			break
		}
		inner := t[k+1 : k+gt]
		body := k + gt + 1
		key, closeTag := inner, "</"+inner+">"
		switch tag, attrs, _ := strings.Cut(inner, " "); {
		case inner == "arg_key":
			key, closeTag = "", "</arg_key>"
		case strings.HasPrefix(inner, "parameter="):
			key, closeTag = strings.TrimPrefix(inner, "parameter="), "</parameter>"
		case attrs != "" && attribute(attrs, "name") != "":
			key, closeTag = attribute(attrs, "name"), "</"+tag+">"
		}
		window := t[body:min(len(t), body+max(s.budget, 0))]
		c := strings.Index(window, closeTag)
		s.searched(c, len(window))
		if c < 0 {
			break
		}
		j = body + c + len(closeTag)
		if key == "" { // <arg_key>k</arg_key> then <arg_value>v</arg_value>
			key = strings.TrimSpace(window[:c])
			v := skipSpace(t, j)
			if !strings.HasPrefix(t[v:], "<arg_value>") {
				break
			}
			vwin := t[v:min(len(t), v+max(s.budget, 0))]
			vend := strings.Index(vwin, "</arg_value>")
			s.searched(vend, len(vwin))
			if vend < 0 {
				break
			}
			pairs = append(pairs, kv{key, tagValue(t[v+len("<arg_value>") : v+vend])})
			j = v + vend + len("</arg_value>")
			continue
		}
		if !plausibleName(key) {
			break
		}
		pairs = append(pairs, kv{key, tagValue(window[:c])})
	}
	if len(pairs) == 0 {
		return payload{}, false
	}
	return payload{args: string(objectOf(pairs)), end: j}, true
}

// namedInAttribute reports whether the quoted name at o is the value of a recipient attribute
// (<invoke name="read_file">, <tool_call name="bash">, name="bash" arguments={…}), and where
// the region starts: the tag's "<" when the attribute is in one.
func namedInAttribute(text string, o occurrence) (start int, ok bool) {
	q := o.start - 1
	if q < 2 || text[q-1] != '=' || o.end >= len(text) || text[o.end] != text[q] {
		return 0, false
	}
	k := q - 1
	for k > 0 && isIdentByte(text[k-1]) && q-k < 16 {
		k--
	}
	if !recipientKeys[strings.ToLower(text[k:q-1])] {
		return 0, false
	}
	floor := max(0, k-64)
	if lt := strings.LastIndexByte(text[floor:k], '<'); lt >= 0 && !strings.ContainsAny(text[floor+lt:k], ">\n") {
		return floor + lt, true
	}
	return k, true
}

// tagNamed reads a tag named after the tool holding one string: <execute_bash> ls -F
// </execute_bash>, <read_file> a.go </read_file>. A body holding tags is left to the
// argument-tag reader.
func (s *salvager) tagNamed(o occurrence, rest []occurrence) (candidate, bool) {
	t := s.text
	if o.start == 0 || t[o.start-1] != '<' || o.end >= len(t) || t[o.end] != '>' {
		return candidate{}, false
	}
	closeTag := "</" + t[o.start:o.end] + ">"
	window := t[o.end+1 : min(len(t), o.end+1+max(s.budget, 0))]
	c := strings.Index(window, closeTag)
	s.searched(c, len(window))
	body := strings.TrimSpace(window[:max(c, 0)])
	if c < 0 || body == "" || strings.ContainsAny(body, "<\n") {
		return candidate{}, false
	}
	end := o.end + 1 + c + len(closeTag)
	l := lead{kind: leadMarker, start: o.start - 1}
	stop, standing := trail(t, end, trailLimit(t, rest, end), l, true)
	if !standing {
		return candidate{}, false
	}
	return s.fit(t[o.start:o.end], candidate{start: l.start, end: stop, args: string(quoteJSON(body)), raw: t[o.start-1 : end]})
}
