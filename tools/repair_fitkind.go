package tools

import (
	"encoding/json"
	"strings"
)

// When a bare arguments object fits several tools equally, the name the model gave its path
// decides between a file and a directory: {"file_path": …} (Claude Code's Read, Kimi's and
// OpenClaude's file tools) is a file to read, {"directory": …} a directory to list. A tool's
// own path argument says which it takes in its description ("file path, …", "directory, …";
// "file or directory" takes either). A key that names neither (path) decides nothing.

// keyPathKind is the kind of path an argument's key names: "file", "directory", or "" when
// it names neither.
func keyPathKind(key string) string {
	n := normalizedName(key)
	switch {
	case strings.Contains(n, "file"):
		return "file"
	case strings.Contains(n, "dir") || strings.Contains(n, "folder"):
		return "directory"
	}
	return ""
}

// byPathKind keeps the one candidate whose path arguments take the kind of path the object's
// keys name, or none: every renamed key that names a kind must match the candidate's own
// description of the argument it became.
func (r *Registry) byPathKind(candidates []ArgsFit) []ArgsFit {
	var kept []ArgsFit
	for _, c := range candidates {
		e, ok := r.byName[c.Tool]
		if !ok {
			continue
		}
		agrees, decided := true, false
		for _, rn := range c.renames {
			want := keyPathKind(rn.Before)
			if want == "" {
				continue
			}
			decided = true
			if !takesKind(propDescription(e.spec.Schema, rn.After), want) {
				agrees = false
			}
		}
		if decided && agrees {
			kept = append(kept, c)
		}
	}
	if len(kept) != 1 {
		return nil
	}
	return kept
}

// takesKind says whether an argument described as desc takes a path of kind.
func takesKind(desc, kind string) bool {
	d := strings.ToLower(desc)
	switch {
	case strings.HasPrefix(d, "file or directory"), strings.HasPrefix(d, "directory or file"):
		return true
	case strings.HasPrefix(d, "file"):
		return kind == "file"
	case strings.HasPrefix(d, "directory"):
		return kind == "directory"
	}
	return false
}

// propDescription is the description of a top-level property of a JSON schema ("" when none).
func propDescription(schema json.RawMessage, name string) string {
	var s struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return ""
	}
	return s.Properties[name].Description
}
