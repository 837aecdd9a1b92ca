package actors

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/troupe-dev/troupe/internal/textfmt"

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
// file and one store key). What is left out, and why, goes to the session's user as notices
// (a subagent's parent has said it already).
func (n *Node) frozenMemory(start *messages.StartSession) (text string, notices []string) {
	text, warnings := n.memoryKeeper().Prefix()
	if start.Parent == "" {
		for _, w := range warnings {
			notices = append(notices, "memory: "+w)
		}
	}
	return text, notices
}

// memoryAnswer does what a MemoryRequest asks (troupe memory, /memory) and shows the memory
// after it. It reads and writes a file and the store: callers run it off any actor.
func memoryAnswer(k *memory.Keeper, req *messages.MemoryRequest) *messages.MemoryReply {
	out := &messages.MemoryReply{}
	targets := []memory.Target{memory.User, memory.Project}
	if req.Target != "" || req.Action != "list" {
		t, err := memory.ParseTarget(req.Target)
		if err != nil {
			out.Result, out.Refused = err.Error(), true
			return out
		}
		targets = []memory.Target{t}
	}
	switch req.Action {
	case "list":
	case "add", "replace", "remove":
		o := k.Apply(memory.Op{Action: memory.Action(req.Action), Target: targets[0], Content: req.Content, OldText: req.OldText})
		out.Result, out.Refused = o.Text, o.Refused
	case "clear":
		n, recovered, err := k.Clear(targets[0])
		switch {
		case err != nil:
			out.Result, out.Refused = err.Error(), true
		default:
			out.Result = fmt.Sprintf("cleared the %s (%s removed)", targets[0].Title(), textfmt.Count(n, "entry", "entries"))
			if recovered != "" {
				out.Result += "; the damaged copy is kept as " + recovered
			}
		}
	default:
		out.Result, out.Refused = fmt.Sprintf("memory action %q: want list, add, replace, remove or clear", req.Action), true
	}
	for _, t := range targets {
		out.Books = append(out.Books, memoryBook(k, t))
	}
	return out
}

func memoryBook(k *memory.Keeper, t memory.Target) messages.MemoryBook {
	book, err := k.Read(t)
	mb := messages.MemoryBook{Target: string(t), Where: book.Where, Cap: t.Cap(), Used: book.Used(), Entries: []messages.MemoryEntry{}}
	if err != nil {
		mb.Error = err.Error()
	}
	for i, e := range book.Entries {
		mb.Entries = append(mb.Entries, messages.MemoryEntry{Text: e, Chars: utf8.RuneCountInString(e), Withheld: book.Withheld[i]})
	}
	return mb
}

// formatMemory is /memory's answer.
func formatMemory(r *messages.MemoryReply) string {
	var b strings.Builder
	if r.Result != "" {
		b.WriteString(r.Result + "\n")
	}
	for _, book := range r.Books {
		title := memory.Target(book.Target).Title()
		fmt.Fprintf(&b, "%s: %d/%d characters", title, book.Used, book.Cap)
		if book.Where != "" {
			fmt.Fprintf(&b, " (%s)", book.Where)
		}
		b.WriteString("\n")
		if book.Error != "" {
			b.WriteString("  " + book.Error + "\n")
		} else if len(book.Entries) == 0 {
			b.WriteString("  (empty)\n")
		}
		for i, e := range book.Entries {
			fmt.Fprintf(&b, "  %d. [%d] %s\n", i+1, e.Chars, e.Text)
			if e.Withheld != "" {
				fmt.Fprintf(&b, "     left out of the prompt: %s\n", e.Withheld)
			}
		}
	}
	b.WriteString("(this session's prompt holds the memory as it was at its start; changes show from the next session)")
	return b.String()
}

// sessionMemory is what a session may change of the memory: a top-level session all of it, a
// subagent nothing (it reads the memory in its prefix; the user talks to the session above it).
func (n *Node) sessionMemory(start *messages.StartSession) *memory.Keeper {
	if start.Parent != "" {
		return nil
	}
	return n.memoryKeeper()
}

// Memory asks the Node to show or change the cross-session memory (troupe memory).
func (c *Client) Memory(req *messages.MemoryRequest) (*messages.MemoryReply, error) {
	reply, err := c.request(messages.NodeSubject(c.NS, c.Node), req)
	if err != nil {
		return nil, err
	}
	return reply.(*messages.MemoryReply), nil
}
