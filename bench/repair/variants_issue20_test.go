package main

import "testing"

// Issue 20's item 2, bullet by bullet: each shape in its documented form, through the
// session's path. The formats' own docs are cited on the family tables (variants_test.go).
func TestVariantsIssue20Shapes(t *testing.T) {
	m := "some-local-model"
	edit := call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2")
	runVariants(t, []variant{
		// argument repair before name mapping
		{"literal \\n between tokens", m, "", q("Read", `{\n"file_path": "a.go"\n}`), calls(readA)},
		{"trailing garbage", m, "", q("Bash", `{"command": "ls -la"}}`), calls(lsla)},
		{"trailing text", m, "", q("run_shell_command", `{"command": "ls -la"} <|im_end|>`), calls(lsla)},
		// list-shaped arguments
		{"paths list", m, "", q("read_multiple_files", `{"paths": ["a.go", "b.go"]}`), calls(readA, call("read_file", "path", "b.go"))},
		{"paths list one", m, "", q("read_many_files", `{"paths": ["a.go"]}`), calls(readA)},
		{"commands list", m, "", q("bash", `{"commands": [{"command": "ls -la"}, {"command": "pwd"}]}`), calls(lsla, call("bash", "command", "pwd"))},
		{"edits json string", m, "", q("MultiEdit", `{"file_path": "a.go", "edits": "[{\"old_string\": \"x := 1\", \"new_string\": \"x := 2\"}]"}`), calls(edit)},
		// nested action payloads
		{"action_json whole call", m, "", q("agent", `{"action_json": "{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}"}`), calls(readA)},
		{"wcgw BashCommand", m, "", q("BashCommand", `{"action_json": {"command": "ls -la"}}`), calls(lsla)},
		{"action arguments only", m, "", q("read_file", `{"action": {"path": "a.go"}}`), calls(readA)},
		// formats without their wrapper tokens
		{"gemma bare", m, "call:read_file{path:<|\"|>a.go<|\"|>}", nil, calls(readA)},
		{"kimi stripped", m, "functions.read_file:0{\"path\": \"a.go\"}", nil, calls(readA)},
		{"mistral stripped", m, `read_file[ARGS]{"path": "a.go"}`, nil, calls(readA)},
		{"qwen coder unwrapped", m, "<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>", nil, calls(readA)},
		{"glm unwrapped", m, "read_file\n<arg_key>path</arg_key>\n<arg_value>a.go</arg_value>\n</tool_call>", nil, calls(readA)},
		// tag-pair and attribute forms
		{"function-name arguments", m, `<function-name>read_file</function-name><arguments>{"path": "a.go"}</arguments>`, nil, calls(readA)},
		{"tool args", m, "<tool>bash</tool>\n<args>{\"command\": \"ls -la\"}</args>", nil, calls(lsla)},
		{"name parameters attrs", m, `<tool_call name="read_file" parameters="{&quot;path&quot;: &quot;a.go&quot;}"/>`, nil, calls(readA)},
		{"name arguments bare attrs", m, `name=read_file arguments={"path": "a.go"}`, nil, calls(readA)},
		// mangled markup
		{"closer without <", m, "<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n/parameter>\n/function>\n</tool_call>", nil, calls(readA)},
		{"glm name glued to key", "glm-4.5", "<tool_call>read_filepath</arg_key><arg_value>a.go</arg_value></tool_call>", nil, calls(readA)},
		{"glm closer without /", "glm-4.5", "<tool_call>read_file<arg_key>path</arg_key><arg_value>a.go<arg_value></tool_call>", nil, calls(readA)},
		{"hermes unclosed", m, `<tool_call>{"name": "read_file", "arguments": {"path": "a.go"}}`, nil, calls(readA)},
		{"xml tag unclosed", m, "<read_file>\n<path>a.go</path>", nil, calls(readA)},
		// namespaces with any separator
		{"ns---", m, "", q("ns---read_file", `{"path": "a.go"}`), calls(readA)},
		{"ns:", m, "", q("fs:Read", `{"file_path": "a.go"}`), calls(readA)},
		{"ns/", m, "", q("proxy/bash", `{"command": "ls -la"}`), calls(lsla)},
		{"ns.", m, "", q("container.exec", `{"cmd": ["bash", "-lc", "ls -la"]}`), calls(lsla)},
		// harmony commentary without a recipient, and bare argument objects
		{"harmony no recipient", "gpt-oss-120b", `<|channel|>commentary<|message|>{"command": "ls -la"}<|call|>`, nil, calls(lsla)},
		{"bare arguments", m, `{"command": "ls -la"}`, nil, calls(lsla)},
		// Cline / Roo / Kilo XML tool use (their system prompts)
		{"cline execute_command", m, "<thinking>List it.</thinking>\n<execute_command>\n<command>make &amp;&amp; ls -la</command>\n<requires_approval>false</requires_approval>\n</execute_command>", nil, calls(call("bash", "command", "make && ls -la"))},
		{"cline read_file", m, "<read_file>\n<path>a.go</path>\n</read_file>", nil, calls(readA)},
		{"cline write_to_file", m, "<write_to_file>\n<path>a.txt</path>\n<content>\nhi\n</content>\n<line_count>1</line_count>\n</write_to_file>", nil, calls(call("write_file", "path", "a.txt", "content", "hi"))}, // Cline drops the one break after <content> and before </content>
		{"cline replace_in_file", m, "<replace_in_file>\n<path>a.go</path>\n<diff>\n------- SEARCH\nx := 1\n=======\nx := 2\n+++++++ REPLACE\n</diff>\n</replace_in_file>", nil, calls(edit)},
		{"cline search_files", m, "<search_files>\n<path>src</path>\n<regex>foo</regex>\n<file_pattern>*.go</file_pattern>\n</search_files>", nil, calls(call("grep", "pattern", "foo", "path", "src", "glob", "*.go"))},
		{"cline list_files", m, "<list_files>\n<path>src</path>\n<recursive>false</recursive>\n</list_files>", nil, calls(call("list_dir", "path", "src", "depth", 1.0))}, // top level only (Cline's prompt)
		{"roo read_file args", m, "<read_file>\n<args>\n  <file>\n    <path>a.go</path>\n  </file>\n</args>\n</read_file>", nil, calls(readA)},
		{"roo apply_diff", m, "<apply_diff>\n<path>a.go</path>\n<diff>\n<<<<<<< SEARCH\n:start_line:1\n-------\nx := 1\n=======\nx := 2\n>>>>>>> REPLACE\n</diff>\n</apply_diff>", nil, calls(edit)},
		// stray tokens between a name and its arguments
		{"stray tokens", "mistral-small-3.2", `[TOOL_CALLS]read_file 한 {"path": "a.go"}`, nil, calls(readA)},
		{"stray tokens bare", m, "read_file ▁▁ {\"path\": \"a.go\"}", nil, calls(readA)},
		// JSON and XML fused
		{"fused function=", m, `{"function="read_file", "path="a.go"}`, nil, calls(readA)},
		{"fused arguments=", m, `{"name": "bash", "arguments="{\"command\": \"ls -la\"}"}`, nil, calls(lsla)},
		{"name tag with parameter=", m, "<tool_call>\n<name>read_file</name>\n<parameter=path>a.go</parameter>\n</tool_call>", nil, calls(readA)},
		// placeholder special tokens
		{"placeholders around hermes", m, `<|reserved_special_token_5|>{"name": "read_file", "arguments": {"path": "a.go"}}<|reserved_special_token_6|>`, nil, calls(readA)},
		{"placeholder glued", m, `read_file<|reserved_token_6|>{"path": "a.go"}`, nil, calls(readA)},
		// patches of several hunks or files
		{"patch two files", "gpt-5-codex", "", q("apply_patch", `{"input": "*** Begin Patch\n*** Update File: a.go\n@@\n-x := 1\n+x := 2\n*** Add File: b.txt\n+hi\n*** End Patch"}`), calls(edit, call("write_file", "path", "b.txt", "content", "hi\n"))},
		// a non-JSON argument string; argv with a mangled -c
		{"bare command string", m, "", q("bash", `ls -R`), calls(call("bash", "command", "ls -R"))},
		{"argv lc", m, "", q("shell", `{"command": ["bash", "lc", "ls -la"]}`), calls(lsla)},
	})
}
