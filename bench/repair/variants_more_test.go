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
