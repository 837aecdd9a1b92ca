package main

import "testing"

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
