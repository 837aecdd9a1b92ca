package tools

import (
	"strings"
	"testing"
)

// What the name rules of issue 20 must not do: map a tool whose arguments mean something we
// lack, strip an MCP server's tool onto a built-in, or read a bare "search" as a content search.
func TestNameRulesRefuse(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []struct{ name, args, why string }{
		{"execute", `{"language": "python", "code": "print(1)"}`, `language "python" has no equivalent`},
		{"execute", `{"language": "shell"}`, "code is required"},
		{"mcp__fs__print_tree", `{"path": "src"}`, "unknown tool"},
		{"mcp__oss__repo_browser.search", `{"query": "foo"}`, "unknown tool"},
		{"search", `{"query": "foo"}`, "unknown tool"},
		{"fs_patch", `{"path": "a.go", "contents": "@@ -1,2 +1,2 @@\n-a\n+b\n@@ -9 +9 @@\n-c\n+d"}`, "2 hunks"},
		{"fs_patch", `{"path": "a.go"}`, "contents (the patch) are required"},
		{"browser.find", `{"pattern": "installation", "cursor": 3}`, "not a file name or glob"},
		{"find", `{"pattern": "TODO"}`, "not a file name or glob"},
		{"read_file", `{"path": "a.go", "max_results": 5}`, "unknown property 'max_results'"},
		{"bash", `{"command": "ls", "limit": 5}`, "unknown property 'limit'"},
		{"create", `{"filename": "a.py"}`, "create needs the file's content"},
		{"run_code", `{"language": "python", "code": "print(1)"}`, `language "python" has no equivalent`},
		{"patch", `{"mode": "patch", "path": "a.go"}`, "needs a patch"},
		{"open", `{"path": "a.go", "line_number": "top"}`, "line_number must be a line number"},
		{"search_for_files", `{"search_in_folder": "src"}`, "query is required"},
		{"edit_file", `{"path": "a.go", "old_string": "x", "new_string": "y", "count": 2}`, "unknown property 'count'"},
		{"read_file", `{"path": "a.go", "encoding": "latin-1"}`, "unknown property 'encoding'"},
		{"bash", `{"command": "ls", "shell": "powershell"}`, "unknown property 'shell'"},
		{"bash", `{"command": "ls", "env": {"A-B": "1"}}`, "unknown property 'env'"},
		{"glob", `{"pattern": "*.go", "recursive": false}`, "unknown property 'recursive'"},
		{"write_file", `{"path": "a.go", "content": "x", "overwrite": false}`, "unknown property 'overwrite'"},
		{"grep", `{"pattern": "x", "type": "c++"}`, "unknown property 'type'"},
		{"WriteFile", `{"path": "a.go", "content": "x", "mode": "append"}`, "unknown property 'mode'"},
		{"file", `{"action": "delete", "path": "a.go"}`, `action "delete" names no tool here`},
		{"file", `{"action": "read", "query": "x"}`, "its arguments do not fit it"},
		{"mcp__fs__file", `{"action": "read", "path": "a.go"}`, "unknown tool"},
		{"mcp__repo__read_directory", `{"path": "src"}`, "unknown tool"},
		{"ICodebase.read_directory", `{"pattern": "*.go"}`, "arguments do not fit list_dir"},
		{"ShellTool.run", `{"command": "cat a.md", "file_path": "b.md"}`, "unknown property 'file_path'"},
		{"ShellTool.run", `{"command": "cat a.md", "file_path": "a"}`, "unknown property 'file_path'"},
	}
	for _, tc := range cases {
		a := reg.Admit(env, Call{ID: "1", Name: tc.name, Args: tc.args})
		if a.Refusal == "" || !strings.Contains(a.Refusal, tc.why) {
			t.Errorf("%s %s: got %s %s (refusal %q), want a refusal saying %q", tc.name, tc.args, a.Name, a.Args, a.Refusal, tc.why)
		}
	}
}
