package tools

import (
	"strings"

	"github.com/troupe-dev/troupe/tools/textcall"
)

// Gemma's tool_code block (its function-calling guide: Python calls of the tools in a
// ```tool_code fence) sent as a call to a tool named tool_code, its code in an argument:
// {"name": "tool_code", "args": {"code": "print(default_api.read_file(path='a.go'))"}}. The
// code is read as the block it stands for; the calls it holds are the calls made. Code
// holding anything but calls of known tools is no call (a print of text stays refused).

// toolCodeArgs are the argument names the block's code comes under.
var toolCodeArgs = []string{"code", "tool_code", "input"}

// toolCodeCalls reads the calls in a tool_code call's code; ok when it holds at least one
// and nothing else.
func (r *Registry) toolCodeCalls(name, raw string) ([]textcall.Call, bool) {
	bare := name
	for _, p := range namespacePrefixes {
		bare = strings.TrimPrefix(bare, p)
	}
	if bare != "tool_code" {
		return nil, false
	}
	var args map[string]any
	if decodeNumbers(raw, &args) != nil {
		return nil, false
	}
	for _, key := range toolCodeArgs {
		code, _ := args[key].(string)
		if strings.TrimSpace(code) == "" || len(code) > splitRepairMax {
			continue
		}
		found := textcall.Parse("```tool_code\n"+code+"\n```", textcall.Options{Known: r.Knows})
		if len(found.Calls) == 0 || found.Partial || found.Prose != "" {
			return nil, false
		}
		for _, c := range found.Calls {
			if c.Args == nil {
				return nil, false
			}
		}
		return found.Calls, true
	}
	return nil, false
}

// toolCodePieces is a tool_code call as the pieces its calls stand for, each resolved.
func (r *Registry) toolCodePieces(name, raw string) ([]Piece, bool) {
	calls, ok := r.toolCodeCalls(name, raw)
	if !ok || len(calls) > maxPieces {
		return nil, false
	}
	var pieces []Piece
	for _, c := range calls {
		if strings.HasSuffix(c.Name, "tool_code") {
			return nil, false // one level: code in code is not read
		}
		if inner, ok := r.Split(c.Name, string(c.Args)); ok {
			pieces = append(pieces, inner...)
			continue
		}
		canonical, translated, ok := r.Resolve(c.Name, string(c.Args))
		if !ok {
			return nil, false
		}
		pieces = append(pieces, Piece{Name: canonical, Args: translated})
	}
	return pieces, len(pieces) <= maxPieces
}

// toolCodeRefusal is why a tool_code call that holds no call of ours cannot run (one that
// does is split into those calls before the mapping sees it).
func toolCodeRefusal(map[string]any) (string, string) {
	return "", "its code holds no call of this session's tools; call a tool directly"
}
