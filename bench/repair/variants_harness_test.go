package main

import "testing"

func q(name, args string) []QuotedCall { return []QuotedCall{{Name: name, Args: args}} }

// Other harnesses' tools, called with the arguments their own tool definitions declare, map to
// ours: Claude Code (its tool reference), Anthropic's text-editor and bash tools (Anthropic's
// tool-use docs), Cline / Roo Code / Kilo (their system prompts and native tool schemas),
// OpenHands (its CodeActAgent tools and the agent SDK's terminal / file_editor), Codex
// (codex-rs tool specs), Goose (developer extension), opencode (its tool docs), Continue
// (core/tools/builtIn.ts), Gemini CLI and Qwen Code (their tool docs), Crush, Kimi CLI and
// Mistral Vibe (their tool definitions). Aider has no tool calls: its edit format is text.
func TestVariantsHarnessNames(t *testing.T) {
	m := "claude-sonnet-4"
	edit := call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2")
	write := call("write_file", "path", "a.txt", "content", "hi")
	grepFoo := call("grep", "pattern", "foo", "path", "src")
	runVariants(t, []variant{
		// Claude Code
		{"claude Read", m, "", q("Read", `{"file_path": "a.go", "offset": 10, "limit": 20}`), calls(call("read_file", "path", "a.go", "offset", 10.0, "limit", 20.0))},
		{"claude Edit", m, "", q("Edit", `{"file_path": "a.go", "old_string": "x := 1", "new_string": "x := 2"}`), calls(edit)},
		{"claude Edit replace_all", m, "", q("Edit", `{"file_path": "a.go", "old_string": "x := 1", "new_string": "x := 2", "replace_all": false}`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2", "replace_all", false))},
		{"claude Write", m, "", q("Write", `{"file_path": "a.txt", "content": "hi"}`), calls(write)},
		{"claude Bash timeout ms", m, "", q("Bash", `{"command": "ls -la", "timeout": 120000, "description": "List files"}`), calls(call("bash", "command", "ls -la", "timeout_s", 120.0))},
		{"claude Grep", m, "", q("Grep", `{"pattern": "foo", "path": "src", "output_mode": "content", "-n": true}`), calls(grepFoo)},
		{"claude Glob", m, "", q("Glob", `{"pattern": "**/*.go", "path": "src"}`), calls(call("glob", "pattern", "**/*.go", "path", "src"))},
		{"claude LS", m, "", q("LS", `{"path": "/src"}`), calls(call("list_dir", "path", "/src"))},
		{"claude MultiEdit one", m, "", q("MultiEdit", `{"file_path": "a.go", "edits": [{"old_string": "x := 1", "new_string": "x := 2"}]}`), calls(edit)},
		{"claude MultiEdit two", m, "", q("MultiEdit", `{"file_path": "a.go", "edits": [{"old_string": "x := 1", "new_string": "x := 2"}, {"old_string": "y", "new_string": "z"}]}`), calls(edit, call("edit_file", "path", "a.go", "old_string", "y", "new_string", "z"))},
		// Anthropic's text editor tool (str_replace_based_edit_tool; str_replace_editor before it)
		{"anthropic view", m, "", q("str_replace_based_edit_tool", `{"command": "view", "path": "a.go"}`), calls(readA)},
		{"anthropic view range", m, "", q("str_replace_based_edit_tool", `{"command": "view", "path": "a.go", "view_range": [10, 29]}`), calls(call("read_file", "path", "a.go", "offset", 10.0, "limit", 20.0))},
		{"anthropic create", m, "", q("str_replace_based_edit_tool", `{"command": "create", "path": "a.txt", "file_text": "hi"}`), calls(write)},
		{"anthropic str_replace", m, "", q("str_replace_based_edit_tool", `{"command": "str_replace", "path": "a.go", "old_str": "x := 1", "new_str": "x := 2"}`), calls(edit)},
		{"anthropic str_replace_editor", m, "", q("str_replace_editor", `{"command": "str_replace", "path": "a.go", "old_str": "x := 1", "new_str": "x := 2"}`), calls(edit)},
		{"anthropic text_editor view", m, "", q("text_editor", `{"command": "view", "path": "a.go"}`), calls(readA)},
		// OpenHands (CodeActAgent; the agent SDK's terminal and file_editor; security_risk)
		{"openhands execute_bash", m, "", q("execute_bash", `{"command": "ls -la", "security_risk": "LOW"}`), calls(lsla)},
		{"openhands editor risk", m, "", q("str_replace_editor", `{"command": "view", "path": "a.go", "security_risk": "LOW"}`), calls(readA)},
		{"openhands file_editor", m, "", q("file_editor", `{"command": "create", "path": "a.txt", "file_text": "hi"}`), calls(write)},
		{"openhands terminal", m, "", q("terminal", `{"command": "ls -la", "is_input": false}`), calls(lsla)},
		// Cline / Roo / Kilo native tools
		{"cline execute_command", m, "", q("execute_command", `{"command": "ls -la", "requires_approval": false}`), calls(lsla)},
		{"cline write_to_file", m, "", q("write_to_file", `{"path": "a.txt", "content": "hi", "line_count": 1}`), calls(write)},
		{"cline search_files", m, "", q("search_files", `{"path": "src", "regex": "foo"}`), calls(grepFoo)},
		{"cline search_files pattern", m, "", q("search_files", `{"path": "src", "regex": "foo", "file_pattern": "*.go"}`), calls(call("grep", "pattern", "foo", "path", "src", "glob", "*.go"))},
		{"cline list_files", m, "", q("list_files", `{"path": "src", "recursive": false}`), calls(call("list_dir", "path", "src", "depth", 1.0))}, // top level only (Cline's prompt)
		{"cline replace_in_file", m, "", q("replace_in_file", `{"path": "a.go", "diff": "------- SEARCH\nx := 1\n=======\nx := 2\n+++++++ REPLACE"}`), calls(edit)},
		{"roo apply_diff", m, "", q("apply_diff", `{"path": "a.go", "diff": "<<<<<<< SEARCH\n:start_line:1\n-------\nx := 1\n=======\nx := 2\n>>>>>>> REPLACE"}`), calls(edit)},
		{"roo read_file files", m, "", q("read_file", `{"files": [{"path": "a.go"}]}`), calls(readA)},
		{"roo read_file args file", m, "", q("read_file", `{"args": {"file": [{"path": "a.go"}]}}`), calls(readA)},
		// Codex
		{"codex shell argv", "gpt-5-codex", "", q("shell", `{"command": ["bash", "-lc", "ls -la"], "workdir": "/w", "timeout_ms": 10000}`), calls(call("bash", "command", "cd /w && ls -la", "timeout_s", 10.0))},
		{"codex read_file", "gpt-5-codex", "", q("read_file", `{"file_path": "a.go", "offset": 1, "limit": 20}`), calls(call("read_file", "path", "a.go", "offset", 1.0, "limit", 20.0))},
		{"codex list_dir", "gpt-5-codex", "", q("list_dir", `{"dir_path": "src", "depth": 2}`), calls(call("list_dir", "path", "src", "depth", 2.0))},
		{"codex grep_files", "gpt-5-codex", "", q("grep_files", `{"pattern": "foo", "path": "src"}`), calls(grepFoo)},
		// Goose
		{"goose shell", m, "", q("developer__shell", `{"command": "ls -la"}`), calls(lsla)},
		{"goose view", m, "", q("developer__text_editor", `{"command": "view", "path": "a.go"}`), calls(readA)},
		{"goose write", m, "", q("developer__text_editor", `{"command": "write", "path": "a.txt", "file_text": "hi"}`), calls(write)},
		{"goose str_replace", m, "", q("developer__text_editor", `{"command": "str_replace", "path": "a.go", "old_str": "x := 1", "new_str": "x := 2"}`), calls(edit)},
		// opencode
		{"opencode read", m, "", q("read", `{"filePath": "a.go"}`), calls(readA)},
		{"opencode write", m, "", q("write", `{"filePath": "a.txt", "content": "hi"}`), calls(write)},
		{"opencode edit", m, "", q("edit", `{"filePath": "a.go", "oldString": "x := 1", "newString": "x := 2"}`), calls(edit)},
		{"opencode list", m, "", q("list", `{"path": "src"}`), calls(call("list_dir", "path", "src"))},
		{"opencode grep include", m, "", q("grep", `{"pattern": "foo", "path": "src", "include": "*.go"}`), calls(call("grep", "pattern", "foo", "path", "src", "glob", "*.go"))},
		{"opencode multiedit", m, "", q("multiedit", `{"filePath": "a.go", "edits": [{"oldString": "x := 1", "newString": "x := 2"}]}`), calls(edit)},
		// Continue
		{"continue read_file", m, "", q("read_file", `{"filepath": "a.go"}`), calls(readA)},
		{"continue create_new_file", m, "", q("create_new_file", `{"filepath": "a.txt", "contents": "hi"}`), calls(write)},
		{"continue run_terminal_command", m, "", q("run_terminal_command", `{"command": "ls -la", "waitForCompletion": true}`), calls(lsla)},
		{"continue ls", m, "", q("ls", `{"dirPath": "src", "recursive": false}`), calls(call("list_dir", "path", "src", "depth", 1.0))}, // top level only
		{"continue builtin_read_file", "qwen2.5-coder:7b", "", q("builtin_read_file", `{"filepath": "a.go"}`), calls(readA)},
		{"continue builtin_run_terminal_command", "qwen2.5-coder:7b", "", q("builtin_run_terminal_command", `{"command": "ls -la", "waitForCompletion": true}`), calls(lsla)},
		{"continue builtin_create_new_file", "qwen2.5-coder:7b", "", q("builtin_create_new_file", `{"filepath": "a.txt", "contents": "hi"}`), calls(call("write_file", "path", "a.txt", "content", "hi"))},
		{"continue builtin_ls", "qwen2.5-coder:7b", "", q("builtin_ls", `{"dirPath": "src"}`), calls(call("list_dir", "path", "src"))},
		{"continue builtin_grep_search", "qwen2.5-coder:7b", "", q("builtin_grep_search", `{"query": "foo"}`), calls(call("grep", "pattern", "foo"))},
		{"continue multi_edit", "qwen2.5-coder:7b", "", q("multi_edit", `{"filepath": "a.go", "edits": [{"old_string": "x := 1", "new_string": "x := 2"}]}`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		{"continue single_find_and_replace", "qwen2.5-coder:7b", "", q("builtin_single_find_and_replace", `{"filepath": "a.go", "old_string": "x := 1", "new_string": "x := 2"}`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		{"continue text builtin", "qwen2.5-coder:7b", "```tool\nTOOL_NAME: builtin_read_file\nBEGIN_ARG: filepath\na.go\nEND_ARG\n```", nil, calls(readA)},
		{"continue view_subdirectory", m, "", q("view_subdirectory", `{"directory_path": "src"}`), calls(call("list_dir", "path", "src"))},
		// Gemini CLI and Qwen Code
		{"gemini read_file", "gemini-2.5-pro", "", q("read_file", `{"absolute_path": "/w/a.go"}`), calls(call("read_file", "path", "/w/a.go"))},
		{"gemini replace", "gemini-2.5-pro", "", q("replace", `{"file_path": "a.go", "old_string": "x := 1", "new_string": "x := 2"}`), calls(edit)},
		{"gemini run_shell_command", "gemini-2.5-pro", "", q("run_shell_command", `{"command": "ls -la", "description": "list"}`), calls(lsla)},
		{"gemini search_file_content", "gemini-2.5-pro", "", q("search_file_content", `{"pattern": "foo", "path": "src"}`), calls(grepFoo)},
		{"gemini list_directory", "gemini-2.5-pro", "", q("list_directory", `{"path": "src"}`), calls(call("list_dir", "path", "src"))},
		{"qwen code edit", "qwen3-coder-plus", "", q("edit", `{"file_path": "a.go", "old_string": "x := 1", "new_string": "x := 2"}`), calls(edit)},
		{"qwen code grep_search", "qwen3-coder-plus", "", q("grep_search", `{"pattern": "foo", "path": "src"}`), calls(grepFoo)},
		// Crush
		{"crush view", m, "", q("view", `{"file_path": "a.go", "offset": 10, "limit": 20}`), calls(call("read_file", "path", "a.go", "offset", 10.0, "limit", 20.0))},
		{"crush ls", m, "", q("ls", `{"path": "src", "ignore": ["*.log"]}`), calls(call("list_dir", "path", "src"))},
		// Kimi CLI
		{"kimi Shell", "kimi-k2", "", q("Shell", `{"command": "ls -la"}`), calls(lsla)},
		{"kimi ReadFile", "kimi-k2", "", q("ReadFile", `{"path": "a.go"}`), calls(readA)},
		{"kimi WriteFile", "kimi-k2", "", q("WriteFile", `{"path": "a.txt", "content": "hi"}`), calls(write)},
		{"kimi StrReplaceFile", "kimi-k2", "", q("StrReplaceFile", `{"path": "a.go", "edit": {"old": "x := 1", "new": "x := 2"}}`), calls(edit)},
		{"kimi StrReplaceFile list", "kimi-k2", "", q("StrReplaceFile", `{"path": "a.go", "edit": [{"old": "x := 1", "new": "x := 2"}, {"old": "y", "new": "z", "replace_all": true}]}`), calls(edit, call("edit_file", "path", "a.go", "old_string", "y", "new_string", "z", "replace_all", true))},
		// Mistral Vibe
		{"vibe search_replace", "devstral-2", "", q("search_replace", `{"file_path": "a.go", "content": "<<<<<<< SEARCH\nx := 1\n=======\nx := 2\n>>>>>>> REPLACE"}`), calls(edit)},
		{"vibe search_replace two blocks", "devstral-2", "", q("search_replace", `{"file_path": "a.go", "content": "<<<<<<< SEARCH\nx := 1\n=======\nx := 2\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\ny\n=======\nz\n>>>>>>> REPLACE"}`), calls(edit, call("edit_file", "path", "a.go", "old_string", "y", "new_string", "z"))},
		{"roo read_file line range", m, "", q("read_file", `{"files": [{"path": "a.go", "line_ranges": ["10-29"]}]}`), calls(call("read_file", "path", "a.go", "offset", 10.0, "limit", 20.0))},
		{"roo read_file files two", m, "", q("read_file", `{"files": [{"path": "a.go"}, {"path": "b.go"}]}`), calls(readA, call("read_file", "path", "b.go"))},
	})
}

// Arguments in the shapes models send to our own tools and Claude Code's, where the schema
// leaves one reading: nulls for optional arguments, numbers and booleans as text, an argv
// for a command line, the object double-encoded or in Python's quotes, offset 0 (the start in
// every convention), a number or a one-item list for text, one value under two names.
func TestVariantsArgumentShapes(t *testing.T) {
	m := "claude-sonnet-4"
	runVariants(t, []variant{
		{"null optional", m, "", q("read_file", `{"path": "a.go", "offset": null, "limit": null}`), calls(readA)},
		{"number as string", m, "", q("read_file", `{"path": "a.go", "offset": "10"}`), calls(call("read_file", "path", "a.go", "offset", 10.0))},
		{"bool as string", m, "", q("edit_file", `{"path": "a.go", "old_string": "x := 1", "new_string": "x := 2", "replace_all": "true"}`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2", "replace_all", true))},
		{"argv for a string", m, "", q("bash", `{"command": ["ls", "-la"]}`), calls(lsla)},
		{"double encoded", m, "", q("read_file", `"{\"path\": \"a.go\"}"`), calls(readA)},
		{"python dict", m, "", q("read_file", `{'path': 'a.go'}`), calls(readA)},
		{"offset 0", m, "", q("Read", `{"file_path": "a.go", "limit": 2000, "offset": 0}`), calls(call("read_file", "path", "a.go", "limit", 2000.0))},
		{"grep extras", m, "", q("Grep", `{"pattern": "foo", "output_mode": "files_with_matches", "-i": true, "type": "go", "head_limit": 20}`), calls(call("grep", "pattern", "(?i)foo", "glob", "*.go"))},
		{"glob null path", m, "", q("Glob", `{"pattern": "*.go", "path": null}`), calls(call("glob", "pattern", "*.go"))},
		{"bash timeout string", m, "", q("Bash", `{"command": "ls -la", "timeout": "60000"}`), calls(call("bash", "command", "ls -la", "timeout_s", 60.0))},
		{"write content number", m, "", q("write_file", `{"path": "a.txt", "content": 42}`), calls(call("write_file", "path", "a.txt", "content", "42"))},
		{"path list one", m, "", q("read_file", `{"path": ["a.go"]}`), calls(readA)},
		{"path list two", m, "", q("read_file", `{"path": ["a.go", "b.go"]}`), calls(readA, call("read_file", "path", "b.go"))},
		{"file_path and path both", m, "", q("read_file", `{"file_path": "a.go", "path": "a.go"}`), calls(readA)},
	})
}
