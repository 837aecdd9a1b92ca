package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/troupe-dev/troupe/internal/textfmt"
)

type writeFile struct{}

func (writeFile) Spec() Spec {
	return Spec{
		Name:        "write_file",
		Description: "Create a file, or replace a whole file, with content. Creates parent directories. Prefer edit_file for changes to existing files.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"path":{"type":"string","description":"file path, relative to the workspace root"},` +
			`"content":{"type":"string","description":"the complete new file content"}},` +
			`"required":["path","content"],"additionalProperties":false}`),
		Risk:     RiskWrite,
		PathArgs: []string{"path"},
	}
}

type writeFileArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func (writeFile) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a writeFileArgs
	if bad := decodeArgs("write_file", raw, &a); bad != nil {
		return *bad
	}
	abs, rel, err := env.resolve(a.Path)
	if err != nil {
		return errorResult(err.Error())
	}
	if err := ctx.Err(); err != nil {
		return errorResult(fmt.Sprintf("write_file %s: %v", rel, err))
	}
	if env.Files != nil { // again: the disk may have changed while the call awaited approval
		if bad := env.Files.requireBaseline("write_file", rel, abs, false, false); bad != nil {
			return *bad
		}
	}
	ws, err := env.openRoot()
	if err != nil {
		return errorResult(fmt.Sprintf("write_file %s: %v", rel, err))
	}
	defer ws.Close()
	var before int64 = -1
	if info, err := ws.Lstat(rel); err == nil {
		before = info.Size()
	}
	created, err := writeFileAtomic(ws, rel, []byte(a.Content))
	if err != nil {
		return errorResult(openFailure("write_file", a.Path, rel, err))
	}
	if env.Files != nil {
		env.Files.recordWrite(rel, abs, []byte(a.Content), env.Turn)
	}
	verb := fmt.Sprintf("overwrote %s (was %d bytes)", rel, before)
	if created {
		verb = "created " + rel
	}
	return Result{
		Output:  fmt.Sprintf("%s: %s, %s written", verb, textfmt.Count(len(a.Content), "byte"), textfmt.Count(countLines(a.Content), "line")),
		Changed: []string{rel},
	}
}

// requireState is write_file's state requirement: overwriting an existing file needs a whole
// baseline that matches the disk; creating one needs nothing.
func (writeFile) requireState(env *Env, raw json.RawMessage) *Result {
	var a writeFileArgs
	if bad := decodeArgs("write_file", raw, &a); bad != nil {
		return bad
	}
	abs, rel, err := env.resolve(a.Path)
	if err != nil {
		return nil // the path policy has already answered
	}
	return env.Files.requireBaseline("write_file", rel, abs, false, false)
}
