package actors

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/troupe-dev/troupe/messages"
)

// What a session's stable prefix is built from must not change across a resume: the directory
// it was started from (its instruction files) and its prompt mode are kept in its meta, and a
// resume that does not name them gets the stored ones, whichever directory it was run in.

// sessionPrefixOf returns the working directory (relative to the workspace) and the prompt mode
// a session's stable prefix is built for.
func (n *Node) sessionPrefixOf(start *messages.StartSession) (cwd, promptMode string) {
	cwd, promptMode = start.Cwd, start.PromptMode
	if start.Resume {
		if meta, err := n.store.Meta(start.ID); err == nil {
			cwd = meta.Cwd
			if promptMode == "" {
				promptMode = meta.PromptMode
			}
		}
	}
	cwd = path.Clean(filepath.ToSlash(cwd))
	if cwd == "." || cwd == ".." || strings.HasPrefix(cwd, "../") || path.IsAbs(cwd) {
		cwd = ""
	}
	return cwd, promptMode
}
