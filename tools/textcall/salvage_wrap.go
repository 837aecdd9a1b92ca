package textcall

import (
	"encoding/json"
	"slices"
	"strings"
)

// wrapped reads a call whose name is the value of a name key inside an object:
// {"name": "read_file", "arguments": {…}}, or with the arguments flat beside the name
// ({"name": "glob", "pattern": "*.go"}). The object must stand on its own like any call.
func (s *salvager) wrapped(o occurrence, rest []occurrence) (candidate, bool) {
	t := s.text
	if !quotedMention(t, o) {
		return candidate{}, false
	}
	q := t[o.start-1] // " or ': a Python dict repr ({'name': 'read', 'input': {…}}) too
	j := backOver(t, o.start-1, " \t")
	if j == 0 || t[j-1] != ':' {
		return candidate{}, false
	}
	j = backOver(t, j-1, " \t")
	if j < 2 || t[j-1] != q {
		return candidate{}, false
	}
	kq := strings.LastIndexByte(t[max(0, j-24):j-1], q)
	if kq < 0 {
		return candidate{}, false
	}
	keyStart := max(0, j-24) + kq
	key := t[keyStart+1 : j-1]
	if !slices.Contains(nameKeys[:], key) {
		return candidate{}, false
	}
	floor := max(0, keyStart-256)
	open := strings.LastIndexByte(t[floor:keyStart], '{')
	if open < 0 || strings.ContainsRune(t[floor+open:keyStart], '}') {
		return candidate{}, false
	}
	open += floor
	end, closed := matchJSON(t, open)
	s.budget -= end - open
	raw := t[open:end]
	if !closed {
		// the reply ends inside the wrapper: forgiven only for the wrapper's own closing
		// brace, so the arguments stay exactly as sent (a cut-off call stays cut off)
		var ok bool
		if raw, ok = unclosedWrapper(raw); !ok {
			return candidate{}, false
		}
	}
	args, ok := wrappedArgs(raw, key, t[o.start:o.end])
	if !ok {
		return candidate{}, false
	}
	l := leadOf(t, open)
	if l.kind == leadProse {
		return candidate{}, false
	}
	stop, standing := trail(t, end, trailLimit(t, rest, end), l, false)
	if !standing {
		return candidate{}, false
	}
	return s.fit(t[o.start:o.end], candidate{start: l.start, end: stop, args: args, raw: t[open:end]})
}

// unclosedWrapper closes a wrapper object the reply ends inside when only its last brace is
// missing (a fence may follow).
func unclosedWrapper(raw string) (string, bool) {
	t := strings.TrimSpace(raw)
	t = strings.TrimSpace(strings.TrimSuffix(t, "```"))
	fixed, ok := closeBrackets(t)
	if !ok || len(fixed) != len(t)+1 || !strings.HasSuffix(t, "}") {
		return "", false
	}
	return fixed, true
}

// wrappedArgs are the arguments of a wrapper object whose key holds name: its arguments field,
// or the other keys when it has none.
func wrappedArgs(raw, key, name string) (string, bool) {
	v, ok := looseValue(raw)
	var obj map[string]json.RawMessage
	if !ok || json.Unmarshal(v, &obj) != nil {
		return "", false
	}
	var got string
	if json.Unmarshal(obj[key], &got) != nil || got != name {
		return "", false
	}
	for _, k := range argKeys {
		if a, ok := obj[k]; ok {
			args := argsFromValue(a)
			return string(args), args != nil
		}
	}
	flat := map[string]json.RawMessage{}
	for k, a := range obj {
		if !slices.Contains(nameKeys[:], k) && k != "id" && k != "type" && k != "call_id" && k != "index" {
			flat[k] = a
		}
	}
	b, err := json.Marshal(flat)
	return string(b), err == nil
}
