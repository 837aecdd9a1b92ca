package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// editDiffBudget bounds the diff an edit returns.
const editDiffBudget = 8 << 10

type editFile struct{}

func (editFile) Spec() Spec {
	return Spec{
		Name:        "edit_file",
		Description: "Replace exact text in a file. old_string must match exactly once (include enough surrounding lines), unless replace_all is true. Returns a diff.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"path":{"type":"string","description":"file path, relative to the workspace root"},` +
			`"old_string":{"type":"string","description":"exact current text, whitespace included"},` +
			`"new_string":{"type":"string","description":"replacement text"},` +
			`"replace_all":{"type":"boolean","description":"replace every occurrence (default false)"}},` +
			`"required":["path","old_string","new_string"],"additionalProperties":false}`),
		Risk:     RiskWrite,
		PathArgs: []string{"path"},
	}
}

type editFileArgs struct {
	Path       string `json:"path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

func (editFile) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a editFileArgs
	if bad := decodeArgs("edit_file", raw, &a); bad != nil {
		return *bad
	}
	abs, rel, err := env.resolve(a.Path)
	if err != nil {
		return errorResult(err.Error())
	}
	if a.OldString == a.NewString {
		return errorResult("no change: old_string and new_string are identical")
	}
	if env.Files != nil { // again: the disk may have changed while the call awaited approval
		if bad := env.Files.requireBaseline("edit_file", rel, abs, true, true); bad != nil {
			return *bad
		}
	}
	if a.OldString == "" {
		return errorResult("old_string is empty; give the exact text to replace (use write_file to create a file or replace all of it)")
	}
	ws, err := env.openRoot()
	if err != nil {
		return errorResult(fmt.Sprintf("edit_file %s: %v", rel, err))
	}
	defer ws.Close()
	if info, err := ws.Stat(rel); err == nil && !info.Mode().IsRegular() {
		return errorResult(fmt.Sprintf("%s is not a regular file (%s); edit_file edits text files", rel, info.Mode().Type()))
	}
	data, err := ws.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		root, _ := env.root()
		return errorResult(missingPath(root, rel) + "; use write_file to create a new file")
	}
	if err != nil {
		return errorResult(openFailure("edit_file", a.Path, rel, err))
	}
	if bytes.IndexByte(data[:min(len(data), readSniffBytes)], 0) >= 0 {
		return errorResult(fmt.Sprintf("%s is a binary file; edit_file edits text", rel))
	}
	e := planEdit(string(data), a)
	switch {
	case len(e.positions) == 0:
		return errorResult(notFound(rel, e.before, e.old))
	case len(e.positions) > 1 && !a.ReplaceAll:
		return errorResult(fmt.Sprintf("old_string matches %d times in %s (lines %s); include more surrounding lines to make it unique, or set replace_all=true",
			len(e.positions), rel, lineList(e.before, e.positions)))
	case e.after == e.before:
		return errorResult(fmt.Sprintf("no change: the edit would leave %s identical", rel))
	}
	if env.Files != nil {
		first, last := e.lines()
		if bad := env.Files.requireRange(rel, first, last); bad != nil {
			return *bad
		}
	}
	out := e.after
	if e.crlf {
		out = strings.ReplaceAll(out, "\n", "\r\n")
	}
	if err := ctx.Err(); err != nil {
		return errorResult(fmt.Sprintf("edit_file %s: %v", rel, err))
	}
	if _, err := writeFileAtomic(ws, rel, []byte(out)); err != nil {
		return errorResult(openFailure("edit_file", a.Path, rel, err))
	}
	if env.Files != nil {
		env.Files.recordWrite(rel, abs, []byte(out), env.Turn)
	}
	diff, _ := boundText(udiff.Unified("a/"+rel, "b/"+rel, e.before, e.after), editDiffBudget)
	return Result{
		Output:  fmt.Sprintf("edited %s: %d replacement(s)\n%s", rel, len(e.positions), diff),
		Changed: []string{rel},
	}
}

// requireState is edit_file's state requirement: an existing file needs a baseline that
// matches the disk; a partial one will do if the edit stays inside the lines read.
func (editFile) requireState(env *Env, raw json.RawMessage) *Result {
	var a editFileArgs
	if bad := decodeArgs("edit_file", raw, &a); bad != nil {
		return bad
	}
	abs, rel, err := env.resolve(a.Path)
	if err != nil {
		return nil // the path policy has already answered
	}
	if bad := env.Files.requireBaseline("edit_file", rel, abs, true, true); bad != nil {
		return bad
	}
	if rec, ok := env.Files.Record(rel); ok && !rec.Whole {
		if data, err := os.ReadFile(abs); err == nil {
			if e := planEdit(string(data), a); len(e.positions) > 0 {
				first, last := e.lines()
				return env.Files.requireRange(rel, first, last)
			}
		}
	}
	return nil
}

// plannedEdit is an edit worked out on text with LF line endings.
type plannedEdit struct {
	before, after, old string
	positions          []int // byte offsets of the matches in before
	crlf               bool  // the file uses CRLF; write it back so
}

// planEdit applies a to text without touching the disk.
func planEdit(text string, a editFileArgs) plannedEdit {
	e := plannedEdit{before: text, old: a.OldString, crlf: isCRLF(text)}
	newS := a.NewString
	if e.crlf {
		e.before = strings.ReplaceAll(text, "\r\n", "\n")
		e.old = strings.ReplaceAll(e.old, "\r\n", "\n")
		newS = strings.ReplaceAll(newS, "\r\n", "\n")
	}
	e.positions = occurrences(e.before, e.old)
	switch {
	case len(e.positions) == 1:
		e.after = e.before[:e.positions[0]] + newS + e.before[e.positions[0]+len(e.old):]
	case len(e.positions) > 1 && a.ReplaceAll:
		e.after = strings.ReplaceAll(e.before, e.old, newS)
	default:
		e.after = e.before
	}
	return e
}

// lines returns the first and last line the matches touch.
func (e plannedEdit) lines() (first, last int) {
	p0, pn := e.positions[0], e.positions[len(e.positions)-1]
	first = 1 + strings.Count(e.before[:p0], "\n")
	last = 1 + strings.Count(e.before[:pn+max(len(e.old)-1, 0)], "\n")
	return first, last
}

// isCRLF reports whether every line ending in text is CRLF.
func isCRLF(text string) bool {
	n := strings.Count(text, "\n")
	return n > 0 && strings.Count(text, "\r\n") == n
}

// occurrences returns the byte offsets of the non-overlapping matches of sub in text.
func occurrences(text, sub string) []int {
	var out []int
	for from := 0; ; {
		i := strings.Index(text[from:], sub)
		if i < 0 {
			return out
		}
		out = append(out, from+i)
		from += i + len(sub)
	}
}

// lineList names the lines the offsets fall on: "3, 17, 40" (at most 10, then "…").
func lineList(text string, offsets []int) string {
	parts := make([]string, 0, min(len(offsets), 10)+1)
	line, scanned := 1, 0
	for i, off := range offsets {
		if i == 10 {
			parts = append(parts, "…")
			break
		}
		line += strings.Count(text[scanned:off], "\n")
		scanned = off
		parts = append(parts, fmt.Sprint(line))
	}
	return strings.Join(parts, ", ")
}

// lineNumberPrefix matches read_file's "    12\t" line prefix.
var lineNumberPrefix = lazyre.New(`(?m)^ *\d+\t`)

// notFound explains a failed match and points at the likely cause.
func notFound(rel, text, old string) string {
	msg := fmt.Sprintf("old_string was not found in %s", rel)
	if offsets := looseOccurrences(text, old); len(offsets) > 0 {
		return msg + fmt.Sprintf("; it matches if whitespace is ignored at line(s) %s: copy the exact text (indentation, tabs vs spaces, line breaks) from read_file", lineList(text, offsets))
	}
	if lines := strings.Count(old, "\n") + 1; len(lineNumberPrefix.FindAllStringIndex(old, -1)) == lines {
		return msg + "; old_string seems to include read_file's line-number prefixes: send only the file's text"
	}
	return msg + "; read the file again to get its current text"
}

// looseOccurrences finds old in text with all whitespace ignored, returning offsets in text.
func looseOccurrences(text, old string) []int {
	squeezedOld, _ := squeeze(old)
	if squeezedOld == "" {
		return nil
	}
	squeezed, origin := squeeze(text)
	var out []int
	for _, off := range occurrences(squeezed, squeezedOld) {
		out = append(out, origin[off])
	}
	return out
}

// squeeze drops whitespace from s, and maps each kept byte to its offset in s.
func squeeze(s string) (string, []int) {
	var b strings.Builder
	origin := make([]int, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			continue
		}
		b.WriteByte(s[i])
		origin = append(origin, i)
	}
	return b.String(), origin
}
