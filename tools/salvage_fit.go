package tools

import "encoding/json"

// FitCall reports whether a call of name with args would be admitted (textcall.Salvage's
// Fit): the name resolves to one of the registry's tools, the alias layer maps the arguments,
// and the tool's schema takes every one of them, required ones present. args is a JSON
// object, a JSON string for a tool with one required string argument, or an object cut off
// at the end of a reply (completed only for a read, as Admit does). placed is the number of
// arguments the tool would receive. Only the schema is judged here: the path policy of the
// session's workspace is Admit's, when the call runs.
func (r *Registry) FitCall(name, args string) (placed int, ok bool) {
	a := r.Admit(&Env{Root: "/"}, Call{ID: "fit", Name: name, Args: args})
	if a.Refusal != "" || a.Name == "" {
		return 0, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(a.Args, &m) != nil {
		return 0, false
	}
	return len(m), true
}
