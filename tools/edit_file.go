package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/aymanbagabas/go-udiff"
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
	if a.OldString == "" {
		return errorResult("old_string is empty; give the exact text to replace (use write_file to create a file or replace all of it)")
	}
	if info, err := os.Stat(abs); err == nil && !info.Mode().IsRegular() {
		return errorResult(fmt.Sprintf("%s is not a regular file (%s); edit_file edits text files", rel, info.Mode().Type()))
	}
	data, err := os.ReadFile(abs)
	if errors.Is(err, fs.ErrNotExist) {
		root, _ := env.root()
		return errorResult(missingPath(root, rel) + "; use write_file to create a new file")
	}
	if err != nil {
		return errorResult(fmt.Sprintf("edit_file %s: %v", rel, err))
	}
	if bytes.IndexByte(data[:min(len(data), readSniffBytes)], 0) >= 0 {
		return errorResult(fmt.Sprintf("%s is a binary file; edit_file edits text", rel))
	}
	text, oldS, newS := string(data), a.OldString, a.NewString
	crlf := isCRLF(text)
	if crlf {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		oldS = strings.ReplaceAll(oldS, "\r\n", "\n")
		newS = strings.ReplaceAll(newS, "\r\n", "\n")
	}
	positions := occurrences(text, oldS)
	switch {
	case len(positions) == 0:
		return errorResult(notFound(rel, text, oldS))
	case len(positions) > 1 && !a.ReplaceAll:
		return errorResult(fmt.Sprintf("old_string matches %d times in %s (lines %s); include more surrounding lines to make it unique, or set replace_all=true",
			len(positions), rel, lineList(text, positions)))
	}
	edited := strings.ReplaceAll(text, oldS, newS)
	out := edited
	if crlf {
		out = strings.ReplaceAll(edited, "\n", "\r\n")
	}
	if err := ctx.Err(); err != nil {
		return errorResult(fmt.Sprintf("edit_file %s: %v", rel, err))
	}
	if _, err := writeFileAtomic(abs, []byte(out)); err != nil {
		return errorResult(fmt.Sprintf("edit_file %s: %v", rel, err))
	}
	diff, _ := boundText(udiff.Unified("a/"+rel, "b/"+rel, text, edited), editDiffBudget)
	return Result{
		Output:  fmt.Sprintf("edited %s: %d replacement(s)\n%s", rel, len(positions), diff),
		Changed: []string{rel},
	}
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
var lineNumberPrefix = regexp.MustCompile(`(?m)^ *\d+\t`)

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
