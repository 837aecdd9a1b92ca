package tools

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Tool names by meaning: the last tier of tool-name repair, for names a model makes up from
// the words of the task (opilot#149: qwen2.5-coder calls fetch_file_content for "what is inside
// AGENTS.md"). Each word of the name is read as one meaning (fetch, get, view, cat → read;
// content, contents → file); a name whose meanings are exactly those of one of our tools, and
// whose arguments that tool takes (every required one present, under its name or an alias),
// is that tool. A name with any word the table does not know is not guessed at.

// wordMeanings maps the words of invented tool names to the meanings of our tools' names.
// Words that carry nothing ("to", "the", "tool") mean "".
var wordMeanings = map[string]string{
	"read": "read", "get": "read", "fetch": "read", "view": "read", "show": "read", "cat": "read",
	"open": "read", "load": "read", "retrieve": "read", "display": "read",
	"file": "file", "content": "file", "contents": "file", "text": "file", "document": "file",
	"write": "write", "create": "write", "save": "write", "put": "write", "new": "write", "overwrite": "write",
	"edit": "edit", "modify": "edit", "update": "edit", "change": "edit", "replace": "edit", "patch": "edit",
	"list": "list", "ls": "list", "dir": "dir", "directory": "dir", "folder": "dir", "files": "dir",
	"run": "run", "execute": "run", "exec": "run", "send": "run", "command": "shell", "commands": "shell",
	"shell": "shell", "bash": "shell", "terminal": "shell", "cmd": "shell",
	"search": "search", "grep": "search", "code": "code", "tree": "dir", "find": "find", "locate": "find",
	"to": "", "the": "", "a": "", "tool": "", "in": "", "of": "", "from": "",
}

// meaningTools are our tools by the sorted meanings of a name that means them.
var meaningTools = map[string]string{
	"file read":   "read_file",
	"file write":  "write_file",
	"edit file":   "edit_file",
	"dir list":    "list_dir",
	"dir read":    "list_dir", // read_dir, read_directory, get_folder: a directory is read by listing it
	"run shell":   "bash",
	"code search": "grep", // search_code, grep_code
	"dir search":  "grep", // search_directory, search_dir: SWE-agent's searches contents
	"dir find":    "glob", // find_files, locate_files
	"file find":   "glob", // find_file, locate_file
	"shell":       "bash", // terminal_command, bash_commands: every word names the shell
}

// byMeaning maps an invented name to the tool it means, when its arguments fit that tool. With
// no arguments (Knows asks about a bare name) a meaning is enough to call the name a tool call;
// the call itself is then judged with its arguments.
func (r *Registry) byMeaning(name, args string) (resolution, bool) {
	tool := r.meaningOf(name)
	if tool == "" {
		return resolution{}, false
	}
	if strings.TrimSpace(args) == "" {
		return resolution{refusal: fmt.Sprintf("%s is not a tool here; %s is the tool for that", name, tool)}, false
	}
	if !r.takesArgs(tool, args) {
		return resolution{refusal: fmt.Sprintf("%s is not a tool here, and its arguments do not fit %s; call %s with its own arguments", name, tool, tool)}, false
	}
	return r.renamed(name, tool, args), true
}

// meaningOf is the registered tool the words of name mean, or "".
func (r *Registry) meaningOf(name string) string {
	words := nameWords(name)
	if len(words) < 2 {
		return "" // one word is a typo's business (nearest), or a harness's
	}
	var meanings []string
	for _, w := range words {
		m, ok := wordMeanings[w]
		if !ok {
			return ""
		}
		if m != "" && !slices.Contains(meanings, m) {
			meanings = append(meanings, m)
		}
	}
	slices.Sort(meanings)
	tool, ok := meaningTools[strings.Join(meanings, " ")]
	if _, have := r.byName[tool]; !ok || !have {
		return ""
	}
	return tool
}

// takesArgs says whether tool takes args as an object: every required argument present, under
// its own name or an alias; or as the bare value of its one required string argument (git
// status as the arguments of run_terminal_cmd).
func (r *Registry) takesArgs(tool, args string) bool {
	e := r.byName[tool]
	parsed, _, err := parseArgs(args)
	var decoded map[string]any
	if err != nil || decodeNumbers(string(parsed), &decoded) != nil {
		_, _, ok := e.schema.wrapScalar(args)
		return ok
	}
	if inner, _, ok := e.schema.unwrap(decoded); ok {
		decoded = inner
	}
	e.schema.renameAliases(decoded)
	_, ok := e.schema.takes(decoded)
	return ok
}

// nameWords splits a tool name into lower-case words at separators and camelCase humps:
// fetchFileContent, fetch_file_content and Fetch-File-Content all give fetch, file, content.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	runes := []rune(name)
	for i, c := range runes {
		switch {
		case c == '_' || c == '-' || c == '.' || c == ' ':
			flush()
		case unicode.IsUpper(c) && i > 0 && (unicode.IsLower(runes[i-1]) || i+1 < len(runes) && unicode.IsLower(runes[i+1])):
			flush()
			cur = append(cur, c)
		default:
			cur = append(cur, c)
		}
	}
	flush()
	return words
}
