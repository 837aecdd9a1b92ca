package main

import "testing"

// Call formats of further families and agent frameworks, each from its own documentation or
// its reference parser in vLLM (vllm/entrypoints/openai/tool_parsers): Phi-4-mini, Nemotron,
// Jamba, Hunyuan, InternLM, Seed-OSS, Command R / A, Functionary, xLAM, Qwen-Agent's fncall
// template, and the ReAct format of LangChain's agents.
func TestVariantsOtherFamilies(t *testing.T) {
	m := "some-local-model"
	runVariants(t, []variant{
		{"phi4 mini", "phi-4-mini-instruct", `<|tool_call|>[{"name": "read_file", "arguments": {"path": "a.go"}}]<|/tool_call|>`, nil, calls(readA)},
		{"nemotron", "llama-3.3-nemotron-super-49b", `<TOOLCALL>[{"name": "read_file", "arguments": {"path": "a.go"}}]</TOOLCALL>`, nil, calls(readA)},
		{"jamba", "jamba-1.7-mini", `<tool_calls>[{"name": "read_file", "arguments": {"path": "a.go"}}]</tool_calls>`, nil, calls(readA)},
		{"hunyuan", "hunyuan-a13b", "<tool_calls>[{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}]</tool_calls>", nil, calls(readA)},
		{"internlm", "internlm3-8b", "<|action_start|><|plugin|>\n{\"name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}<|action_end|>", nil, calls(readA)},
		{"seed-oss", "seed-oss-36b", "<seed:tool_call>\n<function=read_file>\n<parameter=path>a.go</parameter>\n</function>\n</seed:tool_call>", nil, calls(readA)},
		{"command r", "command-r-plus", "Action: ```json\n[\n    {\n        \"tool_name\": \"read_file\",\n        \"parameters\": {\"path\": \"a.go\"}\n    }\n]\n```", nil, calls(readA)},
		{"command a", "command-a-03-2025", `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "read_file", "parameters": {"path": "a.go"}}]<|END_ACTION|>`, nil, calls(readA)},
		{"functionary v3.1", "functionary-small-v3.1", `<function=read_file>{"path": "a.go"}</function>`, nil, calls(readA)},
		{"functionary v3.2", "functionary-medium-v3.2", ">>>read_file\n{\"path\": \"a.go\"}", nil, calls(readA)},
		{"xlam", "xlam-2-8b-fc-r", `[{"name": "read_file", "arguments": {"path": "a.go"}}]`, nil, calls(readA)},
		{"qwen-agent fncall", "qwen2.5-7b-instruct", "✿FUNCTION✿: read_file\n✿ARGS✿: {\"path\": \"a.go\"}", nil, calls(readA)},
		{"react", m, "Thought: I need the file.\nAction: read_file\nAction Input: {\"path\": \"a.go\"}", nil, calls(readA)},
		{"react plain input", m, "Thought: list it.\nAction: run_shell_command\nAction Input: ls -la\nObservation:", nil, calls(lsla)},
		{"react json blob", m, "Thought: I need the file.\nAction:\n```\n{\n  \"action\": \"read_file\",\n  \"action_input\": {\"path\": \"a.go\"}\n}\n```", nil, calls(readA)},
		{"tool_use tags", m, "<tool_use>\n<name>Read</name>\n<input>{\"file_path\": \"a.go\"}</input>\n</tool_use>", nil, calls(readA)},
		{"tool_name tool_input", m, `{"tool_name": "read_file", "tool_input": {"path": "a.go"}}`, nil, calls(readA)},
		{"openai tool_calls record", m, `{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\": \"a.go\"}"}}]}`, nil, calls(readA)},
		{"anthropic tool_use block", m, `{"type": "tool_use", "id": "toolu_01", "name": "Read", "input": {"file_path": "a.go"}}`, nil, calls(readA)},
		{"gemini functionCall", m, `{"functionCall": {"name": "read_file", "args": {"path": "a.go"}}}`, nil, calls(readA)},
	})
}

// More variations of the marker families' own formats (their docs as on the family tables in
// variants_test.go): Llama 3.1's built-in .call syntax on a custom tool and its nested
// {"type": "function", "function": …}, GLM-4's name-then-JSON body and its <|observation|>
// stop token, Hermes bodies with a string, a raw line break or Python quotes, Mistral's
// arguments wrapped or as a string, Kimi K2's ids without an index or with their tokens
// stripped, gpt-oss's names and channels as servers render them.
func TestVariantsFamilyDetails(t *testing.T) {
	runVariants(t, []variant{
		{"llama .call custom", "llama-3.1-8b-instruct", `<|python_tag|>read_file.call(path="a.go")<|eom_id|>`, nil, calls(readA)},
		{"llama type function nested", "llama-3.1-8b-instruct", `{"type": "function", "function": {"name": "read_file", "parameters": {"path": "a.go"}}}`, nil, calls(readA)},
		{"glm name json", "glm-4.5", "<tool_call>read_file\n{\"path\": \"a.go\"}\n</tool_call>", nil, calls(readA)},
		{"glm observation token", "glm-4.5", "<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a.go</arg_value>\n</tool_call><|observation|>", nil, calls(readA)},
		{"hermes name only no args", "qwen3-8b", "<tool_call>\n{\"name\": \"list_dir\"}\n</tool_call>", nil, calls(call("list_dir"))},
		{"hermes arguments string", "qwen3-8b", "<tool_call>\n{\"name\": \"read_file\", \"arguments\": \"{\\\"path\\\": \\\"a.go\\\"}\"}\n</tool_call>", nil, calls(readA)},
		{"hermes raw newline in content", "qwen3-8b", "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.txt\", \"content\": \"one\ntwo\"}}\n</tool_call>", nil, calls(call("write_file", "path", "a.txt", "content", "one\ntwo"))},
		{"hermes python dict", "qwen2.5-7b", "<tool_call>\n{'name': 'read_file', 'arguments': {'path': 'a.go'}}\n</tool_call>", nil, calls(readA)},
		{"mistral v11 arguments wrapper", "mistral-small-3.2-24b", `[TOOL_CALLS]read_file[ARGS]{"arguments": {"path": "a.go"}}`, nil, calls(readA)},
		{"mistral array name arguments string", "mistral-7b-instruct-v0.3", `[TOOL_CALLS] [{"name": "read_file", "arguments": "{\"path\": \"a.go\"}"}]`, nil, calls(readA)},
		{"kimi k2 functions no index", "kimi-k2-instruct", `<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file<|tool_call_argument_begin|>{"path": "a.go"}<|tool_call_end|><|tool_calls_section_end|>`, nil, calls(readA)},
		{"kimi k2 in content with text", "kimi-k2-0905", "Let me read it.<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{\"path\": \"a.go\"}<|tool_call_end|><|tool_calls_section_end|>", nil, calls(readA)},
		{"kimi k2 ids only", "kimi-k2-instruct", "functions.read_file:0<|tool_call_argument_begin|>{\"path\": \"a.go\"}", nil, calls(readA)},
		{"gptoss functions. name", "gpt-oss-120b", "", q("functions.read_file", `{"path": "a.go"}`), calls(readA)},
		{"gptoss json suffix name", "gpt-oss-120b", "", q("read_file<|channel|>commentary json", `{"path": "a.go"}`), calls(readA)},
		{"gptoss harmony recipient then constrain json spacing", "gpt-oss-120b", `<|start|>assistant<|channel|>commentary to=functions.bash<|constrain|>json<|message|>{"command":"ls -la"}<|call|>`, nil, calls(lsla)},
		{"gptoss analysis only then call", "gpt-oss-20b", `<|channel|>analysis<|message|>We need to list files.<|end|><|start|>assistant<|channel|>commentary to=functions.bash <|constrain|>json<|message|>{"command":"ls -la"}<|call|>`, nil, calls(lsla)},
		{"gptoss final channel json", "gpt-oss-20b", `<|channel|>final<|message|>{"name": "bash", "arguments": {"command": "ls -la"}}`, nil, calls(lsla)},
	})
}

// HTML entities: a call whose markup or JSON quotes a client escaped for display is read
// decoded; inside a value the tag formats keep entities as written (their reference parsers
// do, and an HTML file holds them), except a shell command escaped whole (tools' rule).
func TestVariantsEntities(t *testing.T) {
	runVariants(t, []variant{
		{"hermes json entities", "qwen3-8b", "<tool_call>\n{&quot;name&quot;: &quot;read_file&quot;, &quot;arguments&quot;: {&quot;path&quot;: &quot;a.go&quot;}}\n</tool_call>", nil, calls(readA)},
		{"hermes markup escaped", "qwen3-8b", "&lt;tool_call&gt;\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n&lt;/tool_call&gt;", nil, calls(readA)},
		{"coder markup escaped", "qwen3-coder-30b", "&lt;tool_call&gt;\n&lt;function=read_file&gt;\n&lt;parameter=path&gt;\na.go\n&lt;/parameter&gt;\n&lt;/function&gt;\n&lt;/tool_call&gt;", nil, calls(readA)},
		{"coder value entities", "qwen3-coder-30b", "<tool_call>\n<function=write_file>\n<parameter=path>\na.html\n</parameter>\n<parameter=content>\n&lt;p&gt;hi&lt;/p&gt;\n</parameter>\n</function>\n</tool_call>", nil, calls(call("write_file", "path", "a.html", "content", "&lt;p&gt;hi&lt;/p&gt;"))},
		{"glm value entities", "glm-4.6", "<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>make &amp;&amp; ./run</arg_value>\n</tool_call>", nil, calls(call("bash", "command", "make && ./run"))},
		{"invoke value entities", "minimax-m2", "<minimax:tool_call>\n<invoke name=\"bash\">\n<parameter name=\"command\">a &amp;&amp; b</parameter>\n</invoke>\n</minimax:tool_call>", nil, calls(call("bash", "command", "a && b"))},
		{"gemma entities", "gemma-4-e4b", "<|tool_call>call:bash{command:<|\"|>a &amp;&amp; b<|\"|>}<tool_call|>", nil, calls(call("bash", "command", "a && b"))},
		{"gemma markup escaped", "gemma-4-e4b", "&lt;|tool_call&gt;call:read_file{path:&lt;|&quot;|&gt;a.go&lt;|&quot;|&gt;}&lt;tool_call|&gt;", nil, calls(readA)},
	})
}
