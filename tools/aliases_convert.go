package tools

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// The argument translations of other harnesses' tools (see harnessTools). Each rewrites args
// in place and refuses, with a precise reason, what would change the call's meaning.

// flattenMultiEdit maps a MultiEdit of exactly one edit to edit_file.
func flattenMultiEdit(args map[string]any) (string, string) {
	edits, _ := listArg(args["edits"]) // a list, or the list as a JSON string
	if len(edits) != 1 {
		return "", fmt.Sprintf("it has %d edits; call edit_file once per edit, in order (each old_string must match the file as the previous edit left it)", len(edits))
	}
	edit, ok := edits[0].(map[string]any)
	if !ok {
		return "", "its edit is not an object; call edit_file with path, old_string and new_string"
	}
	delete(args, "edits")
	for k, v := range edit {
		args[k] = v
	}
	return "", ""
}

// millisecondsTimeout converts a timeout in milliseconds to our whole seconds (rounded up).
func millisecondsTimeout(key string) func(map[string]any) (string, string) {
	return func(args map[string]any) (string, string) {
		v, ok := args[key]
		if !ok {
			return "", ""
		}
		n, isNum := v.(json.Number)
		if text, isText := v.(string); isText { // digits as text, as XML-ish formats send them
			if secs, withUnit := durationSeconds(text); withUnit { // or a duration with its unit ("2m")
				delete(args, key)
				args["timeout_s"] = json.Number(fmt.Sprint(secs))
				return "", ""
			}
			n, isNum = json.Number(strings.TrimSpace(text)), true
		}
		ms, err := n.Float64()
		if !isNum || err != nil || ms <= 0 {
			return "", fmt.Sprintf("%s must be a positive number of milliseconds, got %v", key, v)
		}
		delete(args, key)
		args["timeout_s"] = json.Number(fmt.Sprint(int64((ms + 999) / 1000)))
		return "", ""
	}
}

// claudeGrep folds Claude Code's grep flags into our pattern, context and glob.
func claudeGrep(args map[string]any) (string, string) {
	if on, _ := boolOf(args["-i"]); on {
		if p, ok := args["pattern"].(string); ok {
			args["pattern"] = "(?i)" + p
		}
	}
	delete(args, "-i")
	width := args["-C"]
	for _, k := range []string{"-A", "-B"} {
		if n, ok := intOf(args[k]); ok {
			if w, ok := intOf(width); !ok || n > w {
				width = args[k]
			}
		}
		delete(args, k)
	}
	delete(args, "-C")
	if width != nil {
		args["context"] = width
	}
	if typ, ok := args["type"].(string); ok && args["glob"] == nil && fileType.MatchString(typ) {
		args["glob"] = "*." + typ // a glob without / matches file names at any depth (grep.go)
	}
	delete(args, "type")
	return "", ""
}

var fileType = lazyre.New(`^[A-Za-z0-9]{1,10}$`)

// codexShell maps Codex's shell, whose command is an argv array, to one bash command line.
func codexShell(args map[string]any) (string, string) {
	if text, ok := args["command"].(string); ok && strings.HasPrefix(strings.TrimSpace(text), "[") {
		var argv []any // the argv array sent as a JSON string (openai/codex#13927, #3913)
		if json.Unmarshal([]byte(text), &argv) == nil {
			args["command"] = argv
		}
	}
	if argv, ok := args["command"].([]any); ok {
		words := make([]string, len(argv))
		for i, w := range argv {
			s, ok := w.(string)
			if !ok {
				return "", fmt.Sprintf("command[%d] is not a string", i)
			}
			words[i] = s
		}
		args["command"] = commandLine(words)
		if len(words) == 2 && (words[0] == "apply_patch" || words[0] == "applypatch") {
			return shellPatch(args, words[1], "")
		}
	}
	if script, ok := args["command"].(string); ok {
		if text, dir, ok := patchScript(script); ok {
			return shellPatch(args, text, dir)
		}
	}
	if _, refusal := millisecondsTimeout("timeout_ms")(args); refusal != "" {
		return "", refusal
	}
	for _, k := range codexShellOnly {
		delete(args, k)
	}
	return inDirectory("workdir")(args)
}

// codexShellOnly are the arguments of Codex's shell tools with no effect here: sandbox
// escalation and its reason, the unified exec's session, output and shell controls (the
// command runs to completion in bash either way).
var codexShellOnly = []string{"with_escalated_permissions", "sandbox_permissions", "justification", "prefix_rule",
	"yield_time_ms", "max_output_tokens", "login", "shell", "tty"}

// codexExec maps Codex's unified exec_command (cmd, a command line) like its shell tool.
func codexExec(args map[string]any) (string, string) {
	if _, ok := args["command"]; !ok {
		if cmd, ok := args["cmd"]; ok {
			args["command"] = cmd
			delete(args, "cmd")
		}
	}
	return codexShell(args)
}

// commandLine joins argv for bash -c; a shell running one script is the script itself:
// ["bash","-lc",script], ["/bin/bash","-l","-c",script], ["sh","--login","-c",script].
func commandLine(argv []string) string {
	if script, ok := shellScript(argv); ok {
		return script
	}
	quoted := make([]string, len(argv))
	for i, w := range argv {
		quoted[i] = shellQuote(w)
	}
	return strings.Join(quoted, " ")
}

// shellScript reads argv as a shell (bash, sh, zsh, dash, by path or not) given login or
// startup flags, then -c, then exactly one script.
func shellScript(argv []string) (string, bool) {
	if len(argv) < 3 || len(argv) > 5 {
		return "", false
	}
	switch path.Base(argv[0]) {
	case "bash", "sh", "zsh", "dash":
	default:
		return "", false
	}
	last := len(argv) - 2
	for _, flag := range argv[1:last] {
		if !isStartupFlag(flag) {
			return "", false
		}
	}
	return argv[len(argv)-1], isCommandFlag(argv[last])
}

// isStartupFlag is a shell flag that changes nothing the script sees here: a login shell,
// no profile or rc file, exit on error.
func isStartupFlag(flag string) bool {
	switch flag {
	case "-l", "--login", "--noprofile", "--norc", "-e", "-i":
		return true
	}
	return false
}

// isCommandFlag reads bash's -c, with -l beside it or not, as models mangle it: "-lc", "lc",
// "c", "--lc", "—lc" (an em dash), "-l -c" (one word).
func isCommandFlag(flag string) bool {
	letters := strings.Map(func(r rune) rune {
		if r == '-' || r == '—' || r == '–' || r == ' ' {
			return -1
		}
		return r
	}, flag)
	return letters == "c" || letters == "lc" || letters == "cl"
}

// shellPatch maps a patch given to Codex's shell; its paths are relative to workdir, then to
// the cd of the script.
func shellPatch(args map[string]any, text, dir string) (string, string) {
	if workdir, _ := args["workdir"].(string); workdir != "" && !path.IsAbs(dir) {
		dir = path.Join(workdir, dir)
	}
	return patchCall(args, text, dir)
}

// geminiReplace maps Gemini CLI's replace; expected_replacements other than 1 has no
// equivalent (edit_file replaces one match, or all with replace_all).
func geminiReplace(args map[string]any) (string, string) {
	if v, ok := args["expected_replacements"]; ok {
		if n, ok := intOf(v); !ok || n != 1 {
			return "", fmt.Sprintf("expected_replacements=%v has no equivalent: edit_file replaces exactly one match, or every match with replace_all=true", v)
		}
		delete(args, "expected_replacements")
	}
	return "", ""
}

// strReplaceEditor routes OpenHands' str_replace_editor by its command.
// gooseTextEditor maps Goose's developer__text_editor, whose write is OpenHands' create.
func gooseTextEditor(args map[string]any) (string, string) {
	if args["command"] == "write" {
		args["command"] = "create"
	}
	return strReplaceEditor(args)
}

func strReplaceEditor(args map[string]any) (string, string) {
	cmd, _ := args["command"].(string)
	delete(args, "command")
	switch cmd {
	case "view":
		return viewPath(args)
	case "create":
		return "write_file", ""
	case "str_replace":
		return "edit_file", ""
	case "insert":
		return "", "insert is not supported; use edit_file with old_string = the line at insert_line and new_string = that line followed by your new text"
	case "undo_edit":
		return "", "undo_edit is not supported; restore the text with edit_file"
	}
	return "", fmt.Sprintf("unknown command %q; use read_file, list_dir, write_file or edit_file", cmd)
}

// viewPath reads a file, or lists a path written as a directory (trailing slash, or the root).
// Crush's view takes file_path (charmbracelet/crush#2073), so that counts as the path too.
// Augment's view says which with type (file or directory), and searches the file with
// search_query_regex.
func viewPath(args map[string]any) (string, string) {
	if fp, ok := args["file_path"].(string); ok && args["path"] == nil {
		args["path"] = fp
		delete(args, "file_path")
	}
	kind, _ := args["type"].(string)
	delete(args, "type")
	if re, ok := args["search_query_regex"].(string); ok && re != "" {
		return augmentSearch(args, re)
	}
	p, _ := args["path"].(string)
	if kind == "directory" || p == "" || p == "." || p == "/" || strings.HasSuffix(p, "/") {
		delete(args, "view_range")
		return "list_dir", ""
	}
	if span, ok := args["view_range"].([]any); ok && len(span) == 2 {
		from, ok1 := intOf(span[0])
		to, ok2 := intOf(span[1])
		if !ok1 || !ok2 || from < 1 {
			return "", "view_range must be two line numbers [first, last] (last -1 for the end)"
		}
		args["offset"] = json.Number(fmt.Sprint(from))
		if to >= from {
			args["limit"] = json.Number(fmt.Sprint(to - from + 1))
		}
	}
	delete(args, "view_range")
	return "read_file", ""
}

// refuseInput refuses OpenHands' execute_bash sending input to a running process.
func refuseInput(args map[string]any) (string, string) {
	if in, _ := args["is_input"].(bool); in {
		return "", "sending input to a running command is not supported; run the command with its input piped in"
	}
	if s, ok := args["is_input"].(string); ok && strings.EqualFold(s, "true") {
		return "", "sending input to a running command is not supported; run the command with its input piped in"
	}
	delete(args, "is_input")
	return "", ""
}

// findFile maps SWE-agent's find_file (a file name, optionally under dir) to glob.
func findFile(args map[string]any) (string, string) {
	name, _ := args["file_name"].(string)
	if name == "" {
		return "", "file_name is required"
	}
	delete(args, "file_name")
	args["pattern"] = "**/" + name
	return "", ""
}

// searchDir maps SWE-agent's search_dir and search_file (a literal term, in a directory or in
// one file) to grep with the term quoted.
func searchDir(args map[string]any) (string, string) {
	term, _ := args["search_term"].(string)
	if term == "" {
		return "", "search_term is required"
	}
	delete(args, "search_term")
	args["pattern"] = regexp.QuoteMeta(term)
	return "", ""
}

// directoryTree maps the MCP filesystem server's directory_tree, a whole recursive tree, to
// list_dir at its deepest.
func directoryTree(args map[string]any) (string, string) {
	delete(args, "excludePatterns")
	if args["depth"] == nil {
		args["depth"] = json.Number(fmt.Sprint(listMaxDepth))
	}
	return "", ""
}

// searchFiles maps search_files, which two harnesses spell alike: the MCP filesystem server's
// finds files by name (path, pattern, excludePatterns); Hermes Agent's searches contents
// (pattern, path, file_glob, target "content" by default, or "files" for names,
// hermes-studio#942). Hermes's own arguments decide; otherwise a pattern with a glob
// wildcard, or one that is a file name (isFileName), names files.
func searchFiles(args map[string]any) (string, string) {
	target, _ := args["target"].(string)
	delete(args, "target")
	for _, k := range []string{"limit", "offset", "output_mode"} {
		delete(args, k)
	}
	if g, ok := args["file_glob"]; ok {
		delete(args, "file_glob")
		if target != "files" {
			args["glob"] = g
			return "grep", ""
		}
	}
	_, mcp := args["excludePatterns"]
	delete(args, "excludePatterns")
	p, _ := args["pattern"].(string)
	switch {
	case target == "content":
		return "grep", ""
	case target == "files" && p != "" && !strings.Contains(p, "/"):
		// Hermes finds files by name at any depth (find -name); our glob is relative to path
		args["pattern"] = "**/" + p
		return "glob", ""
	case target == "files" || mcp || strings.ContainsAny(p, "*?") || isFileName(p):
		return "glob", ""
	}
	return "grep", ""
}

// fileExtensions are the extensions a search pattern that names a file ends with: a pattern
// like quarterly_report.pdf or .py is a file's name, as the MCP filesystem server's
// search_files reads every pattern, not text to find inside files.
var fileExtensions = []string{"py", "go", "rs", "js", "jsx", "ts", "tsx", "java", "kt", "c", "h", "cc", "cpp", "hpp", "cs",
	"rb", "php", "swift", "sh", "md", "txt", "json", "yaml", "yml", "toml", "ini", "cfg", "xml", "html", "css", "scss",
	"csv", "pdf", "doc", "docx", "xls", "xlsx", "png", "jpg", "jpeg", "svg", "log", "lock", "mod", "sum", "sql", "zip"}

// isFileName says whether p is one file name (or a bare extension): no blanks, no regular
// expression syntax, and a dot before a known extension at its end.
func isFileName(p string) bool {
	if p == "" || strings.ContainsAny(p, " \t\\^$|()[]{}+") {
		return false
	}
	i := strings.LastIndexByte(p, '.')
	return i >= 0 && slices.Contains(fileExtensions, p[i+1:])
}
