package tools

import (
	"strings"

	"github.com/troupe-dev/troupe/tools/textcall"
)

// Gemma's tool_code block (its function-calling guide: Python calls of the tools in a
// ```tool_code fence) sent as a call to a tool named tool_code, its code in an argument:
// {"name": "tool_code", "args": {"code": "print(default_api.read_file(path='a.go'))"}}. The
// code is read as the block it stands for; the calls it holds are the calls made. The code
// may also come as the arguments themselves, not in an object (the block's body as sent). Code
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
		// the block's body as the arguments, with no object around it: Gemma's
		// <tool_code>run_command("mkdir x")</tool_code> read as a tool named tool_code
		if code := strings.TrimSpace(raw); code == "" || strings.ContainsAny(code[:1], "{[\"") {
			return nil, false
		}
		args = map[string]any{"code": raw}
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
			if c.Args == nil && !positionalCall(code, c, len(found.Calls)) {
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
		args := string(c.Args)
		if c.Args == nil {
			args = strings.TrimSpace(c.Raw) // one positional value: the tool's sole argument (wrapScalar)
		}
		if inner, ok := r.Split(c.Name, args); ok {
			pieces = append(pieces, inner...)
			continue
		}
		canonical, translated, ok := r.Resolve(c.Name, args)
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

// positionalCall says whether a call read with a positional value (no Args, its value in Raw)
// is the whole code: the one call, as the code's first word (print( aside), so that a module's
// function in a script (import os; os.listdir('.')) is not read as a tool call.
func positionalCall(code string, c textcall.Call, calls int) bool {
	body := strings.TrimSpace(code)
	body = strings.TrimPrefix(body, "print(")
	return calls == 1 && strings.TrimSpace(c.Raw) != "" && strings.HasPrefix(body, c.Name+"(")
}
