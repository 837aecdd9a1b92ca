package actors

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// The chat's own tool calls (docs/ARCHITECTURE.md, "The chat's shell and mentions"): a line
// "!command" runs bash, and each "@path" in a line for the model is read with read_file, both
// through the session's executor — the same permission gate, sandbox, size bounds, hidden
// paths and redaction as the model's calls. What they return reaches the model as notes: the
// shell's output as the user's note, each file after the line that mentioned it. userCalls is
// the plain half: which calls a line makes and what the model is told of their results.

// userCallPrefix starts the id of a call the user made (messages.UserCallPrefix for clients).
const userCallPrefix = messages.UserCallPrefix

// maxMentions bounds the files one line attaches.
const maxMentions = 8

// userCalls is one line's calls in flight: the shell command, or the mentions of a line
// that goes to the model once they are read.
type userCalls struct {
	shell     string         // the command of a !line; "" for mentions
	text      string         // the line for the model (mentions)
	calls     []llm.ToolCall // in order
	pending   []string       // the notes of the results in so far, in call order
	cancelled string         // the reason, once the user cancelled
	refused   bool           // the shell command was denied or rejected: it never ran
}

// shellCalls is the one bash call of "!command".
func shellCalls(n int, command string) *userCalls {
	args, _ := json.Marshal(map[string]string{"command": command})
	return &userCalls{shell: command, calls: []llm.ToolCall{{ID: fmt.Sprintf("%s%d-1", userCallPrefix, n), Name: "bash", Args: string(args)}}}
}

// mentionCalls reads each @path of text with read_file; nil when text mentions none.
func mentionCalls(n int, text string) *userCalls {
	paths := mentions(text)
	if len(paths) == 0 {
		return nil
	}
	u := &userCalls{text: text}
	for i, p := range paths {
		args, _ := json.Marshal(map[string]string{"path": p})
		u.calls = append(u.calls, llm.ToolCall{ID: fmt.Sprintf("%s%d-%d", userCallPrefix, n, i+1), Name: "read_file", Args: string(args)})
	}
	return u
}

// mentions are the @paths of text, in order, each once: a word that starts with @ (an e-mail
// address does not), without the punctuation a sentence puts after it.
func mentions(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.Fields(text) {
		p, ok := strings.CutPrefix(w, "@")
		p = strings.TrimRight(p, ",;:!?)\"'`")
		p = strings.TrimSuffix(p, ".")
		if !ok || p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if out = append(out, p); len(out) == maxMentions {
			break
		}
	}
	return out
}

// shellNote is what the model is told of the user's !command.
func (u *userCalls) shellNote(res *messages.ToolResult) string {
	how := "The user ran a shell command from the chat"
	if u.cancelled != "" {
		how += " and cancelled it"
	}
	out := strings.TrimRight(res.Output, "\n")
	if out == "" {
		out = "(no output)"
	}
	return fmt.Sprintf("%s; its output is for your information (do not run it again unless asked):\n$ %s\n%s", how, u.shell, out)
}

// mentionNote is what the model is told of one @path: the file's content as read_file gave
// it, or why it could not be attached.
func mentionNote(call llm.ToolCall, res *messages.ToolResult) string {
	var a struct{ Path string }
	_ = json.Unmarshal([]byte(call.Args), &a)
	if res.IsError {
		return fmt.Sprintf("The user mentioned @%s, which could not be attached: %s", a.Path, firstLine(res.Output))
	}
	return fmt.Sprintf("The user attached @%s (as read_file gives it):\n%s", a.Path, res.Output)
}
