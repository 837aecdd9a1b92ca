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
		{"vscode range", m, "", q("read_file", `{"path": "a.go", "startLineNumber": 1, "endLineNumber": 30}`), calls(read("a.go", "limit", 30.0))},
		{"cursor one indexed", m, "", q("read_file", `{"target_file": "a.go", "start_line_one_indexed": 3, "end_line_one_indexed_inclusive": 4, "should_read_entire_file": false}`), calls(read("a.go", "offset", 3.0, "limit", 2.0))},
		{"cursor whole file", m, "", q("read_file", `{"target_file": "a.go", "start_line_one_indexed": 1, "end_line_one_indexed_inclusive": 200, "should_read_entire_file": true}`), calls(readA)},
		{"start_line end_line", m, "", q("read_file", `{"path": "a.go", "start_line": 20, "end_line": 20}`), calls(read("a.go", "offset", 20.0, "limit", 1.0))},
		{"start_line end_line as xml text", m, "<read_file>\n<path>a.go</path>\n<start_line>2</start_line>\n<end_line>3</end_line>\n</read_file>", nil, calls(read("a.go", "offset", 2.0, "limit", 2.0))},
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
		// names made only of the shell's words
		{"terminal_command", m, "", q("terminal_command", `{"command": "ls -la"}`), calls(lsla)},
		{"shellCommands argv", m, "", q("shellCommands", `{"command": ["bash", "-lc", "ls -la"]}`), calls(lsla)},
		{"send_to_terminal", m, "", q("send_to_terminal", `{"command": "ls -la"}`), calls(lsla)},
		{"run_commands list", m, "", q("run_commands", `{"commands": ["ls -la", "pwd"]}`), calls(lsla, call("bash", "command", "pwd"))},
		{"execute_commands one", m, "", q("execute_commands", `{"commands": [{"command": "ls -la"}]}`), calls(lsla)},
	})
}
