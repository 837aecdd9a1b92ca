// Package memory is troupe's cross-session memory (docs/ARCHITECTURE.md, "Memory"): a user
// profile and project facts, each a short list of entries under a hard cap in characters. The
// memory tool and `troupe memory` change it through a Keeper; every session freezes it into its
// stable prefix when it starts. Everything written is scanned first (internal/injectscan): the
// text enters later sessions' system prompts verbatim.
package memory

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/troupe-dev/troupe/internal/injectscan"
)

// Target is which memory an operation is on.
type Target string

// The two memories.
const (
	User    Target = "user"    // the person: role, preferences, communication style, corrections
	Project Target = "project" // this project: decisions, conventions, commands, pitfalls
)

// The caps, in characters (runes). A few thousand characters each, like Orkas's: small enough
// that a 32k-window model pays little for them on every call, large enough for a few dozen
// one-line facts. An entry is one fact: a sentence or two.
const (
	UserCap    = 1500
	ProjectCap = 2500
	EntryCap   = 500
)

// Cap is the target's hard cap in characters.
func (t Target) Cap() int {
	if t == User {
		return UserCap
	}
	return ProjectCap
}

// Title is how people and the model read the target's name.
func (t Target) Title() string {
	if t == User {
		return "user profile"
	}
	return "project facts"
}

// ParseTarget reads a target's name.
func ParseTarget(s string) (Target, error) {
	switch Target(strings.ToLower(strings.TrimSpace(s))) {
	case User:
		return User, nil
	case Project:
		return Project, nil
	}
	return "", fmt.Errorf("memory target %q: want user or project", s)
}

// Action is what an operation does.
type Action string

// The actions.
const (
	Add     Action = "add"
	Replace Action = "replace"
	Remove  Action = "remove"
)

// Op is one change: add content; replace the entry holding OldText with Content; remove the
// entry holding OldText.
type Op struct {
	Action           Action
	Target           Target
	Content, OldText string
}

// Backend keeps one target's entries. Update runs fn under the backend's lock on what is
// stored and stores what fn returns, unless fn fails; recovered names where a damaged copy was
// set aside before the write ("" when there was none).
type Backend interface {
	Load() ([]string, error)
	Update(fn func([]string) ([]string, error)) (recovered string, err error)
	Where() string
}

// Keeper changes and reads both memories. It holds no state of its own (the backends keep
// theirs on disk, behind their locks), so one Keeper serves every session of a Node.
type Keeper struct {
	user, project Backend
}

// NewKeeper makes a Keeper; a nil backend turns its target off.
func NewKeeper(user, project Backend) *Keeper { return &Keeper{user: user, project: project} }

func (k *Keeper) backend(t Target) (Backend, error) {
	var b Backend
	switch t {
	case User:
		b = k.user
		if b == nil {
			return nil, errors.New("the user profile is off: troupe found no user config directory (set HOME or XDG_CONFIG_HOME)")
		}
	case Project:
		b = k.project
		if b == nil {
			return nil, errors.New("project facts are off: this session has no project store")
		}
	default:
		return nil, fmt.Errorf("memory target %q: want user or project", t)
	}
	return b, nil
}

// Outcome is what an operation did, said for the model or the person who asked.
type Outcome struct {
	Text    string
	Refused bool // nothing was stored, and Text says why
}

// unchanged ends an Update without a write: the memory already says it.
type unchanged struct{ msg string }

func (u unchanged) Error() string { return u.msg }

// Apply checks op, scans what it would write, and applies it under the target's lock.
func (k *Keeper) Apply(op Op) Outcome {
	b, err := k.backend(op.Target)
	if err != nil {
		return refused(err.Error())
	}
	op.Content, op.OldText = Clean(op.Content), strings.TrimSpace(op.OldText)
	if why := op.check(); why != "" {
		return refused(why)
	}
	var msg string
	recovered, err := b.Update(func(entries []string) ([]string, error) {
		next, m, err := edit(entries, op)
		msg = m
		return next, err
	})
	var same unchanged
	switch {
	case errors.As(err, &same):
		return Outcome{Text: same.msg}
	case err != nil:
		return refused(err.Error())
	}
	if recovered != "" {
		msg += fmt.Sprintf(" (the stored %s was damaged: it was set aside as %s and a new one started)", op.Target.Title(), recovered)
	}
	return Outcome{Text: msg}
}

func refused(why string) Outcome { return Outcome{Text: why, Refused: true} }

// check refuses an operation before any lock is taken: missing arguments, an entry over its
// own cap, and text the scanner refuses.
func (op Op) check() string {
	needContent := op.Action == Add || op.Action == Replace
	switch {
	case op.Action != Add && op.Action != Replace && op.Action != Remove:
		return fmt.Sprintf("memory action %q: want add, replace or remove", op.Action)
	case needContent && op.Content == "":
		return fmt.Sprintf("memory %s needs content: the fact to remember, in a sentence or two", op.Action)
	case op.Action != Add && op.OldText == "":
		return fmt.Sprintf("memory %s needs old_text: a part of the entry to %s that no other entry has", op.Action, op.Action)
	}
	if !needContent {
		return ""
	}
	if n := utf8.RuneCountInString(op.Content); n > EntryCap {
		return fmt.Sprintf("refused: an entry is at most %d characters and this one has %d; nothing was saved. Keep one durable fact per entry, in a sentence or two", EntryCap, n)
	}
	if f, bad := injectscan.Scan(op.Content); bad {
		return fmt.Sprintf("refused: %s; nothing was saved. Memory enters every later session's system prompt, so it holds plain facts: no instructions aimed at the agent, hidden characters, or commands that send data out or run fetched code", f)
	}
	return ""
}

// Clean is how an entry is stored: its whitespace, line breaks included, collapsed to single
// spaces, so an entry is one line of the prefix and cannot forge a heading of its own.
func Clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// Used is how many characters entries take against their cap.
func Used(entries []string) int {
	n := 0
	for _, e := range entries {
		n += utf8.RuneCountInString(e)
	}
	return n
}
