package tools

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Codex's apply_patch format (codex-rs/apply-patch, parser.rs and its Lark grammar):
//
//	*** Begin Patch
//	*** Add File: PATH          then every line "+text"
//	*** Delete File: PATH
//	*** Update File: PATH       then optionally "*** Move to: NEW", then hunks:
//	@@ [header]                 (optional before the first hunk)
//	 context / -removed / +added lines, optionally closed by "*** End of File"
//	*** End Patch
//
// A patch that adds one file maps to write_file, one that updates one file with one hunk to
// edit_file (the hunk's ' ' and '-' lines are old_string, its ' ' and '+' lines new_string).
// Everything else is refused with the one call to make instead.

// patchOp is one file operation of a patch.
type patchOp struct {
	kind    string // "Add", "Delete" or "Update"
	path    string
	moveTo  string      // Update: the new name, when it renames
	content string      // Add: the new file's text
	hunks   []patchHunk // Update
}

// patchHunk is one @@ block of an update: the lines it expects and the lines it leaves.
type patchHunk struct {
	old, new  []string
	endOfFile bool // closed by "*** End of File": old must end the file
}

const (
	patchBegin     = "*** Begin Patch"
	patchEnd       = "*** End Patch"
	patchAdd       = "*** Add File: "
	patchDelete    = "*** Delete File: "
	patchUpdate    = "*** Update File: "
	patchMoveTo    = "*** Move to: "
	patchEndOfFile = "*** End of File"
)

// applyPatch maps Codex's apply_patch (the patch in input, or patch) to write_file or edit_file.
func applyPatch(args map[string]any) (string, string) {
	text, _ := args["input"].(string)
	if text == "" {
		text, _ = args["patch"].(string)
	}
	return patchCall(args, text, "")
}

// isPatchText says whether text is a patch (perhaps in a heredoc), not JSON arguments.
func isPatchText(text string) bool {
	lines := unwrapHeredoc(strings.Split(strings.TrimSpace(text), "\n"))
	if _, unified := unifiedAsCodex(lines); unified {
		return true
	}
	return strings.TrimSpace(lines[0]) == patchBegin
}

// patchCall rewrites args into the one call text stands for; paths are relative to dir when
// the patch came with a working directory.
func patchCall(args map[string]any, text, dir string) (string, string) {
	ops, problem := parsePatch(text)
	if problem != "" {
		return "", "the patch cannot be read: " + problem
	}
	switch {
	case len(ops) == 0:
		return "", "the patch has no file operation between *** Begin Patch and *** End Patch"
	case len(ops) > 1:
		names := make([]string, len(ops))
		for i, op := range ops {
			names[i] = strings.ToLower(op.kind) + " " + op.path
		}
		return "", fmt.Sprintf("the patch has %d file operations (%s); send one call per file: edit_file (path, old_string, new_string) to change one, write_file (path, content) to create one", len(ops), strings.Join(names, ", "))
	}
	op := ops[0]
	if dir != "" && dir != "." && !path.IsAbs(op.path) {
		op.path = path.Join(dir, op.path)
	}
	switch {
	case op.kind == "Delete":
		return "", fmt.Sprintf("deleting a file is not done with a patch here; delete it with bash: rm %s", shellQuote(op.path))
	case op.kind == "Add":
		clear(args)
		args["path"], args["content"] = op.path, op.content
		return "write_file", ""
	case op.moveTo != "":
		return "", fmt.Sprintf("renaming (*** Move to) is not done with a patch here; rename with bash: mv %s %s, then change the file with edit_file", shellQuote(op.path), shellQuote(op.moveTo))
	}
	oldText, newText, refusal := op.hunks[0].edit(1)
	if refusal != "" {
		return "", refusal
	}
	if len(op.hunks) > 1 {
		first, _ := json.Marshal(map[string]string{"path": op.path, "old_string": oldText, "new_string": newText})
		example := string(first)
		if len(example) > 4<<10 {
			example = fmt.Sprintf("the first hunk's ' ' and '-' lines as old_string and its ' ' and '+' lines as new_string (path %s)", op.path)
		}
		return "", fmt.Sprintf("the patch has %d hunks and edit_file makes one replacement per call; send one edit_file per hunk, in order, starting with %s", len(op.hunks), example)
	}
	clear(args)
	args["path"], args["old_string"], args["new_string"] = op.path, oldText, newText
	return "edit_file", ""
}

// edit is hunk n as edit_file's old_string and new_string. The header after @@ is not needed:
// edit_file finds old_string wherever it is, and says so when it is not unique. The lines are
// joined without a final line break, so the text still matches when the model left out the
// first line's indentation or wrote part of a line (Codex, too, forgives whitespace when it
// seeks lines); lines that all go take their line breaks with them.
func (h patchHunk) edit(n int) (oldText, newText, refusal string) {
	oldLines, newLines := h.old, h.new
	// A trailing blank context line is often only the blank line between hunks (Codex retries
	// without it too).
	for len(oldLines) > 0 && len(newLines) > 0 && oldLines[len(oldLines)-1] == "" && newLines[len(newLines)-1] == "" {
		oldLines, newLines = oldLines[:len(oldLines)-1], newLines[:len(newLines)-1]
	}
	if len(oldLines) == 0 {
		return "", "", fmt.Sprintf("hunk %d only adds lines and has nothing to anchor them; start it with the unchanged line above as a context line (prefixed by a space), or call edit_file with that line as old_string", n)
	}
	oldText, newText = strings.Join(oldLines, "\n"), strings.Join(newLines, "\n")
	switch {
	case len(newLines) > 0:
	case h.endOfFile: // the file's last lines go, with the break before them
		oldText = "\n" + oldText
	default:
		oldText += "\n"
	}
	if oldText == newText {
		return "", "", fmt.Sprintf("hunk %d changes nothing: it has no '-' or '+' line that differs", n)
	}
	return oldText, newText, ""
}

// parsePatch reads a patch as Codex does, a little leniently (markers padded with spaces, a
// heredoc around it, a missing @@ before the first hunk). problem says where it is malformed.
func parsePatch(text string) ([]patchOp, string) {
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n")), "\n")
	lines = unwrapHeredoc(lines)
	if codex, ok := unifiedAsCodex(lines); ok && strings.TrimSpace(lines[0]) != patchBegin {
		lines = codex
	}
	if strings.TrimSpace(lines[0]) != patchBegin {
		return nil, fmt.Sprintf("its first line must be %q", patchBegin)
	}
	if len(lines) < 2 || strings.TrimSpace(lines[len(lines)-1]) != patchEnd {
		return nil, fmt.Sprintf("its last line must be %q", patchEnd)
	}
	p := patchReader{lines: lines[:len(lines)-1], at: 1}
	var ops []patchOp
	for p.at < len(p.lines) {
		op, problem := p.op()
		if problem != "" {
			return nil, problem
		}
		ops = append(ops, op)
	}
	return ops, ""
}

// patchReader walks a patch's lines; at is the index of the next one (line at+1 to people).
type patchReader struct {
	lines []string
	at    int
}

func (p *patchReader) op() (patchOp, string) {
	header := strings.TrimSpace(p.lines[p.at])
	p.at++
	for _, marker := range []string{patchAdd, patchDelete, patchUpdate} {
		if header == strings.TrimSpace(marker) {
			return patchOp{}, fmt.Sprintf("line %d, %q, names no file: put its path after the colon", p.at, header)
		}
	}
	if rest, ok := strings.CutPrefix(header, patchAdd); ok {
		op := patchOp{kind: "Add", path: strings.TrimSpace(rest)}
		var content strings.Builder
		for ; p.at < len(p.lines) && strings.HasPrefix(p.lines[p.at], "+"); p.at++ {
			content.WriteString(p.lines[p.at][1:] + "\n")
		}
		op.content = content.String()
		return op, ""
	}
	if rest, ok := strings.CutPrefix(header, patchDelete); ok {
		return patchOp{kind: "Delete", path: strings.TrimSpace(rest)}, ""
	}
	rest, ok := strings.CutPrefix(header, patchUpdate)
	if !ok {
		return patchOp{}, fmt.Sprintf("line %d, %q, is not a file header: use %q, %q or %q followed by the path", p.at, header, patchAdd+"PATH", patchDelete+"PATH", patchUpdate+"PATH")
	}
	op := patchOp{kind: "Update", path: strings.TrimSpace(rest)}
	if p.at < len(p.lines) {
		if to, ok := strings.CutPrefix(strings.TrimSpace(p.lines[p.at]), patchMoveTo); ok {
			op.moveTo = strings.TrimSpace(to)
			p.at++
		}
	}
	for p.at < len(p.lines) {
		line := p.lines[p.at]
		if strings.TrimSpace(line) == "" { // blank lines between hunks
			p.at++
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "***") {
			break
		}
		hunk, problem := p.hunk(len(op.hunks) == 0)
		if problem != "" {
			return patchOp{}, problem
		}
		op.hunks = append(op.hunks, hunk)
	}
	if len(op.hunks) == 0 {
		return patchOp{}, fmt.Sprintf("the update of %s has no hunk: add @@ then its lines (' ' kept, '-' removed, '+' added)", op.path)
	}
	return op, ""
}

// hunk reads one hunk: an @@ line (optional for the first), then its ' ', '-' and '+' lines.
func (p *patchReader) hunk(first bool) (patchHunk, string) {
	start := p.at + 1
	if head := strings.TrimSpace(p.lines[p.at]); head == "@@" || strings.HasPrefix(head, "@@ ") {
		p.at++
	} else if !first {
		return patchHunk{}, fmt.Sprintf("line %d, %q, should start a hunk with @@", start, p.lines[p.at])
	}
	var h patchHunk
	n := 0
	for ; p.at < len(p.lines); p.at++ {
		line := p.lines[p.at]
		if strings.TrimSpace(line) == patchEndOfFile {
			if n > 0 {
				h.endOfFile = true
				p.at++
			}
			break
		}
		if line == "" { // a blank context line whose space was lost
			h.old, h.new = append(h.old, ""), append(h.new, "")
			n++
			continue
		}
		switch line[0] {
		case ' ':
			h.old, h.new = append(h.old, line[1:]), append(h.new, line[1:])
		case '-':
			h.old = append(h.old, line[1:])
		case '+':
			h.new = append(h.new, line[1:])
		default:
			if n == 0 && strings.HasPrefix(strings.TrimSpace(line), "***") {
				return patchHunk{}, fmt.Sprintf("the hunk at line %d has no lines", start)
			}
			if n == 0 {
				return patchHunk{}, fmt.Sprintf("line %d, %q, starts with none of ' ', '-', '+': every hunk line needs one (' ' kept, '-' removed, '+' added)", p.at+1, line)
			}
			return h, "" // the next hunk's header, or another file's
		}
		n++
	}
	if n == 0 {
		return patchHunk{}, fmt.Sprintf("the hunk at line %d has no lines", start)
	}
	return h, ""
}

// heredocStart is the first line of a patch fed through a heredoc, with or without the
// command: "<<'EOF'", "apply_patch <<EOF", "cd sub && apply_patch <<'PATCH'".
var heredocStart = lazyre.New(`^\s*(?:cd\s+(\S+)\s*&&\s*)?(apply_?patch\s*)?<<-?\s*['"]?(\w+)['"]?\s*$`)

// unwrapHeredoc strips a heredoc around the patch (Codex accepts "<<'EOF' … EOF" as the
// argument, gpt-4.1's habit).
func unwrapHeredoc(lines []string) []string {
	if len(lines) < 4 {
		return lines
	}
	m := heredocStart.FindStringSubmatch(lines[0])
	if m == nil || strings.TrimSpace(lines[len(lines)-1]) != m[3] {
		return lines
	}
	return lines[1 : len(lines)-1]
}

// patchScript finds apply_patch fed a heredoc in a shell script, as Codex's own shell accepts
// it (["bash", "-lc", "cd sub && apply_patch <<'EOF'\n…\nEOF"]): the patch and the directory.
func patchScript(script string) (text, dir string, ok bool) {
	firstLine, _, _ := strings.Cut(strings.TrimSpace(script), "\n")
	m := heredocStart.FindStringSubmatch(firstLine)
	if m == nil || m[2] == "" {
		return "", "", false
	}
	return script, strings.Trim(m[1], `'"`), true
}
