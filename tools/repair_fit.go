package tools

import (
	"encoding/json"
	"slices"
)

// ArgsFit is the tool a bare arguments object (a reply that is only {"command": "make"}, with
// no tool name) was meant for, and the argument names it would take, after alias resolution.
type ArgsFit struct {
	Tool string
	Args []string // the tool's own names of the arguments it would take, sorted
}

// ToolFittingArgs names the one tool a JSON object of arguments sent with no tool name fits:
// every required argument of the tool is present once aliases are resolved (file_path → path,
// cmd → command), and it takes more of the object's keys than any other tool that fits. Keys
// no tool declares do not count against a fit (nanocoder#488 sends a language with its
// write_file arguments). When several tools take equally many keys, a leftover string value
// naming one of them decides ({"path": …, "action": "read"}, ClawRouter#213); otherwise none
// fits. The answer only steers: the caller never runs a call without a tool name.
func (r *Registry) ToolFittingArgs(object string) (ArgsFit, bool) {
	var probe map[string]any
	if json.Unmarshal([]byte(object), &probe) != nil || len(probe) == 0 {
		return ArgsFit{}, false
	}
	var best []ArgsFit
	bestTaken := 0
	for _, e := range r.entries {
		var args map[string]any
		if decodeNumbers(object, &args) != nil {
			return ArgsFit{}, false
		}
		e.schema.renameAliases(args)
		fit, ok := e.schema.takes(args)
		switch {
		case !ok || len(fit) < bestTaken:
		case len(fit) > bestTaken:
			best, bestTaken = []ArgsFit{{e.spec.Name, fit}}, len(fit)
		default:
			best = append(best, ArgsFit{e.spec.Name, fit})
		}
	}
	if len(best) > 1 {
		best = r.namedByValue(best, probe)
	}
	if len(best) != 1 {
		return ArgsFit{}, false
	}
	return best[0], true
}

// takes lists the arguments of args the schema declares, when all its required ones are there.
func (s *argsSchema) takes(args map[string]any) ([]string, bool) {
	var taken []string
	for _, p := range s.props {
		if v, ok := args[p.name]; ok && v != nil {
			taken = append(taken, p.name)
		}
	}
	for name := range s.required {
		if v, ok := args[name]; !ok || v == nil {
			return nil, false
		}
	}
	slices.Sort(taken)
	return taken, len(taken) > 0
}

// namedByValue keeps the one candidate that a string value of the object names (as a tool of
// ours or another harness's), or none.
func (r *Registry) namedByValue(candidates []ArgsFit, object map[string]any) []ArgsFit {
	var named []ArgsFit
	for _, v := range object {
		s, ok := v.(string)
		if !ok || len(s) > 64 {
			continue
		}
		res, ok := r.resolve(s, "")
		if !ok {
			continue
		}
		for _, c := range candidates {
			if c.Tool == res.name && !slices.ContainsFunc(named, func(n ArgsFit) bool { return n.Tool == c.Tool }) {
				named = append(named, c)
			}
		}
	}
	return named
}
