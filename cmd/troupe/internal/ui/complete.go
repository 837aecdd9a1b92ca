package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Command is one slash command as Tab completes it: its name and the words its argument
// takes (nil: a free argument).
type Command struct {
	Name string
	Args []string
}

// Completer knows what Tab completes in a chat's input: slash commands and their arguments
// ("/model <Tab>" lists the models), and file paths after "@". It is a plain value; Complete
// reads one directory for an @path and nothing else.
type Completer struct {
	Commands []Command
	// Root is the folder @paths are relative to (the session's workspace).
	Root string
}

// maxCompletions bounds the candidates one Tab gathers (a folder of thousands of files
// shows the first ones and says how many more).
const maxCompletions = 200

// Completion is what one Tab found for the word at the end of the input: the word starts at
// From, and each candidate replaces it whole.
type Completion struct {
	From       int
	Candidates []string
	More       int // candidates left out past maxCompletions
}

// Complete completes the last word of line. A line "/wor" completes the command; "/mode a"
// its argument; a word starting with @ a path under Root (folders end in /; hidden entries
// only when the word's last part starts with a dot).
func (c Completer) Complete(line string) Completion {
	if strings.HasPrefix(line, "/") && !strings.ContainsAny(line, " \n") {
		names := make([]string, len(c.Commands))
		for i, cmd := range c.Commands {
			names[i] = "/" + cmd.Name
		}
		return Completion{From: 0, Candidates: withPrefix(names, line)}
	}
	from := strings.LastIndexAny(line, " \t\n") + 1
	word := line[from:]
	if strings.HasPrefix(word, "@") {
		return c.paths(from, word)
	}
	if name, rest, ok := strings.Cut(line, " "); ok && strings.HasPrefix(name, "/") && !strings.ContainsAny(rest, " \n") {
		i := slices.IndexFunc(c.Commands, func(cmd Command) bool { return "/"+cmd.Name == strings.ToLower(name) })
		if i >= 0 {
			return Completion{From: from, Candidates: withPrefix(c.Commands[i].Args, word)}
		}
	}
	return Completion{From: from}
}

// paths lists what "@dir/pre" may continue as.
func (c Completer) paths(from int, word string) Completion {
	typed := strings.TrimPrefix(word, "@")
	dir, pre := filepath.Split(typed)
	f, err := os.Open(filepath.Join(c.Root, filepath.FromSlash(dir)))
	if err != nil {
		return Completion{From: from}
	}
	defer f.Close()
	entries, _ := f.ReadDir(-1)
	var out []string
	more := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, pre) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(pre, ".")) {
			continue
		}
		if len(out) == maxCompletions {
			more++
			continue
		}
		if e.IsDir() {
			name += "/"
		}
		out = append(out, "@"+dir+name)
	}
	slices.Sort(out)
	return Completion{From: from, Candidates: out, More: more}
}

// withPrefix keeps the words that start with pre, sorted.
func withPrefix(words []string, pre string) []string {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, pre) {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}

// Apply is line with the completion applied: the one candidate (a space after it unless it
// is a folder), or the candidates' longest common prefix. changed is false when Tab has
// nothing to add, and the candidates are the thing to show.
func (c Completion) Apply(line string) (next string, changed bool) {
	if len(c.Candidates) == 0 {
		return line, false
	}
	if len(c.Candidates) == 1 && c.More == 0 {
		word := c.Candidates[0]
		if !strings.HasSuffix(word, "/") {
			word += " "
		}
		return line[:c.From] + word, true
	}
	common := c.Candidates[0]
	for _, w := range c.Candidates[1:] {
		for !strings.HasPrefix(w, common) {
			common = common[:len(common)-1]
		}
	}
	next = line[:c.From] + common
	return next, next != line
}
