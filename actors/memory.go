package actors

import (
	"path/filepath"

	"github.com/troupe-dev/troupe/internal/memory"
	"github.com/troupe-dev/troupe/messages"
)

// memoryKeeper is the Node's cross-session memory: the user profile in the user's config
// directory, the project facts in the Node's store. A Keeper holds no state of its own (its
// backends lock what they change), so every caller may make one.
func (n *Node) memoryKeeper() *memory.Keeper {
	var user memory.Backend
	if n.opts.UserConfigDir != "" {
		user = memory.UserFile{Path: filepath.Join(n.opts.UserConfigDir, memory.UserFileName)}
	}
	return memory.NewKeeper(user, memory.ProjectBackend(n.store))
}

// frozenMemory is the memory block of a session's stable prefix, read once as the session is
// built (the supervisor's or the parent's actor reads it with the session's other setup: a small
// file and one store key). What is left out, and why, goes to the Node's log.
func (n *Node) frozenMemory(start *messages.StartSession) string {
	text, warnings := n.memoryKeeper().Prefix()
	for _, w := range warnings {
		n.opts.Log.Warn("memory: "+w, "session", start.ID)
	}
	return text
}
