package main

import "testing"

// The rules added from the released development set (issue 20), each in several spellings of
// its own documentation, none the corpus quote: doubled braces (Python's str.format and Jinja
// escape a literal brace as {{), the OpenHands agent SDK's action summary, the line ranges of
// file readers (GitHub Copilot's read_file, VS Code's ranges, Cursor's read_file), Claude
// Code's Grep flags sent to any grep, Copilot's required isBackground, blanks around a
// command, a streamed object restarted mid-call, and names made only of the shell's words.
func TestVariantsDevelopmentRules(t *testing.T) {
	m := "some-local-model"
	read := func(path string, kv ...any) Expected { return call("read_file", append([]any{"path", path}, kv...)...) }
	runVariants(t, []variant{
		// doubled and tripled braces
		{"doubled braces", m, "", q("read_file", `{{"path": "a.go"}}`), calls(readA)},
		{"tripled braces", m, "", q("bash", `{{{"command": "ls -la"}}}`), calls(lsla)},
		{"doubled braces nested object", m, "", q("str_replace_editor", `{{"command": "view", "path": "a.go", "view_range": [1, 5]}}`), calls(read("a.go", "offset", 1.0, "limit", 5.0))},
		{"doubled braces with blanks", m, "", q("Read", "{{\n  \"file_path\": \"a.go\"\n}}"), calls(readA)},
		// the OpenHands SDK's summary beside security_risk
		{"openhands summary", m, "", q("file_editor", `{"command": "view", "path": "a.go", "security_risk": "LOW", "summary": "Look at the main file"}`), calls(readA)},
		{"openhands terminal summary", m, "", q("terminal", `{"command": "ls -la", "summary": "List the files", "security_risk": "LOW"}`), calls(lsla)},
		// line ranges
		{"copilot base zero", m, "", q("read_file", `{"filePath": "a.go", "startLineNumberBaseZero": 9, "endLineNumberBaseZero": 19}`), calls(read("a.go", "offset", 10.0, "limit", 11.0))},
		{"copilot base zero to end", m, "", q("read_file", `{"filePath": "a.go", "startLineNumberBaseZero": 0, "endLineNumberBaseZero": -1}`), calls(readA)},
		{"copilot startLine endLine", m, "", q("read_file", `{"filePath": "a.go", "startLine": 5, "endLine": 8}`), calls(read("a.go", "offset", 5.0, "limit", 4.0))},
		{"vscode range", m, "", q("read_file", `{"path": "a.go", "startLineNumber": 1, "endLineNumber": 30}`), calls(read("a.go", "offset", 1.0, "limit", 30.0))}, // a range keeps the first line it names (repair_lines.go)
		{"cursor one indexed", m, "", q("read_file", `{"target_file": "a.go", "start_line_one_indexed": 3, "end_line_one_indexed_inclusive": 4, "should_read_entire_file": false}`), calls(read("a.go", "offset", 3.0, "limit", 2.0))},
		{"cursor whole file", m, "", q("read_file", `{"target_file": "a.go", "start_line_one_indexed": 1, "end_line_one_indexed_inclusive": 200, "should_read_entire_file": true}`), calls(readA)},
		{"start_line end_line", m, "", q("read_file", `{"path": "a.go", "start_line": 20, "end_line": 20}`), calls(read("a.go", "offset", 20.0, "limit", 1.0))},
		{"start_line end_line as xml text", m, "<read_file>\n<path>a.go</path>\n<start_line>2</start_line>\n<end_line>3</end_line>\n</read_file>", nil, calls(read("a.go", "offset", 2.0, "limit", 2.0))},
		{"view_range on read_file", m, "", q("read_file", `{"path": "a.go", "view_range": [10, 19]}`), calls(read("a.go", "offset", 10.0, "limit", 10.0))},
		{"view_range to the end", m, "", q("read_file", `{"path": "a.go", "view_range": [5, -1]}`), calls(read("a.go", "offset", 5.0))},
		// Claude Code's Grep flags to a grep without them
		{"grep -C", m, "", q("grep", `{"pattern": "func main", "-C": 3}`), calls(call("grep", "pattern", "func main", "context", 3.0))},
		{"grep -A -B output_mode", m, "", q("grep", `{"pattern": "TODO", "-A": 2, "-B": 4, "output_mode": "content", "-n": true}`), calls(call("grep", "pattern", "TODO", "context", 4.0))},
		{"grep -i files_with_matches", m, "", q("grep", `{"pattern": "todo", "-i": true, "output_mode": "files_with_matches"}`), calls(call("grep", "pattern", "(?i)todo"))},
		{"grep flags as xml text", "qwen3-coder-30b-a3b", "<tool_call>\n<function=grep>\n<parameter=pattern>\nTODO\n</parameter>\n<parameter=-B>\n2\n</parameter>\n</function>\n</tool_call>", nil, calls(call("grep", "pattern", "TODO", "context", 2.0))},
		// Copilot's run_in_terminal: isBackground is required there, so false says nothing
		{"run_in_terminal foreground", m, "", q("run_in_terminal", `{"command": "ls -la", "explanation": "List", "isBackground": false}`), calls(lsla)},
		{"run_in_terminal background", m, "", q("run_in_terminal", `{"command": "npm start", "explanation": "Serve", "isBackground": true}`), calls(call("bash", "command", "npm start", "background", true))},
		// blanks around a command
		{"padded command spaces", m, "", q("bash", `{"command": "  ls -la  "}`), calls(lsla)},
		{"padded command lines", "qwen3-coder-30b-a3b", "<tool_call>\n<function=bash>\n<parameter=command>\n\n ls -la\n\n</parameter>\n</function>\n</tool_call>", nil, calls(lsla)},
		{"escaped trailing space kept", m, "", q("bash", `{"command": " echo a\\ "}`), calls(call("bash", "command", `echo a\ `))},
		// a streamed object restarted mid-call
		{"cut copy then whole", m, "", q("bash", `{"command": "ls -la"{"command": "ls -la"}`), calls(lsla)},
		{"cut copy in a string", m, "", q("read_file", `{"path": "a.g{"path": "a.go"}`), calls(readA)},
		{"cut copy other blanks", m, "", q("bash", "{\"command\":\"make\",\"timeout\": 300{\"command\": \"make\", \"timeout\": 300}"), calls(call("bash", "command", "make", "timeout_s", 300.0))},
		// GLM's argument pairs after a JSON value left open
		{"glm pairs in json", m, "", q("bash", `{"command": "ls -la</arg_value>\n<arg_key>description</arg_key>\n<arg_value>List files</arg_value>\n`), calls(lsla)},
		{"glm pairs in json colon", m, "", q("read_file", `{"path": "a.go</arg_value><arg_key>limit</arg_key>:<arg_value>5</arg_value>`), calls(call("read_file", "path", "a.go", "limit", 5.0))},
		// IDE agents' published tool definitions (Windsurf, Cursor, Augment, Zed)
		{"windsurf run_command", m, "", q("run_command", `{"CommandLine": "ls -la", "Cwd": "src", "Blocking": true, "SafeToAutoRun": true}`), calls(call("bash", "command", "cd src && ls -la"))},
		{"windsurf run_command async", m, "", q("run_command", `{"CommandLine": "npm start", "Blocking": false, "WaitMsBeforeAsync": 500}`), calls(call("bash", "command", "npm start", "background", true))},
		{"windsurf write_to_file", m, "", q("write_to_file", `{"TargetFile": "a.txt", "CodeContent": "hi", "EmptyFile": false}`), calls(call("write_file", "path", "a.txt", "content", "hi"))},
		{"windsurf find_by_name", m, "", q("find_by_name", `{"SearchDirectory": "src", "Pattern": "*_test.go", "Type": "file"}`), calls(call("glob", "path", "src", "pattern", "**/*_test.go"))},
		{"windsurf grep_search", m, "", q("grep_search", `{"SearchPath": "src", "Query": "TODO", "Includes": ["*.go"], "CaseInsensitive": true, "MatchPerLine": true}`), calls(call("grep", "path", "src", "pattern", "(?i)TODO", "glob", "*.go"))},
		{"cursor grep_search", m, "", q("grep_search", `{"query": "TODO", "include_pattern": "*.go", "case_sensitive": false, "explanation": "find todos"}`), calls(call("grep", "pattern", "(?i)TODO", "glob", "*.go"))},
		{"cursor list_dir", m, "", q("list_dir", `{"relative_workspace_path": "src", "explanation": "look"}`), calls(call("list_dir", "path", "src"))},
		{"augment launch-process", m, "", q("launch-process", `{"command": "ls -la", "wait": true, "max_wait_seconds": 30, "cwd": "src"}`), calls(call("bash", "command", "cd src && ls -la", "timeout_s", 30.0))},
		{"zed find_path", m, "", q("find_path", `{"glob": "**/*.go"}`), calls(call("glob", "pattern", "**/*.go"))},
		{"zed terminal cd", m, "", q("terminal", `{"command": "ls -la", "cd": "src"}`), calls(call("bash", "command", "cd src && ls -la"))},
		{"zed grep", m, "", q("grep", `{"regex": "TODO", "include_pattern": "*.go", "case_sensitive": true}`), calls(call("grep", "pattern", "TODO", "glob", "*.go"))},
		// call-format closing tags left at the end of a one-line value
		{"value arg_value closer", m, "", q("bash", `{"command": "ls -la</arg_value>"}`), calls(lsla)},
		{"value parameter closer", m, "", q("read_file", `{"path": "a.go\n</parameter>\n</function>"}`), calls(readA)},
		{"value closer in content kept", m, "", q("write_file", `{"path": "a.xml", "content": "<a></parameter>"}`), calls(call("write_file", "path", "a.xml", "content", "<a></parameter>"))},
		// names made only of the shell's words
		{"terminal_command", m, "", q("terminal_command", `{"command": "ls -la"}`), calls(lsla)},
		{"shellCommands argv", m, "", q("shellCommands", `{"command": ["bash", "-lc", "ls -la"]}`), calls(lsla)},
		{"send_to_terminal", m, "", q("send_to_terminal", `{"command": "ls -la"}`), calls(lsla)},
		{"run_commands list", m, "", q("run_commands", `{"commands": ["ls -la", "pwd"]}`), calls(lsla, call("bash", "command", "pwd"))},
		{"execute_commands one", m, "", q("execute_commands", `{"commands": [{"command": "ls -la"}]}`), calls(lsla)},
	})
}

// Text shapes from the development set, each in its documented spelling and variations:
// Gemma 4's call body (its chat template: <|tool_call>call:NAME{k:<|"|>v<|"|>}<tool_call|>)
// with "call" lost, with round brackets, with a plain quote for one end of <|"|>; Hermes
// Agent's search_files for file names; a name and key="value" pairs on a line of their own.
func TestVariantsDevelopmentText(t *testing.T) {
	g := "gemma-4-26b"
	q := `<|"|>`
	runVariants(t, []variant{
		{"gemma4 call lost", g, "<|tool_call>:read_file{path:" + q + "a.go" + q + "}<tool_call|>", nil, calls(readA)},
		{"gemma4 round brackets", g, "<|tool_call>call:bash(command:" + q + "ls -la" + q + ")<tool_call|>", nil, calls(lsla)},
		{"gemma4 round brackets two args", g, "<|tool_call>call:read_file(path:" + q + "a.go" + q + ",limit:3)<tool_call|>", nil, calls(call("read_file", "path", "a.go", "limit", 3.0))},
		{"gemma4 opened with '", g, "<|tool_call>call:grep{pattern:'func main" + q + "}<tool_call|>", nil, calls(call("grep", "pattern", "func main"))},
		{"gemma4 opened with \"", g, "<|tool_call>call:bash{command:\"ls -la" + q + "}<tool_call|>", nil, calls(lsla)},
		{"gemma4 both quotes", g, "<|tool_call>call:read_file{path:'a.go'" + q + "}<tool_call|>", nil, calls(readA)},
		{"gemma4 single quoted", g, "<|tool_call>call:read_file{path:'a.go'}<tool_call|>", nil, calls(readA)},
		{"gemma4 mixed quote value with colon", g, "<|tool_call>call:grep{pattern:'^\\s*key: \\w+" + q + ",path:" + q + "src" + q + "}<tool_call|>", nil, calls(call("grep", "pattern", `^\s*key: \w+`, "path", "src"))},
		{"hermes search_files by name", g, "<|tool_call>call:search_files{pattern:" + q + "go.mod" + q + ",target:" + q + "files" + q + "}<tool_call|>", nil, calls(call("glob", "pattern", "**/go.mod"))},
		// name and key="value" pairs on their own line
		{"attr line", "qwen3.5-9b", `read_file path="a.go"`, nil, calls(readA)},
		{"attr line alias key", "qwen3.5-9b", "Reading it now.\nread_file file=\"a.go\"", nil, calls(readA)},
		{"attr line with", m0, `Read with file_path="a.go"`, nil, calls(readA)},
		{"attr line single quotes and end token", m0, "bash command='ls -la'<|im_end|>", nil, calls(lsla)},
		{"attr line windows path", m0, `read_file path="C:\src\a.go"`, nil, calls(call("read_file", "path", `C:\src\a.go`))},
		{"attr line two pairs", m0, `grep pattern="TODO" path="src"`, nil, calls(call("grep", "pattern", "TODO", "path", "src"))},
		// MiniMax-M3's argument tags with an opener lost (its boundary token between them)
		{"minimax lost opener", "minimax-m3", "<minimax:tool_call>\n<invoke name=\"write_file\">a.txt</path><content>hi</content></invoke>\n</minimax:tool_call>", nil, calls(call("write_file", "path", "a.txt", "content", "hi"))},
		{"minimax lost opener boundary", "minimax-m3", "<minimax:tool_call>]<]minimax[>[<invoke name=\"read_file\">]<]minimax[>[a.go]<]minimax[>[</path>]<]minimax[>[<limit>5</limit></invoke></minimax:tool_call>", nil, calls(call("read_file", "path", "a.go", "limit", 5.0))},
		{"save_file lost opener", "minimax-m3", "<minimax:tool_call><invoke name=\"save_file\">notes.md</filename><content>x</content></invoke></minimax:tool_call>", nil, calls(call("write_file", "path", "notes.md", "content", "x"))},
		// a shell code fence with its backticks dropped, the whole reply
		{"fence dropped bash", "qwen3.6-35b-a3b", "bash\nls -la", nil, calls(lsla)},
		{"fence dropped end token", "qwen3.6-35b-a3b", "bash\nls -la<|im_end|>", nil, calls(lsla)},
		{"fence dropped shell", m0, "shell\nls -la\n", nil, calls(lsla)},
		// async tool_code: print(await …) and await … on its own line
		{"print await default_api", "gemini-2.5-pro", "print(await default_api.read_file(path=\"a.go\"))", nil, calls(readA)},
		{"await line", m0, "await bash(command=\"ls -la\")", nil, calls(lsla)},
		{"print await positional", "gemini-2.5-pro", "```tool_code\nprint(await default_api.read_file(\"a.go\"))\n```", nil, calls(readA)},
		// Cline's and Roo's XML tool use with brackets lost
		{"roo mangled read", "qwen3-coder-480b", "read_file>\nargs>\n<file>\n<path>a.gopath>\n</file>\nargs>\nread_file>", nil, calls(readA)},
		{"cline mangled command", m0, "execute_command>\n<command>ls -la</command>\n<requires_approval>false/requires_approval>\nexecute_command>", nil, calls(lsla)},
		{"cline mangled closer kept", m0, "read_file>\n<path>a.go</path>\n/read_file>", nil, calls(readA)},
		// a rendered call record: a name, a label and the argument object
		{"label Args", m0, `: Read Args :{"file_path": "a.go"}`, nil, calls(readA)},
		{"label Arguments own line", m0, "Listing first.\nbash Arguments: {\"command\": \"ls -la\"}", nil, calls(lsla)},
		{"label input lower", m0, `read_file input: {"path": "a.go"}`, nil, calls(readA)},
		{"two records one line", m0, `: Read Args :{"file_path": "a.go"} and : Bash Args :{"command": "ls -la"}`, nil, calls(readA, lsla)},
		// the text editor's required arguments as bare lines in a tag of its name
		{"editor bare lines", m0, "<str_replace_editor>\nview\na.go\n</str_replace_editor>", nil, calls(readA)},
		{"based editor bare lines", m0, "<str_replace_based_edit_tool>\n  view\n  a.go\n</str_replace_based_edit_tool>", nil, calls(readA)},
		{"file_editor bare lines dir", m0, "<file_editor>\nview\nsrc/\n</file_editor>", nil, calls(call("list_dir", "path", "src/"))},
	})
}

const m0 = "some-local-model"
