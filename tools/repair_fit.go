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
	// Certain says the fit has the margin to be run as a call (Call.Inferred): the tool takes
	// at least half of the object's keys, so the object is mostly arguments of that tool and
	// not data that happens to share a key with it ({"name": …, "version": …, "private": …}).
	Certain bool
	// Object is the object as the call's arguments: the keys the tool does not take (under its
	// own names or an alias) are left out, so the guess does not fail on them.
	Object  string
	dropped []string // the object's keys the tool does not take
	renames []Repair // the object's keys renamed to the tool's names (renameAliases)
}

// ToolFittingArgs names the one tool a JSON object of arguments sent with no tool name fits:
// every required argument of the tool is present once aliases are resolved (file_path → path,
// cmd → command), and it takes more of the object's keys than any other tool that fits. Keys
// no tool declares do not count against a fit (nanocoder#488 sends a language with its
// write_file arguments). When several tools take equally many keys, a leftover string value
// naming one of them decides ({"path": …, "action": "read"}, ClawRouter#213), then the kind of
// path a key names ({"file_path": …} is a file to read, not a directory to list:
// repair_fitkind.go); otherwise none fits.
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
		renames := e.schema.renameAliases(args)
		fit, ok := e.schema.takes(args)
		if !ok || len(fit) < bestTaken {
			continue
		}
		candidate := ArgsFit{Tool: e.spec.Name, Args: fit, dropped: untaken(probe, fit, renames), renames: renames}
		if len(fit) > bestTaken {
			best, bestTaken = nil, len(fit)
		}
		best = append(best, candidate)
	}
	if len(best) > 1 {
		if named := r.namedByValue(best, probe); len(named) > 0 {
			best = named
		} else {
			best = r.byPathKind(best)
		}
	}
	if len(best) != 1 {
		return ArgsFit{}, false
	}
	fit := best[0]
	fit.Certain = 2*len(fit.Args) >= len(probe)
	var kept map[string]any
	if decodeNumbers(object, &kept) != nil {
		return ArgsFit{}, false
	}
	for _, k := range fit.dropped {
		delete(kept, k)
	}
	b, err := json.Marshal(kept)
	if err != nil {
		return ArgsFit{}, false
	}
	fit.Object = string(b)
	return fit, true
}

// untaken are the keys of object that neither are one of the taken arguments nor were renamed
// to one (renames are renameAliases' repairs: Before the key sent, After the schema's name).
func untaken(object map[string]any, taken []string, renames []Repair) []string {
	var out []string
	for k := range object {
		if slices.Contains(taken, k) || slices.ContainsFunc(renames, func(r Repair) bool { return r.Before == k && slices.Contains(taken, r.After) }) {
			continue
		}
		out = append(out, k)
	}
	return out
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
