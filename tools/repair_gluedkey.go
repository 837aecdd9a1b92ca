package tools

import (
	"maps"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// A parameter's value fused into its name (issue 20): the XML parameter form
// (<parameter=cmd>pwd</parameter>) written into a JSON key, or a parameter tag whose '>' went
// missing, so the name runs into the value and the value ends at the closing tag:
// {"cmd=pwd\n</parameter": ""}, {"cmd\nls\n</parameter": ""}, {"command curl -X GET …": ""}.
// The key then starts with an argument name (the schema's own or an alias of one), a
// separator ('=', ':' or a blank), and the value; what the key was given is empty. It is
// read as that argument when the schema declares it and the call lacks it, so a key that
// merely contains a blank is never renamed.

// gluedKey splits a fused key: its argument name, then the value after '=', ':' or a blank,
// then an optional leaked closing tag (with or without its '>').
var gluedKey = lazyre.New(`^\s*([A-Za-z][A-Za-z0-9_.-]{0,40})(?:\s*[=:]\s*|\s+)([\s\S]*?)\s*(?:</?(?:parameter|param|arg_value|arg_key|value)>?\s*)*$`)

// gluedKeyMax bounds the keys split (a key holding a whole command can be long).
const gluedKeyMax = 64 << 10

// gluedValues reads each fused key as its argument and value.
func (s *argsSchema) gluedValues(args map[string]any) []Repair {
	var repairs []Repair
	for _, key := range slices.Sorted(maps.Keys(args)) {
		if s.has(key) || len(key) > gluedKeyMax || !emptyValue(args[key]) || !strings.ContainsAny(key, "=: \t\r\n") {
			continue
		}
		m := gluedKey.FindStringSubmatch(key)
		if m == nil || strings.TrimSpace(m[2]) == "" {
			continue
		}
		name := m[1]
		if !s.has(name) {
			name = s.aliasTarget(name, args)
		}
		if _, taken := args[name]; name == "" || taken || !s.has(name) {
			continue
		}
		delete(args, key)
		args[name] = m[2]
		repairs = append(repairs, newRepair(RepairArgAlias, key, name+": "+m[2]))
	}
	return repairs
}

// emptyValue says whether v is what a fused key is given: an empty string or null.
func emptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	}
	return false
}

// emptyUnknowns drops the arguments a closed schema does not declare that carry nothing: an
// XML parameter opened and closed with only a line break between (<parameter=type>\n
// </parameter>) sends "", which asks for nothing. Only a plain name is dropped: a key with a
// value fused into it that gluedValues could not read (cmd=pwd beside a command) stays for
// validation to name.
func (s *argsSchema) emptyUnknowns(args map[string]any) []Repair {
	if !s.closed {
		return nil
	}
	var repairs []Repair
	for _, key := range slices.Sorted(maps.Keys(args)) {
		if !s.has(key) && emptyValue(args[key]) && plainKey.MatchString(key) {
			delete(args, key)
			repairs = append(repairs, newRepair(RepairDroppedNote, key+": (empty)", ""))
		}
	}
	return repairs
}

// plainKey is an argument name with nothing fused into it.
var plainKey = lazyre.New(`^[A-Za-z_$-][A-Za-z0-9_.$-]{0,63}$`)

// ownNameKeys are the keys (normalized) under which a model repeats the tool's name among its
// arguments ({"command": "cat a.md", "tool": "bash"}, Qwen3.6 in MTPLX#196).
var ownNameKeys = []string{"tool", "toolname", "name", "function", "functionname"}

// ownName drops such a key when the schema does not declare it and its value is the tool's
// name (ours, or the one the call was sent under): it says nothing the call does not.
func (s *argsSchema) ownName(args map[string]any, names ...string) []Repair {
	var repairs []Repair
	for _, key := range slices.Sorted(maps.Keys(args)) {
		v, ok := args[key].(string)
		if !ok || s.has(key) || !slices.Contains(ownNameKeys, normalizedName(key)) {
			continue
		}
		if slices.ContainsFunc(names, func(n string) bool { return n != "" && normalizedName(n) == normalizedName(v) }) {
			delete(args, key)
			repairs = append(repairs, newRepair(RepairDroppedNote, key+": "+v, ""))
		}
	}
	return repairs
}
