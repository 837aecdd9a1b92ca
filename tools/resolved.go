package tools

import "encoding/json"

// Resolved is what a call will run as, worked out from the call alone: the registered tool its
// name resolves to (name repair, another harness's tool translated) and its arguments after
// argument repair (JSON repair, a bare value, wrappers, aliases, shell forms, coercion), the
// steps the lifecycle's admission takes before validation and the path policy. It reads no
// file, so the session can name what will run in its events before the executor admits the
// call (docs/ARCHITECTURE.md, events). ok is false when the name maps to no tool; args is the
// call's own when they cannot be read (the executor then refuses the call and says why).
func (r *Registry) Resolved(name, args string) (tool, repaired string, ok bool) {
	e, known := r.byName[name]
	if known && json.Valid([]byte(args)) {
		var decoded map[string]any // the usual case: our own call, valid as sent, read once
		if decodeNumbers(args, &decoded) == nil && e.schema.validate(decoded) == nil {
			return name, args, true
		}
	}
	if !known {
		res, found := r.resolve(name, args)
		if !found {
			return "", "", false
		}
		name, args, e = res.name, res.args, r.byName[res.name]
	}
	if cutOff(args) {
		return name, args, true // the lifecycle refuses cut-off arguments rather than complete them
	}
	var decoded map[string]any
	if parsed, _, err := parseArgs(args); err == nil {
		if decodeNumbers(string(parsed), &decoded) != nil {
			return name, args, true
		}
	} else if decoded, _, known = e.schema.wrapScalar(args); !known {
		return name, args, true
	}
	decoded, _ = e.schema.repairObject(decoded, e.spec.PathArgs)
	e.schema.coerce(decoded)
	out, err := json.Marshal(decoded)
	if err != nil || equalJSON(args, out) {
		return name, args, true // unchanged: the call's own text
	}
	return name, string(out), true
}

// equalJSON says whether text is valid JSON with the same value as canonical.
func equalJSON(text string, canonical []byte) bool {
	var a, b any
	if decodeNumbers(text, &a) != nil || decodeNumbers(string(canonical), &b) != nil {
		return false
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
