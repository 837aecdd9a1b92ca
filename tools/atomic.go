package tools

import (
	"io/fs"

	"github.com/troupe-dev/troupe/internal/safefs"
)

// newFileMode is the mode of files the tools create.
const newFileMode fs.FileMode = 0o644

// writeFileAtomic replaces rel (workspace-relative, policy-checked) with data beneath the
// workspace handle: see safefs.Root.WriteFileAtomic.
func writeFileAtomic(ws *safefs.Root, rel string, data []byte) (created bool, err error) {
	return ws.WriteFileAtomic(rel, data, newFileMode)
}

// countLines counts lines the way an editor shows them: a final line without a newline counts.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			n++
		}
	}
	if s[len(s)-1] != '\n' {
		n++
	}
	return n
}
