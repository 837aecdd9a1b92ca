package actors

import (
	"fmt"

	"github.com/troupe-dev/troupe/messages"
)

// A session's setup (Delegation.NewChild, the supervisor's SessionFactory: prompt, skills,
// instruction files, memory, tools) reads the disk and may wait for an MCP server to list its
// tools, so it is built off the actor that asked for it (offActor) and comes back to that actor
// as a continuation (docs/ARCHITECTURE.md, "The transport rule"). Meanwhile the world moved on:
// what to do with the result is decided here, for a child (childBuilt) and, in the book, for a
// top-level session (sessionBook.built).

// setupTimeout bounds building a session's setup: it waits at most mcpListWait for MCP servers,
// so a setup that takes longer is stuck, and the start fails rather than hang.
const setupTimeout = mcpSetupTimeout

// builtSetup is a setup built off the actor, or why it could not be.
type builtSetup struct {
	deps SessionDeps
	err  error
}

// build runs the factory for start; it is the work handed to offActor.
func (f SessionFactory) build(start *messages.StartSession) builtSetup {
	deps, err := f(start)
	return builtSetup{deps: deps, err: err}
}

// setupAction is what an actor does with a setup that came back.
type setupAction int

const (
	setupSpawn setupAction = iota // spawn the session with it
	setupFail                     // it could not be built: the start fails, with why
	setupDrop                     // nobody wants it any more: spawn nothing, report nothing
)

func (a setupAction) String() string {
	return [...]string{"spawn", "fail", "drop"}[a]
}

// childBuilt decides on a child's setup that came back to its parent. parentFinished: the parent
// recorded its outcome meanwhile (its children stop with its actor; a resumed parent marks the
// record interrupted). childEnded: the child ended meanwhile (cancelled while its setup was
// built: its result is already written). err is the factory's error or offActor's timeout.
func childBuilt(parentFinished, childEnded bool, err error, timeout error) (setupAction, string) {
	switch {
	case parentFinished, childEnded:
		return setupDrop, ""
	case timeout != nil:
		return setupFail, fmt.Sprintf("the agent could not start: its setup took longer than %v", setupTimeout)
	case err != nil:
		return setupFail, "the agent could not start: " + err.Error()
	}
	return setupSpawn, ""
}
