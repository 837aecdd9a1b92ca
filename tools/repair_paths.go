package tools

import (
	"fmt"
	"net/url"
	"strings"
)

// Path values as models send them: padded with the blanks a call format leaves around a value
// (<parameter=path> SOUL.md </parameter>, {"path": " a.go "}), or given as "" for an optional
// directory that means the default (gpt-oss's repo_browser tools send {"path": ""} for the
// root). A file name starting or ending with a blank is never what a model means, and an empty
// optional path is the argument left out.

// A path written as a file URI (file:///home/me/a.go, as IDE agents and Void's uri arguments
// send it) is that local path.

// pathValues trims the blanks around each path argument, and drops an optional one left empty.
// A required path left empty stays for validation to name.
func (s *argsSchema) pathValues(args map[string]any, pathArgs []string) []Repair {
	var repairs []Repair
	for _, name := range pathArgs {
		p, ok := args[name].(string)
		if !ok {
			continue
		}
		trimmed := strings.TrimSpace(p)
		if local, ok := fileURI(trimmed); ok {
			trimmed = local
		}
		switch {
		case trimmed == "" && !s.required[name] && s.has(name):
			delete(args, name)
			repairs = append(repairs, newRepair(RepairCoercion, fmt.Sprintf("%s: %q", name, p), name+" omitted (the default)"))
		case trimmed != p && trimmed != "":
			args[name] = trimmed
			repairs = append(repairs, newRepair(RepairStrayText, fmt.Sprintf("%s: %q", name, p), fmt.Sprintf("%s: %q", name, trimmed)))
		}
	}
	return repairs
}

// fileURI is the local path a file:// URI names, with its %-escapes decoded.
func fileURI(p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, "file://")
	if !ok {
		return "", false
	}
	if host, after, found := strings.Cut(rest, "/"); found && (host == "" || host == "localhost") {
		rest = "/" + after
	} else {
		return "", false
	}
	if isDrivePath(strings.TrimPrefix(rest, "/")) { // file:///C:/a.go
		rest = strings.TrimPrefix(rest, "/")
	}
	if decoded, err := url.PathUnescape(rest); err == nil {
		rest = decoded
	}
	return rest, rest != ""
}
