package main

import (
	"testing"

	"github.com/troupe-dev/troupe/tools"
)

// Names and arguments of other harnesses' tools (the alias engineer's rows, issue 20): each
// rule in several spellings, from the tool definitions the harnesses publish and the names
// harnesses serving a model map, never from one report.
func TestVariantsNames(t *testing.T) {
	m := "gpt-oss-20b"
	h := func(to, args string) string { // a Harmony commentary call to a recipient
		return "<|channel|>commentary to=" + to + " <|constrain|>json<|message|>" + args + "<|call|>"
	}
	grepFoo := call("grep", "pattern", "foo")
	listSrc := call("list_dir", "path", "src")
	runVariants(t, []variant{
		// gpt-oss's repo_browser tools (the names harnesses serving gpt-oss map), path "" = root
		{"repo_browser.open_file range", m, h("repo_browser.open_file", `{"path": "a.go", "line_start": 1, "line_end": 200}`), nil, calls(call("read_file", "path", "a.go", "offset", 1.0, "limit", 200.0))},
		{"repo_browser.open_file from 40", m, h("repo_browser.open_file", `{"path": "a.go", "line_start": 40, "line_end": 59}`), nil, calls(call("read_file", "path", "a.go", "offset", 40.0, "limit", 20.0))},
		{"repo_browser.read_file_lines", m, h("repo_browser.read_file_lines", `{"path": "a.go", "start": 3, "end": 4}`), nil, calls(call("read_file", "path", "a.go", "offset", 3.0, "limit", 2.0))},
		{"repo_browser.cat", m, h("repo_browser.cat", `{"path": "a.go"}`), nil, calls(readA)},
		{"repo_browser.print_tree", m, h("repo_browser.print_tree", `{"path": "src", "depth": 2}`), nil, calls(call("list_dir", "path", "src", "depth", 2.0))},
		{"repo_browser.print_tree root", m, h("repo_browser.print_tree", `{"path": "", "depth": 3}`), nil, calls(call("list_dir", "depth", 3.0))},
		{"repo_browser.ls_path", m, h("repo_browser.ls_path", `{"path": "src"}`), nil, calls(listSrc)},
		{"repo_browser.list_files", m, h("repo_browser.list_files", `{"path": "src"}`), nil, calls(listSrc)},
		{"repo_browser.list_directory", m, h("repo_browser.list_directory", `{"path": "src"}`), nil, calls(listSrc)},
		{"repo_browser.search", m, h("repo_browser.search", `{"query": "foo", "path": "", "max_results": 20}`), nil, calls(grepFoo)},
		{"repo_browser.search in dir", m, h("repo_browser.search", `{"query": "foo", "path": "src"}`), nil, calls(call("grep", "pattern", "foo", "path", "src"))},
		{"repo_browser.grep root", m, h("repo_browser.grep", `{"pattern": "foo", "path": ""}`), nil, calls(grepFoo)},
		{"repo_browser.exec", m, h("repo_browser.exec", `{"cmd": ["bash", "-lc", "ls -la"]}`), nil, calls(lsla)},
		{"repo_browser.run_command_output", m, h("repo_browser.run_command_output", `{"command": "ls -la"}`), nil, calls(lsla)},
		{"functions.print_tree", m, h("functions.print_tree", `{"path": "src"}`), nil, calls(listSrc)},
		// blanks around a path value, an empty optional path
		{"padded path json", "qwen3-coder", "", q("read_file", `{"path": " a.go "}`), calls(readA)},
		{"padded path xml", "qwen3-coder", "<tool_call>\n<function=read_file>\n<parameter=path> a.go </parameter>\n</function>\n</tool_call>", nil, calls(readA)},
		{"padded path tab", "qwen3-coder", "", q("list_dir", `{"path": "\tsrc "}`), calls(listSrc)},
		{"empty glob path", "qwen3-coder", "", q("glob", `{"pattern": "*.go", "path": ""}`), calls(call("glob", "pattern", "*.go"))},
		{"blank grep path", "qwen3-coder", "", q("grep", `{"pattern": "foo", "path": "  "}`), calls(grepFoo)},
		// Open Interpreter's execute (language, code): its shell languages
		{"interpreter shell", "qwen2.5-coder:7b", `{"name": "execute", "arguments": {"language": "shell", "code": "ls -la"}}`, nil, calls(lsla)},
		{"interpreter bash structured", "qwen2.5-coder:7b", "", q("execute", `{"language": "bash", "code": "ls -la"}`), calls(lsla)},
		{"interpreter sh", "qwen2.5-coder:7b", "", q("execute", `{"language": "sh", "code": "ls -la"}`), calls(lsla)},
		{"execute command", "qwen2.5-coder:7b", "", q("execute", `{"command": "ls -la"}`), calls(lsla)},
		// llm-functions' fs_* tools (path, contents)
		{"fs_cat", "mistral-small", "", q("fs_cat", `{"path": "a.go"}`), calls(readA)},
		{"fs_ls", "mistral-small", "", q("fs_ls", `{"path": "src"}`), calls(listSrc)},
		{"fs_write", "mistral-small", "[TOOL_CALLS][{\"name\": \"fs_write\", \"arguments\": {\"path\": \"a.txt\", \"contents\": \"hi\"}}]", nil, calls(call("write_file", "path", "a.txt", "content", "hi"))},
		{"fs_patch", "mistral-small", "", q("fs_patch", `{"path": "a.go", "contents": "--- a/a.go\n+++ b/a.go\n@@ ... @@\n-x := 1\n+x := 2\n"}`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		{"fs_patch hunk only", "mistral-small", "", q("fs_patch", `{"path": "a.go", "contents": "@@ -1 +1 @@\n-x := 1\n+x := 2"}`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		// unified diffs where Codex's patch belongs
		{"apply_patch unified", "gpt-oss-120b", "", q("apply_patch", `{"input": "--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-x := 1\n+x := 2\n"}`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		{"apply_patch git diff two files", "gpt-oss-120b", "", q("apply_patch", `{"input": "diff --git a/a.go b/a.go\nindex 1..2 100644\n--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-x := 1\n+x := 2\ndiff --git a/b.txt b/b.txt\nnew file mode 100644\n--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+hi\n"}`),
			calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"), call("write_file", "path", "b.txt", "content", "hi\n"))},
	})
}

// Arguments sent as a call format's parameter markup instead of JSON (repair_markup.go).
func TestVariantsMarkupArguments(t *testing.T) {
	m := "qwen3-coder-30b"
	runVariants(t, []variant{
		{"qwen parameter", m, "", q("glob", `<parameter=pattern>**</parameter>`), calls(call("glob", "pattern", "**"))},
		{"qwen parameters lines", m, "", q("grep", "<parameter=pattern>\nfoo\n</parameter>\n<parameter=path>\nsrc\n</parameter>"), calls(call("grep", "pattern", "foo", "path", "src"))},
		{"qwen parameter int", m, "", q("read_file", "<parameter=path>a.go</parameter><parameter=offset>10</parameter>"), calls(call("read_file", "path", "a.go", "offset", 10.0))},
		{"glm pairs", "glm-4.6", "", q("read_file", "<arg_key>path</arg_key><arg_value>a.go</arg_value>"), calls(readA)},
		{"glm pairs alias", "glm-4.6", "", q("bash", "<arg_key>cmd</arg_key>\n<arg_value>ls -la</arg_value>"), calls(lsla)},
		{"invoke parameter", "minimax-m2", "", q("read_file", `<parameter name="path">a.go</parameter>`), calls(readA)},
	})
}

// Tool classes and methods, invented namespaces, arguments the command already names.
func TestVariantsClassesAndMethods(t *testing.T) {
	m := "glm-4.6"
	catA := call("bash", "command", "cat ./a.md")
	runVariants(t, []variant{
		// Gemini CLI's / Qwen Code's tool classes, with or without a method
		{"ShellTool.run", m, "", q("ShellTool.run", `{"command": "ls -la"}`), calls(lsla)},
		{"ShellTool", m, "", q("ShellTool", `{"command": "ls -la", "description": "list"}`), calls(lsla)},
		{"ShellTool.execute", m, "", q("ShellTool.execute", `{"command": "ls -la"}`), calls(lsla)},
		{"ReadFileTool.execute", m, "", q("ReadFileTool.execute", `{"absolute_path": "a.go"}`), calls(readA)},
		{"LSTool.run", m, "", q("LSTool.run", `{"path": "src"}`), calls(call("list_dir", "path", "src"))},
		{"EditTool", m, "", q("EditTool", `{"file_path": "a.go", "old_string": "x := 1", "new_string": "x := 2"}`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		{"read_file.invoke", m, "", q("read_file.invoke", `{"path": "a.go"}`), calls(readA)},
		{"bash._run", m, "", q("bash._run", `{"command": "ls -la"}`), calls(lsla)},
		// an argument the command already names is dropped (a closed schema would refuse it)
		{"echoed file_path", m, "", q("ShellTool.run", `{"command": "cat ./a.md", "file_path": "./a.md"}`), calls(catA)},
		{"echoed path", m, "", q("run_shell_command", `{"command": "cat ./a.md", "path": "a.md"}`), calls(catA)},
		{"echoed pattern", m, "", q("bash", `{"command": "grep -rn TODO src", "pattern": "TODO", "directory_path": "src"}`), calls(call("bash", "command", "grep -rn TODO src"))},
		// a directory is read by listing it; an invented namespace over an invented tool
		{"read_directory", m, "", q("read_directory", `{"path": "src"}`), calls(call("list_dir", "path", "src"))},
		{"read_dir", m, "", q("read_dir", `{"dir": "src"}`), calls(call("list_dir", "path", "src"))},
		{"getFolder", m, "", q("getFolder", `{"path": "src"}`), calls(call("list_dir", "path", "src"))},
		{"ns read_directory", m, "", q("ICodebase.read_directory", `{"path": "src"}`), calls(call("list_dir", "path", "src"))},
		{"ns fetch_file_content", m, "", q("workspace:fetch_file_content", `{"path": "a.go"}`), calls(readA)},
		{"ns python positional", "gemini-2.5-pro", "```tool_code\nprint(await Repo.read_directory(\"src\"))\n```", nil, calls(call("list_dir", "path", "src"))},
	})
}

// Pi's tools (its coding agent's read, bash, edit, write, grep, find, ls; the fff extension's
// ffgrep) and the search options ours lack: result caps and literal patterns.
func TestVariantsSearchOptions(t *testing.T) {
	m := "gpt-oss-20b"
	runVariants(t, []variant{
		{"pi find", m, "", q("find", `{"pattern": "*.go", "path": "src", "limit": 100}`), calls(call("glob", "pattern", "**/*.go", "path", "src"))},
		{"pi find nested", m, "", q("find", `{"pattern": "src/**/*.ts"}`), calls(call("glob", "pattern", "src/**/*.ts"))},
		{"pi find name", m, "", q("find", `{"pattern": "go.mod"}`), calls(call("glob", "pattern", "**/go.mod"))},
		{"pi ls limit", m, "", q("ls", `{"path": "src", "limit": 500}`), calls(call("list_dir", "path", "src"))},
		{"pi grep literal", m, "", q("grep", `{"pattern": "a.b(", "literal": true, "limit": 50}`), calls(call("grep", "pattern", `a\.b\(`))},
		{"pi grep ignoreCase", m, "", q("grep", `{"pattern": "foo", "ignoreCase": true, "path": "src"}`), calls(call("grep", "pattern", "(?i)foo", "path", "src"))},
		{"ffgrep", m, `<|channel|>commentary to=functions.ffgrep <|constrain|>json<|message|>{"pattern": "foo", "path": ""}<|call|>`, nil, calls(call("grep", "pattern", "foo"))},
		{"ffgrep query", m, "", q("ffgrep", `{"query": "foo", "path": "src", "limit": 20}`), calls(call("grep", "pattern", "foo", "path", "src"))},
		{"fixed_strings", m, "", q("grep", `{"pattern": "x[0]", "fixed_strings": true}`), calls(call("grep", "pattern", `x\[0\]`))},
		{"IsRegex false", m, "", q("grep_search", `{"Query": "x[0]", "SearchPath": "src", "IsRegex": false}`), calls(call("grep", "pattern", `x\[0\]`, "path", "src"))},
		{"IsRegex true", m, "", q("grep_search", `{"Query": "x+", "SearchPath": "src", "IsRegex": true}`), calls(call("grep", "pattern", "x+", "path", "src"))},
		{"max_results glob", m, "", q("glob", `{"pattern": "**/*.go", "max_results": 10}`), calls(call("glob", "pattern", "**/*.go"))},
		{"max_count grep", m, "", q("grep", `{"pattern": "foo", "max_count": 5}`), calls(call("grep", "pattern", "foo"))},
	})
}

// Void's tools (its prompts.ts), Hermes Agent's and opencode's patch, SWE-agent's open and
// search_file, Augment's view, Codex's list_dir paging and read modes, Amp's filePattern, and
// invented names read by their words.
func TestVariantsMoreHarnesses(t *testing.T) {
	m := "qwen3-coder-30b"
	edit := call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2")
	runVariants(t, []variant{
		{"void read_file", m, "", q("read_file", `{"uri": "a.go", "start_line": 10, "end_line": 19, "page_number": 1}`), calls(call("read_file", "path", "a.go", "offset", 10.0, "limit", 10.0))},
		{"void ls_dir", m, "", q("ls_dir", `{"uri": "src", "page_number": 1}`), calls(call("list_dir", "path", "src"))},
		{"void get_dir_tree", m, "", q("get_dir_tree", `{"uri": "src"}`), calls(call("list_dir", "path", "src", "depth", 5.0))},
		{"void rewrite_file", m, "", q("rewrite_file", `{"uri": "a.txt", "new_content": "hi"}`), calls(call("write_file", "path", "a.txt", "content", "hi"))},
		{"void search_for_files", m, "", q("search_for_files", `{"query": "a.b(", "search_in_folder": "src"}`), calls(call("grep", "pattern", `a\.b\(`, "path", "src"))},
		{"void search_for_files regex", m, "", q("search_for_files", `{"query": "fo+", "is_regex": true}`), calls(call("grep", "pattern", "fo+"))},
		{"void search_in_file", m, "", q("search_in_file", `{"uri": "a.go", "query": "x := 1"}`), calls(call("grep", "pattern", "x := 1", "path", "a.go"))},
		{"void search_pathnames_only", m, "", q("search_pathnames_only", `{"query": "config"}`), calls(call("glob", "pattern", "**/*config*"))},
		{"void edit_file blocks", m, "", q("edit_file", "{\"uri\": \"a.go\", \"search_replace_blocks\": \"```\\n<<<<<<< ORIGINAL\\nx := 1\\n=======\\nx := 2\\n>>>>>>> UPDATED\\n```\"}"), calls(edit)},
		{"void run_persistent_command", m, "", q("run_persistent_command", `{"command": "ls -la", "persistent_terminal_id": "1"}`), calls(lsla)},
		{"continue diffs", m, "", q("replace_in_file", `{"path": "a.go", "diffs": ["------- SEARCH\nx := 1\n=======\nx := 2\n+++++++ REPLACE"]}`), calls(edit)},
		{"hermes patch replace", m, "", q("patch", `{"mode": "replace", "path": "a.go", "old_string": "x := 1", "new_string": "x := 2"}`), calls(edit)},
		{"hermes patch unified", m, "", q("patch", `{"mode": "patch", "patch": "--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-x := 1\n+x := 2"}`), calls(edit)},
		{"opencode patchText", m, "", q("patch", `{"patchText": "*** Begin Patch\n*** Update File: a.go\n@@\n-x := 1\n+x := 2\n*** End Patch"}`), calls(edit)},
		{"swe open", m, "", q("open", `{"path": "a.go"}`), calls(readA)},
		{"swe open line", m, "", q("open", `{"path": "a.go", "line_number": 120}`), calls(call("read_file", "path", "a.go", "offset", 70.0, "limit", 100.0))},
		{"swe search_file", m, "", q("search_file", `{"search_term": "x := 1", "file": "a.go"}`), calls(call("grep", "pattern", "x := 1", "path", "a.go"))},
		{"augment view dir", m, "", q("view", `{"path": "src", "type": "directory"}`), calls(call("list_dir", "path", "src"))},
		{"augment view file", m, "", q("view", `{"path": "a.go", "type": "file"}`), calls(readA)},
		{"augment view regex", m, "", q("view", `{"path": "a.go", "type": "file", "search_query_regex": "func \\w+", "context_lines_after": 3}`), calls(call("grep", "pattern", `func \w+`, "path", "a.go", "context", 3.0))},
		{"codex list_dir", "gpt-5-codex", "", q("list_dir", `{"dir_path": "src", "offset": 1, "limit": 25, "depth": 2}`), calls(call("list_dir", "path", "src", "depth", 2.0))},
		{"codex read_file slice", "gpt-5-codex", "", q("read_file", `{"file_path": "a.go", "offset": 5, "limit": 10, "mode": "slice"}`), calls(call("read_file", "path", "a.go", "offset", 5.0, "limit", 10.0))},
		{"amp glob filePattern", m, "", q("glob", `{"filePattern": "**/*.go", "limit": 20}`), calls(call("glob", "pattern", "**/*.go"))},
		{"anthropic str_replace tool", m, "", q("str_replace", `{"path": "a.go", "old_str": "x := 1", "new_str": "x := 2"}`), calls(edit)},
		{"anthropic create tool", m, "", q("create", `{"path": "a.txt", "file_text": "hi"}`), calls(call("write_file", "path", "a.txt", "content", "hi"))},
		{"run_code shell", m, "", q("run_code", `{"language": "bash", "code": "ls -la"}`), calls(lsla)},
		{"search_code", m, "", q("search_code", `{"query": "foo", "path": "src"}`), calls(call("grep", "pattern", "foo", "path", "src"))},
		{"grepCode", m, "", q("grepCode", `{"pattern": "foo"}`), calls(call("grep", "pattern", "foo"))},
		{"find_files", m, "", q("find_files", `{"pattern": "**/*.go"}`), calls(call("glob", "pattern", "**/*.go"))},
		{"locate_file", m, "", q("locate_file", `{"pattern": "**/go.mod"}`), calls(call("glob", "pattern", "**/go.mod"))},
		{"list_tree", m, "", q("list_tree", `{"path": "src"}`), calls(call("list_dir", "path", "src"))},
	})
}

// Options other tools declare and ours lack (repair_options.go), line ranges under one name,
// file URIs, and the editing and shell arguments under other names.
func TestVariantsOptions(t *testing.T) {
	m := "devstral-small"
	edit := call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2")
	write := call("write_file", "path", "a.txt", "content", "hi")
	runVariants(t, []variant{
		{"args list", m, "", q("run_command", `{"command": "ls", "args": ["-la"]}`), calls(lsla)},
		{"args quoted", m, "", q("bash", `{"command": "grep", "args": ["-rn", "a b", "src"]}`), calls(call("bash", "command", "grep -rn 'a b' src"))},
		{"timeout_ms", m, "", q("execute_command", `{"command": "ls -la", "timeout_ms": 30000}`), calls(call("bash", "command", "ls -la", "timeout_s", 30.0))},
		{"timeoutMs", m, "", q("bash", `{"command": "ls -la", "timeoutMs": 1500}`), calls(call("bash", "command", "ls -la", "timeout_s", 2.0))},
		{"shell name", m, "", q("bash", `{"command": "ls -la", "shell": "/bin/bash"}`), calls(lsla)},
		{"env", m, "", q("bash", `{"command": "make", "env": {"CGO_ENABLED": "0"}}`), calls(call("bash", "command", "export CGO_ENABLED=0; make"))},
		{"working_dir", m, "", q("bash", `{"command": "ls -la", "working_dir": "src"}`), calls(call("bash", "command", "cd src && ls -la"))},
		{"sh tool", m, "", q("sh", `{"command": "ls -la"}`), calls(lsla)},
		{"cmd tool", m, "", q("cmd", `{"cmd": "ls -la"}`), calls(lsla)},
		{"overwrite", m, "", q("write_file", `{"path": "a.txt", "content": "hi", "overwrite": true}`), calls(write)},
		{"create_dirs", m, "", q("write_file", `{"path": "a.txt", "content": "hi", "createDirectories": true}`), calls(write)},
		{"encoding", m, "", q("read_file", `{"path": "a.go", "encoding": "utf-8"}`), calls(readA)},
		{"count 1", m, "", q("edit_file", `{"path": "a.go", "old_string": "x := 1", "new_string": "x := 2", "count": 1}`), calls(edit)},
		{"old_content", m, "", q("edit_file", `{"path": "a.go", "old_content": "x := 1", "new_content": "x := 2"}`), calls(edit)},
		{"search_text", m, "", q("edit_file", `{"path": "a.go", "search_text": "x := 1", "replace_with": "x := 2"}`), calls(edit)},
		{"code content", m, "", q("write_file", `{"path": "a.txt", "code": "hi"}`), calls(write)},
		{"lines text", m, "", q("read_file", `{"path": "a.go", "lines": "10-19"}`), calls(call("read_file", "path", "a.go", "offset", 10.0, "limit", 10.0))},
		{"line_range list", m, "", q("read_file", `{"path": "a.go", "line_range": [10, 19]}`), calls(call("read_file", "path", "a.go", "offset", 10.0, "limit", 10.0))},
		{"amp read_range", m, "", q("Read", `{"path": "a.go", "read_range": [1, 50]}`), calls(call("read_file", "path", "a.go", "offset", 1.0, "limit", 50.0))},
		{"lines count", m, "", q("read_file", `{"path": "a.go", "lines": 50}`), calls(call("read_file", "path", "a.go", "limit", 50.0))},
		{"file uri", m, "", q("read_file", `{"path": "file:///src/a%20b.go"}`), calls(call("read_file", "path", "/src/a b.go"))},
		{"list recursive", m, "", q("list_dir", `{"path": "src", "recursive": true}`), calls(call("list_dir", "path", "src", "depth", 5.0))},
		{"list not recursive", m, "", q("list_dir", `{"path": "src", "recursive": false}`), calls(call("list_dir", "path", "src", "depth", 1.0))},
		{"list hidden", m, "", q("list_dir", `{"path": "src", "show_hidden": true}`), calls(call("list_dir", "path", "src"))},
		{"grep recursive", m, "", q("grep", `{"pattern": "foo", "recursive": true}`), calls(call("grep", "pattern", "foo"))},
		{"glob recursive", m, "", q("glob", `{"pattern": "*.go", "recursive": true}`), calls(call("glob", "pattern", "**/*.go"))},
		{"file_types", m, "", q("grep", `{"pattern": "foo", "file_types": ["go", "ts"]}`), calls(call("grep", "pattern", "foo", "glob", "*.{go,ts}"))},
		{"extension", m, "", q("grep", `{"pattern": "foo", "extension": ".py"}`), calls(call("grep", "pattern", "foo", "glob", "*.py"))},
		{"continue search_and_replace_in_file", m, "", q("search_and_replace_in_file", `{"filepath": "a.go", "diffs": ["<<<<<<< SEARCH\nx := 1\n=======\nx := 2\n>>>>>>> REPLACE"]}`), calls(edit)},
		{"crush grep literal_text", m, "", q("grep", `{"pattern": "a.b", "literal_text": true}`), calls(call("grep", "pattern", `a\.b`))},
		{"kimi WriteFile overwrite", m, "", q("WriteFile", `{"path": "a.txt", "content": "hi", "mode": "overwrite"}`), calls(write)},
		{"kimi Glob include_dirs", m, "", q("Glob", `{"pattern": "**/*.go", "directory": "src", "include_dirs": false}`), calls(call("glob", "pattern", "**/*.go", "path", "src"))},
		{"continue ls recursive", m, "", q("builtin_ls", `{"dirPath": "src", "recursive": true}`), calls(call("list_dir", "path", "src", "depth", 5.0))},
		{"grep paths", m, "", q("grep", `{"pattern": "foo", "paths": ["src", "lib"]}`), calls(call("grep", "pattern", "foo", "path", "src"), call("grep", "pattern", "foo", "path", "lib"))},
	})
}

// A file tool whose action argument names the operation (toolnames_action.go), and names with
// a call format's tag glued on or folding to another harness's.
func TestVariantsActionTools(t *testing.T) {
	m := "qwen2.5-coder:14b"
	runVariants(t, []variant{
		{"file action read", m, "", q("file", `{"action": "read", "path": "a.go"}`), calls(readA)},
		{"file_manager write", m, "", q("file_manager", `{"action": "write", "path": "a.txt", "content": "hi"}`), calls(call("write_file", "path", "a.txt", "content", "hi"))},
		{"filesystem operation list", m, "", q("filesystem", `{"operation": "list", "path": "src"}`), calls(call("list_dir", "path", "src"))},
		{"file_operations view", m, "", q("file_operations", `{"command": "view", "path": "a.go"}`), calls(readA)},
		{"directory ls", m, "", q("directory", `{"op": "ls", "path": "src"}`), calls(call("list_dir", "path", "src"))},
		{"fs read_file", m, "", q("fs", `{"action": "read_file", "path": "a.go"}`), calls(readA)},
		{"files edit", m, "", q("files", `{"action": "edit", "path": "a.go", "old_string": "x := 1", "new_string": "x := 2"}`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		{"grep glob kept", m, "", q("grep", `{"pattern": "foo", "glob": "*.go"}`), calls(call("grep", "pattern", "foo", "glob", "*.go"))},
		{"tag glued", m, "", q("read_file</tool_call>", `{"path": "a.go"}`), calls(readA)},
		{"function tag glued", m, "", q("<function>bash</function>", `{"command": "ls -la"}`), calls(lsla)},
		{"bash_command", m, "", q("bash_command", `{"command": "ls -la"}`), calls(lsla)},
	})
}

// Prose that names the tools these rules added (common words among them: open, find, patch,
// execute, command, create) is not a call.
func TestNamesInProseAreNotCalls(t *testing.T) {
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"Let me open the config file and find where the timeout is set.",
		"I'll run the command `find . -name '*.go'` to list them.",
		"To fix it, patch the handler, then execute the tests with `go test ./...`.",
		"Next I will search_code for the handler, then read_directory src and print_tree.",
		"The execute tool runs code in Open Interpreter; fs_write and fs_patch are llm-functions' tools.",
		"Use sh -c 'ls' here, or cmd /c dir on Windows; create a file with write_file.",
		"In Python, open(path) returns a file object and find() is a string method.",
		"ShellTool.run is Gemini CLI's shell; repo_browser.search is gpt-oss's.",
		`{"language": "python", "code": "print(sum(range(10)))"}`,
		`{"text": "Hello! How can I help you today?"}`,
		"Next I'll touch src/a.go, mkdir src/api (create_directory would do too) and move_file it later.",
		"Run `touch a.go` or `mkdir -p src` yourself; ls with a pattern such as *.go lists matches.",
	} {
		d := classify(Case{ID: "prose", Model: "qwen3-coder", Text: text}, true, reg)
		if len(d.Calls) > 0 {
			t.Errorf("%q read as %d call(s): %s %s", text, len(d.Calls), d.Calls[0].Name, d.Calls[0].Args)
		}
	}
}

// Argument keys and values in the shapes models mangle them into (issue 20): a parameter's
// value fused into its name, a timeout in milliseconds sent as text, ripgrep's flags as keys,
// an object whose quotes all arrive escaped, values in stray quotes, Roo Code's file entries
// in each nesting, a tool_code body with a positional call, a next call's opening tag leaked
// into a value, and Agent Zero's terminal.
func TestVariantsMangledArguments(t *testing.T) {
	m := "qwen3-coder-30b"
	write := call("write_file", "path", "a.txt", "content", "hi")
	runVariants(t, []variant{
		// the XML parameter form fused into a JSON key, the value given empty
		{"glued equals", m, "", q("exec_command", `{"cmd=pwd\n</parameter": ""}`), calls(call("bash", "command", "pwd"))},
		{"glued newline", m, "", q("exec_command", `{"cmd\nls -la\n</parameter": ""}`), calls(lsla)},
		{"glued closed tag", m, "", q("bash", `{"command=ls -la</parameter>": ""}`), calls(lsla)},
		{"glued colon path", m, "", q("read_file", `{"path: a.go": null}`), calls(readA)},
		{"glued alias path", m, "", q("read_file", `{"file_path=a.go\n</parameter": ""}`), calls(readA)},
		{"glued blank xml", m, "<tool_call>\n<function=bash>\n<parameter=command ls -la\n</parameter>\n</function>\n</tool_call>", nil, calls(lsla)},
		{"glued glob", m, "", q("glob", `{"pattern=**/*.go": "", "path": "src"}`), calls(call("glob", "pattern", "**/*.go", "path", "src"))},
		// a millisecond timeout in the XML formats' text
		{"timeout text glm", "glm-4.7", "<tool_call>bash<arg_key>command</arg_key><arg_value>ls -la</arg_value><arg_key>timeout</arg_key><arg_value>120000</arg_value></tool_call>", nil, calls(call("bash", "command", "ls -la", "timeout_s", 120.0))},
		{"timeout text qwen", m, "<tool_call>\n<function=bash>\n<parameter=command>\nls -la\n</parameter>\n<parameter=timeout>\n10000\n</parameter>\n</function>\n</tool_call>", nil, calls(call("bash", "command", "ls -la", "timeout_s", 10.0))},
		{"timeout seconds text", m, "", q("bash", `{"command": "ls -la", "timeout": "30"}`), calls(call("bash", "command", "ls -la", "timeout_s", 30.0))},
		// ripgrep's flags as parameter names
		{"rg -C output text", m, "<tool_call>\n<function=grep>\n<parameter=-C>\n3\n</parameter>\n<parameter=output>\ntext\n</parameter>\n<parameter=pattern>\nfoo\n</parameter>\n</function>\n</tool_call>", nil, calls(call("grep", "pattern", "foo", "context", 3.0))},
		{"rg -i text", m, "", q("grep", `{"pattern": "foo", "-i": "true", "path": "src"}`), calls(call("grep", "pattern", "(?i)foo", "path", "src"))},
		{"rg -A -B", m, "", q("grep", `{"pattern": "foo", "-A": 2, "-B": 5}`), calls(call("grep", "pattern", "foo", "context", 5.0))},
		{"rg output file:line", m, "", q("grep", `{"pattern": "foo", "output": "file:line", "path": "src"}`), calls(call("grep", "pattern", "foo", "path", "src"))},
		{"rg type toml", m, "<tool_call>\n<function=grep>\n<parameter=output_mode>\ncontent\n</parameter>\n<parameter=pattern>\nfoo\n</parameter>\n<parameter=type>\ntoml\n</parameter>\n</function>\n</tool_call>", nil, calls(call("grep", "pattern", "foo", "glob", "*.toml"))},
		// parameters opened and closed with nothing between: the argument left out
		{"empty xml params", m, "<tool_call>\n<function=grep>\n<parameter=output>\n</parameter>\n<parameter=pattern>\nfoo\n</parameter>\n<parameter=type>\n</parameter>\n</function>\n</tool_call>", nil, calls(call("grep", "pattern", "foo"))},
		{"empty json extra", m, "", q("read_file", `{"path": "a.go", "encoding": "", "mode": null}`), calls(readA)},
		// bare words fallen out of their strings
		{"words after value", "minimax-m2.5", "", q("bash", `{"command": "ls -la" list files, "description": "List"}`), calls(lsla)},
		{"word in key place", m, "", q("read", ` {"filePath": "a.go",ubin}`), calls(readA)},
		{"word between members", m, "", q("grep", `{"pattern": "foo", stray, "path": "src"}`), calls(call("grep", "pattern", "foo", "path", "src"))},
		// every quote escaped, once or twice, with or without doubled braces
		{"escaped once", m, "", q("read_file", `{\"path\": \"a.go\"}`), calls(readA)},
		{"escaped twice", m, "", q("bash", `{\\\"command\\\": \\\"ls -la\\\"}`), calls(lsla)},
		{"escaped braces stray backslash", m, "", q("read", `{{\\\"filePath\\\":\\\"a.go\\\\"}}`), calls(readA)},
		{"escaped content quote", m, "", q("write_file", `{\"path\": \"a.txt\", \"content\": \"say \\\"hi\\\"\"}`), calls(call("write_file", "path", "a.txt", "content", `say "hi"`))},
		{"escaped lines", m, "", q("edit_file", "{\\\"path\\\": \\\"a.go\\\",\n \\\"old_string\\\": \\\"x := 1\\\",\n \\\"new_string\\\": \\\"x := 2\\\"}"), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		// values in stray quotes
		{"quoted path", m, "", q("read_file", `{"path": "\"a.go\""}`), calls(readA)},
		{"single-quoted path", m, "", q("list_dir", `{"path": "'src'"}`), calls(call("list_dir", "path", "src"))},
		{"quoted path and content", m, "", q("write", `{"filePath": "\"a.txt\"", "content": "\"hi\""}`), calls(write)},
		{"triple-quoted content", m, "", q("write_file", `{"path": "\"a.py\"", "content": "\"\"\"x = 1\n\"\""}`), calls(call("write_file", "path", "a.py", "content", "x = 1\n"))},
		{"content quotes kept", m, "", q("write_file", `{"path": "a.txt", "content": "\"hi\""}`), calls(call("write_file", "path", "a.txt", "content", `"hi"`))},
		{"docstring kept", m, "", q("write_file", `{"path": "\"a.py\"", "content": "\"\"\"Doc.\"\"\"\nx = \"\""}`), calls(call("write_file", "path", "a.py", "content", "\"\"\"Doc.\"\"\"\nx = \"\""))},
		// Roo Code's read_file entries in each nesting its XML takes through JSON
		{"roo args list of file", "gpt-oss-20b", "", q("read_file", `{"args": [{"file": {"path": "a.go"}}]}`), calls(readA)},
		{"roo args file object", m, "", q("read_file", `{"args": {"file": {"path": "a.go"}}}`), calls(readA)},
		{"roo args file list", m, "", q("read_file", `{"args": {"file": [{"path": "a.go"}, {"path": "b.go"}]}}`), calls(readA, call("read_file", "path", "b.go"))},
		{"roo args string", m, "", q("read_file", `{"args": "[{\"file\": {\"path\": \"a.go\"}}]"}`), calls(readA)},
		{"roo files", m, "", q("read_file", `{"files": [{"path": "a.go"}]}`), calls(readA)},
		// a tool_code body that is one call with a positional value
		{"tool_code tag positional", "gemma-3-4b", "<tool_code>run_command(\"ls -la\")</tool_code>", nil, calls(lsla)},
		{"tool_code fence positional", "gemma-3-4b", "```tool_code\nread_file(\"a.go\")\n```", nil, calls(readA)},
		{"tool_code print positional", "gemma-3-4b", "", q("tool_code", `print(list_dir("src"))`), calls(call("list_dir", "path", "src"))},
		// the next call's opening leaked onto the end of a command or path (never a pattern)
		{"leaked tool_call open", "minimax-m2", "", q("bash", `{"command": "ls -la<tool_call>"}`), calls(lsla)},
		{"leaked invoke open", "minimax-m2", "", q("read_file", `{"path": "a.go\n<invoke name=\"bash\">"}`), calls(readA)},
		{"leaked function open", m, "", q("bash", `{"command": "ls -la </function>\n<function=bash>"}`), calls(lsla)},
		{"pattern keeps open tag", m, "", q("grep", `{"pattern": "x<tool_call>"}`), calls(call("grep", "pattern", "x<tool_call>"))},
		// cut off inside a note the tool drops: the note goes, what runs was sent whole
		{"cut in description", "minimax-m2.5", "", q("bash", `{"command": "ls -la", "description": "List the fi`), calls(lsla)},
		{"cut in explanation", m, "", q("edit_file", `{"path": "a.go", "old_string": "x := 1", "new_string": "x := 2", "explanation": "Bump x`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		{"cut in summary", m, "", q("read_file", "{\"path\": \"a.go\",\n \"summary\": \"Read the"), calls(readA)},
		// the tool's own name repeated among its arguments
		{"own name tool", "qwen3.6-27b", `{"name": "bash", "arguments": {"command": "ls -la", "tool": "bash"}}`, nil, calls(lsla)},
		{"own name name", m, "", q("read_file", `{"path": "a.go", "name": "read_file"}`), calls(readA)},
		{"own name ours via alias", m, "", q("Read", `{"file_path": "a.go", "tool_name": "read_file"}`), calls(readA)},
		{"own name function", m, "", q("grep", `{"pattern": "foo", "function": "grep"}`), calls(call("grep", "pattern", "foo"))},
		// file-system operations called as tools: that shell command over the quoted paths
		{"touch filePath xml", "stepfun/step-3.5-flash", "<tool_call>\n<function=touch>\n<parameter=filePath>\nsrc/__init__.py\n</parameter>\n</function>\n</tool_call>", nil, calls(call("bash", "command", "touch src/__init__.py"))},
		{"touch paths", m, "", q("touch", `{"paths": ["a.go", "my file.txt"]}`), calls(call("bash", "command", "touch a.go 'my file.txt'"))},
		{"mkdir", m, "", q("mkdir", `{"path": "src/api"}`), calls(call("bash", "command", "mkdir -p src/api"))},
		{"mcp create_directory", m, "", q("create_directory", `{"path": "src/api"}`), calls(call("bash", "command", "mkdir -p src/api"))},
		{"mcp move_file", m, "", q("move_file", `{"source": "a.go", "destination": "b.go"}`), calls(call("bash", "command", "mv a.go b.go"))},
		// a listing given a glob is a glob
		{"ls pattern xml", "stepfun/step-3.5-flash", "<tool_call>\n<function=ls>\n<parameter=pattern>\ndata/*\n</parameter>\n</function>\n</tool_call>", nil, calls(call("glob", "pattern", "data/*"))},
		{"LS pattern path", m, "", q("LS", `{"path": "src", "pattern": "*.go"}`), calls(call("glob", "pattern", "*.go", "path", "src"))},
		{"list pattern", m, "", q("list", `{"pattern": "**/*.md"}`), calls(call("glob", "pattern", "**/*.md"))},
		{"ls plain", m, "", q("ls", `{"path": "src"}`), calls(call("list_dir", "path", "src"))},
		// Agent Zero's code_execution_tool, in its reply form and through call syntax
		{"agent zero terminal", "minimax-m2", "", q("code_execution_tool", `{"runtime": "terminal", "code": "ls -la", "session": 0}`), calls(lsla)},
		{"agent zero tool_args", "minimax-m2", "<minimax:tool_call>\n<invoke name=\"code_execution_tool\">\n<tool_args>{\"code\": \"ls -la\", \"runtime\": \"terminal\", \"session\": 0, \"reset\": false}</tool_args>\n</invoke>\n</minimax:tool_call>", nil, calls(lsla)},
		{"agent zero json reply", "qwen3-32b", `{"thoughts": ["list the files"], "tool_name": "code_execution_tool", "tool_args": {"runtime": "terminal", "session": 0, "code": "ls -la"}}`, nil, calls(lsla)},
	})
}

// Ids where a tool's name belongs, working directories already entered, a whole call nested in
// its own arguments, and a Python call's positional string (repair_callid.go,
// aliases_workdir.go, repair_schema.go's unwrap, aliases_harness.go's textArg).
func TestVariantsNamesIDsAndShapes(t *testing.T) {
	m := "qwen3-coder"
	kimi := func(id, args string) string { // Kimi K2's section, an id where functions.NAME:N goes
		return "<|tool_calls_section_begin|><|tool_call_begin|>" + id + "<|tool_call_argument_begin|>" + args + "<|tool_call_end|><|tool_calls_section_end|>"
	}
	runVariants(t, []variant{
		// the providers' documented call-id spellings (OpenAI call_…, Anthropic toolu_…, vLLM
		// chatcmpl-tool-…, the Responses API's fc_…, numbered call_N): the arguments decide
		{"kimi call_0 file_path", "kimi-k2", kimi("call_0", `{"file_path": "a.go"}`), nil, calls(readA)},
		{"kimi call_1 command", "kimi-k2", kimi("call_1", `{"command": "ls -la"}`), nil, calls(lsla)},
		{"openai id as name", m, "", q("call_8fK2xQ1mZp0aBcDeFgHiJkLm", `{"command": "ls -la"}`), calls(lsla)},
		{"anthropic id as name", m, "", q("toolu_01A09q90qw90lq917835lq9", `{"file_path": "a.go", "old_string": "x := 1", "new_string": "x := 2"}`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		{"vllm id as name", m, "", q("chatcmpl-tool-4f1a9c2e7b", `{"path": "a.go", "content": "hi"}`), calls(call("write_file", "path", "a.go", "content", "hi"))},
		{"numbered tool_call id", m, "", q("tool_call_2", `{"filename": "a.go"}`), calls(readA)},
		// a working directory the command already enters (Cline's cwd, Codex's workdir, a cwd
		// on bash itself) is entered once
		{"bash cwd and cd", "deepseek-v4", "", q("bash", `{"command": "cd /w && ls -la", "cwd": "/w"}`), calls(call("bash", "command", "cd /w && ls -la"))},
		{"execute_command cwd relative", m, "", q("execute_command", `{"command": "cd sub && ls -la", "cwd": "sub", "requires_approval": false}`), calls(call("bash", "command", "cd sub && ls -la"))},
		{"codex workdir trailing slash", "gpt-5-codex", "", q("shell", `{"command": ["bash", "-lc", "cd /w/ && make"], "workdir": "/w"}`), calls(call("bash", "command", "cd /w/ && make"))},
		{"gemini directory quoted", "gemini-2.5-pro", "", q("run_shell_command", `{"command": "cd 'my dir'; make", "directory": "my dir"}`), calls(call("bash", "command", "cd 'my dir'; make"))},
		{"cwd another dir", "deepseek-v4", "", q("bash", `{"command": "cd b && ls -la", "cwd": "a"}`), calls(call("bash", "command", "cd a && cd b && ls -la"))},
		// the whole call repeated inside its arguments
		{"forge action in args", "gpt-oss-20b", "", q("run_command", `{"tool": "run_command", "args": {"command": "ls -la"}}`), calls(lsla)},
		{"tool_name beside args", m, "", q("read_file", `{"tool_name": "read_file", "args": {"path": "a.go"}}`), calls(readA)},
		{"Bash tool beside input", m, "", q("Bash", `{"tool": "Bash", "input": {"command": "ls -la"}}`), calls(lsla)},
		{"function beside parameters", m, "", q("grep", `{"function": "grep", "parameters": {"pattern": "foo"}}`), calls(call("grep", "pattern", "foo"))},
		// a Python call's one positional string is search_files' pattern
		{"search_files positional in tags", "gemma3:1b", "<tool_call>search_files('*.py')</tool_call>", nil, calls(call("glob", "pattern", "*.py"))},
		{"search_files positional double", "gemma3:1b", `<tool_call>search_files("*.go")</tool_call>`, nil, calls(call("glob", "pattern", "*.go"))},
		{"search_files json string", m, "", q("search_files", `"*.md"`), calls(call("glob", "pattern", "*.md"))},
		{"search_files word", m, "", q("search_files", `'TODO'`), calls(call("grep", "pattern", "TODO"))},
		// a pattern that is a file's name is a name search, as the MCP filesystem server reads it
		{"search_files file name", m, "", q("search_files", `{"pattern": "quarterly_report.pdf"}`), calls(call("glob", "pattern", "quarterly_report.pdf"))},
		{"search_files extension", "gemma3:1b", "<tool_call>search_files(pattern=\".py\")</tool_call>", nil, calls(call("glob", "pattern", ".py"))},
		{"search_files go.mod path", m, "", q("search_files", `{"path": "src", "pattern": "go.mod"}`), calls(call("glob", "pattern", "go.mod", "path", "src"))},
		{"search_files dotted code", m, "", q("search_files", `{"pattern": "os.path"}`), calls(call("grep", "pattern", "os.path"))},
		// a timeout with its unit (Go's, systemd's, Docker's durations), an argv without its object
		{"timeout 30s", m, "", q("bash", `{"command": "ls -la", "timeout": "30s"}`), calls(call("bash", "command", "ls -la", "timeout_s", 30.0))},
		{"timeout 2m on Bash", m, "", q("Bash", `{"command": "ls -la", "timeout": "2m"}`), calls(call("bash", "command", "ls -la", "timeout_s", 120.0))},
		{"timeout_s 90 seconds xml", m, "<tool_call>\n<function=bash>\n<parameter=command>\nls -la\n</parameter>\n<parameter=timeout_s>\n90 seconds\n</parameter>\n</function>\n</tool_call>", nil, calls(call("bash", "command", "ls -la", "timeout_s", 90.0))},
		{"argv as the arguments", "gpt-5-codex", "", q("shell", `["bash", "-lc", "ls -la"]`), calls(lsla)},
		{"argv mangled flag", "gpt-oss-20b", "", q("exec", `["bash", "lc", "ls -la"]`), calls(lsla)},
		{"argv key", m, "", q("bash", `{"argv": ["ls", "-la"]}`), calls(lsla)},
		// Cursor's (its published agent prompt), Zed's (its agent's tool list) and Augment's tools
		{"cursor search_replace", m, "", q("search_replace", `{"file_path": "a.go", "old_string": "x := 1", "new_string": "x := 2"}`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		{"cursor glob_file_search", m, "", q("glob_file_search", `{"glob_pattern": "*.go", "target_directory": "src"}`), calls(call("glob", "pattern", "*.go", "path", "src"))},
		{"cursor list_dir target_directory", m, "", q("list_dir", `{"target_directory": "src"}`), calls(call("list_dir", "path", "src"))},
		{"cursor delete_file", m, "", q("delete_file", `{"target_file": "a.go", "explanation": "unused"}`), calls(call("bash", "command", "rm a.go"))},
		{"zed delete_path", m, "", q("delete_path", `{"path": "build dir"}`), calls(call("bash", "command", "rm -r 'build dir'"))},
		{"zed move_path", m, "", q("move_path", `{"source_path": "a.go", "destination_path": "b.go"}`), calls(call("bash", "command", "mv a.go b.go"))},
		{"zed copy_path", m, "", q("copy_path", `{"source_path": "src", "destination_path": "src2"}`), calls(call("bash", "command", "cp -R src src2"))},
		{"augment remove-files", m, "", q("remove-files", `{"file_paths": ["a.go", "b.go"]}`), calls(call("bash", "command", "rm a.go b.go"))},
		{"openhands edit_file_by_replace", m, "", q("edit_file_by_replace", `{"file_name": "a.go", "to_replace": "x := 1", "new_content": "x := 2"}`), calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		// a name in backticks or quotes; Anthropic's versioned tool types as names
		{"backticked name json", m, "<tool_call>{\"name\": \"`read_file`\", \"arguments\": {\"path\": \"a.go\"}}</tool_call>", nil, calls(readA)},
		{"quoted name structured", m, "", q(`"bash"`, `{"command": "ls -la"}`), calls(lsla)},
		{"bash type as name", "claude-sonnet-4", "", q("bash_20250124", `{"command": "ls -la"}`), calls(lsla)},
		{"text editor type as name", "claude-sonnet-4", "", q("text_editor_20250728", `{"command": "view", "path": "a.go"}`), calls(readA)},
		// values in another shape than a string: command lines as a list, the argument nested
		// in itself, a file as its lines, grep's file filter as several globs
		{"command lines list", m, "", q("bash", `{"command": ["npm install", "npm test"]}`), calls(call("bash", "command", "npm install && npm test"))},
		{"one command line in a list", m, "", q("run_shell_command", `{"command": ["git status"]}`), calls(call("bash", "command", "git status"))},
		{"command nested in itself", m, "", q("bash", `{"command": {"command": "ls -la"}}`), calls(lsla)},
		{"path nested under file", m, "", q("read_file", `{"file": {"path": "a.go"}}`), calls(readA)},
		{"content as lines", m, "", q("write_file", `{"path": "a.txt", "content": ["one", "two"]}`), calls(call("write_file", "path", "a.txt", "content", "one\ntwo\n"))},
		{"json content as array", m, "", q("write_file", `{"path": "a.json", "content": ["a", "b"]}`), calls(call("write_file", "path", "a.json", "content", `["a","b"]`))},
		{"grep globs list", m, "", q("grep", `{"pattern": "foo", "glob": ["*.go", "*.ts"]}`), calls(call("grep", "pattern", "foo", "glob", "{*.go,*.ts}"))},
		{"grep include list", m, "", q("grep_search", `{"query": "foo", "include_pattern": ["*.go", "*.md"]}`), calls(call("grep", "pattern", "foo", "glob", "{*.go,*.md}"))},
	})
}
