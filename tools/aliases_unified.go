package tools

import "strings"

// Unified diffs where a Codex patch belongs: models trained on git send "--- a/x\n+++ b/x\n@@
// -1,3 +1,3 @@" to apply_patch, and some harnesses' patch tools take that format (llm-functions'
// fs_patch, whose hunks may start "@@ ... @@"). Each file section is read as the Codex
// operation it stands for: --- /dev/null adds the file, +++ /dev/null deletes it, anything
// else updates it, one Codex hunk per @@ hunk (the line numbers are not needed: edit_file
// finds the old lines wherever they are). git's own header lines (diff --git, index, modes)
// carry nothing here.

// unifiedAsCodex rewrites the lines of a unified diff as a Codex patch; ok is false when the
// lines are not one (the first meaningful line must be a --- header followed by +++).
func unifiedAsCodex(lines []string) ([]string, bool) {
	out := []string{patchBegin}
	files := 0
	for i := 0; i < len(lines); {
		line := lines[i]
		switch {
		case isFileHeader(lines, i):
			from, to := diffPaths(line[4:], lines[i+1][4:])
			i += 2
			end := i
			for end < len(lines) && !isFileHeader(lines, end) && !strings.HasPrefix(lines[end], "diff --git ") {
				end++
			}
			section, ok := unifiedSection(from, to, lines[i:end])
			if !ok {
				return nil, false
			}
			out = append(out, section...)
			files++
			i = end
		case files == 0 && !gitHeader(line):
			return nil, false
		default:
			i++
		}
	}
	return append(out, patchEnd), files > 0
}

// isFileHeader says whether lines[i] and the line after it are a file's --- and +++ headers.
func isFileHeader(lines []string, i int) bool {
	return i+1 < len(lines) && strings.HasPrefix(lines[i], "--- ") && strings.HasPrefix(lines[i+1], "+++ ")
}

// gitHeader is a line git writes before a file's --- header, or a blank one.
func gitHeader(line string) bool {
	for _, p := range []string{"diff ", "index ", "new file mode", "deleted file mode", "old mode", "new mode", "similarity index", "rename from", "rename to"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return strings.TrimSpace(line) == ""
}

// unifiedSection is one file's hunks as Codex lines.
func unifiedSection(from, to string, body []string) ([]string, bool) {
	var out []string
	switch {
	case from == "/dev/null":
		out = append(out, patchAdd+to)
		for _, l := range body {
			if strings.HasPrefix(l, "+") {
				out = append(out, l)
			}
		}
		return out, true
	case to == "/dev/null":
		return []string{patchDelete + from}, true
	}
	out = append(out, patchUpdate+from)
	if to != from {
		out = append(out, patchMoveTo+to)
	}
	hunks := 0
	for _, l := range body {
		switch {
		case strings.HasPrefix(l, "@@"):
			out = append(out, "@@")
			hunks++
		case strings.HasPrefix(l, `\ No newline`):
		case hunks == 0 && strings.TrimSpace(l) == "":
		case hunks == 0:
			return nil, false
		default:
			out = append(out, l)
		}
	}
	return out, hunks > 0
}

// diffPaths are the --- and +++ headers' paths, without any timestamp after a tab, and
// without git's a/ and b/ prefixes when both headers carry them (or /dev/null).
func diffPaths(fromHeader, toHeader string) (from, to string) {
	clean := func(s string) string {
		s, _, _ = strings.Cut(s, "\t")
		return strings.TrimSpace(s)
	}
	from, to = clean(fromHeader), clean(toHeader)
	prefixed := func(s, p string) bool { return s == "/dev/null" || strings.HasPrefix(s, p) && len(s) > len(p) }
	if prefixed(from, "a/") && prefixed(to, "b/") {
		from, to = strings.TrimPrefix(from, "a/"), strings.TrimPrefix(to, "b/")
	}
	return from, to
}
