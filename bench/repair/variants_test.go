package main

import "testing"

// variant is one documented call format, in one of its variations, as a reply of a model of
// the named family; want is the call it stands for with troupe's tools.
type variant struct {
	doc   string // the format's documentation, and the variation
	model string
	text  string
	calls []QuotedCall
	want  []Expected
}

func call(name string, kv ...any) Expected {
	args := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i].(string)] = kv[i+1]
	}
	return Expected{Name: name, Args: args}
}

func calls(e ...Expected) []Expected { return e }

// runVariants replays each variant through the session's path (replayCase), repair on.
func runVariants(t *testing.T, vs []variant) {
	t.Helper()
	replayVariants(t, vs, false)
}

// replayVariants replays each variant, its text as the reply's reasoning field when reasoning
// is set (the answer text then empty).
func replayVariants(t *testing.T, vs []variant, reasoning bool) {
	t.Helper()
	for _, v := range vs {
		c := Case{ID: "variant", Model: v.model, Text: v.text, Calls: v.calls, Expect: v.want}
		if reasoning {
			c.Text, c.Reasoning = "", v.text
		}
		got, err := replayCase(c, true)
		if err != nil {
			t.Fatal(err)
		}
		if !got.ok {
			t.Errorf("%s [%s]: %s\n%s", v.doc, v.model, got.why, clip(v.text))
		}
	}
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

var readA = call("read_file", "path", "a.go")
var lsla = call("bash", "command", "ls -la")

// Gemma: Gemma 4's chat template (<|tool_call>call:NAME{k:<|"|>v<|"|>}<tool_call|>, thinking in
// <|channel>thought…<channel|>, end of turn <turn|>); FunctionGemma's <start_function_call>
// with <escape> quotes; Gemma 3's function-calling guide (ai.google.dev/gemma/docs/capabilities/
// function-calling): [func(a=1), …] lists, ```tool_code print(…) blocks, and JSON objects.
func TestVariantsGemma(t *testing.T) {
	m := "gemma-4-26b"
	q := `<|"|>`
	runVariants(t, []variant{
		{"gemma4 wrapped", m, `<|tool_call>call:read_file{path:` + q + `a.go` + q + `}<tool_call|>`, nil, calls(readA)},
		{"gemma4 after thought channel", m, "<|channel>thought\nI should read it.<channel|><|tool_call>call:read_file{path:" + q + "a.go" + q + "}<tool_call|><turn|>", nil, calls(readA)},
		{"gemma4 two calls", m, `<|tool_call>call:read_file{path:` + q + `a.go` + q + `}<tool_call|><|tool_call>call:bash{command:` + q + `ls -la` + q + `}<tool_call|>`, nil, calls(readA, lsla)},
		{"gemma4 numbers and booleans", m, `<|tool_call>call:read_file{path:` + q + `a.go` + q + `,offset:10,limit:20}<tool_call|>`, nil, calls(call("read_file", "path", "a.go", "offset", 10.0, "limit", 20.0))},
		{"gemma4 unclosed last", m, `<|tool_call>call:read_file{path:` + q + `a.go` + q + `}`, nil, calls(readA)},
		{"gemma4 no wrapper own line", m, "Let me look.\ncall:read_file{path:" + q + "a.go" + q + "}", nil, calls(readA)},
		{"gemma4 quote tokens stripped", m, `<|tool_call>call:bash{command:ls -la}<tool_call|>`, nil, calls(lsla)},
		{"gemma4 quote tokens as plain quotes", m, `<|tool_call>call:bash{command:"ls -la"}<tool_call|>`, nil, calls(lsla)},
		{"gemma4 multiline value", m, "<|tool_call>call:write_file{path:" + q + "a.txt" + q + ",content:" + q + "one\ntwo\n" + q + "}<tool_call|>", nil, calls(call("write_file", "path", "a.txt", "content", "one\ntwo\n"))},
		{"gemma4 value with braces and commas", m, "<|tool_call>call:bash{command:" + q + "echo '{a, b}: c'" + q + "}<tool_call|>", nil, calls(call("bash", "command", "echo '{a, b}: c'"))},
		{"gemma4 default_api namespace", m, `<|tool_call>call:default_api:read_file{path:` + q + `a.go` + q + `}<tool_call|>`, nil, calls(readA)},
		{"gemma4 harness name", m, `<|tool_call>call:Read{file_path:` + q + `a.go` + q + `}<tool_call|>`, nil, calls(readA)},
		{"gemma4 in a tool_code fence", m, "```tool_code\ncall:read_file{path:" + q + "a.go" + q + "}\n```", nil, calls(readA)},
		{"functiongemma", "functiongemma-270m", `<start_function_call>call:read_file{path:<escape>a.go<escape>}<end_function_call>`, nil, calls(readA)},
		{"gemma3 python list", "gemma3:12b", `[read_file(path="a.go")]`, nil, calls(readA)},
		{"gemma3 python list two", "gemma3:12b", `[read_file(path="a.go"), bash(command="ls -la")]`, nil, calls(readA, lsla)},
		{"gemma3 tool_code print", "gemma3:12b", "```tool_code\nprint(read_file(path=\"a.go\"))\n```", nil, calls(readA)},
		{"gemma3 tool_code default_api", "gemma3:12b", "```tool_code\nprint(default_api.read_file(path=\"a.go\"))\n```", nil, calls(readA)},
		{"gemma3 tool_code bare", "gemma3:12b", "```tool_code\nread_file(path=\"a.go\")\n```", nil, calls(readA)},
		{"gemma3 json name parameters", "gemma3:12b", `{"name": "read_file", "parameters": {"path": "a.go"}}`, nil, calls(readA)},
		{"gemma3 fenced json", "gemma3:12b", "```json\n{\"name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}\n```", nil, calls(readA)},
		{"gemma3 tool_call fenced json", "gemma3:12b", "```tool_call\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n```", nil, calls(readA)},
		{"tool_code call", "gemma3:12b", "", []QuotedCall{{Name: "tool_code", Args: `{"code": "print(default_api.read_file(path='a.go'))"}`}}, calls(readA)},
		{"tool_code json text", "gemma3:12b", `{"tool_calls": [{"function": "tool_code", "args": {"code": "print(read_file(path='a.go'))"}}]}`, nil, calls(readA)},
		{"tool_code unfenced", "gemma3:12b", "tool_code\nprint(default_api.read_file(path=\"a.go\"))", nil, calls(readA)},
		{"print bare", "gemma3:12b", "print(default_api.read_file(path=\"a.go\"))", nil, calls(readA)},
		{"tool_code fence two lines", "gemma3:12b", "```tool_code\nprint(read_file(path=\"a.go\"))\nprint(bash(command=\"ls -la\"))\n```", nil, calls(readA, lsla)},
		{"gemma function_call fence", "gemma3:12b", "```function_call\nread_file(path=\"a.go\")\n```", nil, calls(readA)},
		{"gemma tool_call python", "gemma3:12b", "```tool_call\nread_file(path=\"a.go\")\n```", nil, calls(readA)},
		{"gemma4 call without prefix", "gemma-4-e4b", "<|tool_call>read_file{path:<|\"|>a.go<|\"|>}<tool_call|>", nil, calls(readA)},
		{"gemma4 json inside", "gemma-4-e4b", "<|tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}<tool_call|>", nil, calls(readA)},
		{"gemma4 call: space", "gemma-4-e4b", "<|tool_call>call: read_file{path:<|\"|>a.go<|\"|>}<tool_call|>", nil, calls(readA)},
		{"gemma4 paren args", "gemma-4-e4b", "<|tool_call>call:read_file(path=\"a.go\")<tool_call|>", nil, calls(readA)},
	})
}

// Qwen3 (its chat template's Hermes <tool_call> JSON, thinking in <think>) and Qwen3-Coder /
// Qwen3.5 (their template's <tool_call><function=N><parameter=K>…, vLLM's qwen3_coder parser,
// which drops one leading and one trailing newline of a value and converts by the schema).
func TestVariantsQwen(t *testing.T) {
	c := "qwen3-coder-30b-a3b"
	runVariants(t, []variant{
		{"qwen3 hermes", "qwen3-32b", "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>", nil, calls(readA)},
		{"qwen3 after think", "qwen3-32b", "<think>\nI need the file.\n</think>\n\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>", nil, calls(readA)},
		{"qwen3 think unclosed start", "qwen3-32b", "I need the file.\n</think>\n\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>", nil, calls(readA)},
		{"qwen3 two calls", "qwen3-32b", "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls -la\"}}\n</tool_call>", nil, calls(readA, lsla)},
		{"qwen3 unclosed last", "qwen3-32b", "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}", nil, calls(readA)},
		{"qwen3 harness names", "qwen3-32b", "<tool_call>\n{\"name\": \"Bash\", \"arguments\": {\"command\": \"ls -la\", \"description\": \"List files\"}}\n</tool_call>", nil, calls(lsla)},
		{"qwen3 coder xml in hermes", "qwen3-32b", "<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>", nil, calls(readA)},
		{"coder basic", c, "<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>", nil, calls(readA)},
		{"coder no wrapper", c, "<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>", nil, calls(readA)},
		{"coder unclosed function", c, "<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</tool_call>", nil, calls(readA)},
		{"coder unclosed everything", c, "<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n", nil, calls(readA)},
		{"coder integer", c, "<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n<parameter=offset>\n10\n</parameter>\n</function>\n</tool_call>", nil, calls(call("read_file", "path", "a.go", "offset", 10.0))},
		{"coder multiline content", c, "<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\none\n  two\n</parameter>\n</function>\n</tool_call>", nil, calls(call("write_file", "path", "a.txt", "content", "one\n  two"))},
		{"coder claude code names", c, "<tool_call>\n<function=Edit>\n<parameter=file_path>\na.go\n</parameter>\n<parameter=old_string>\nx := 1\n</parameter>\n<parameter=new_string>\nx := 2\n</parameter>\n</function>\n</tool_call>", nil, calls(call("edit_file", "path", "a.go", "old_string", "x := 1", "new_string", "x := 2"))},
		{"coder after think", c, "<think>\nok\n</think>\n<tool_call>\n<function=bash>\n<parameter=command>\nls -la\n</parameter>\n</function>\n</tool_call>", nil, calls(lsla)},
		{"coder two calls", c, "<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=bash>\n<parameter=command>\nls -la\n</parameter>\n</function>\n</tool_call>", nil, calls(readA, lsla)},
		{"coder two functions one wrapper", c, "<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>\n<function=bash>\n<parameter=command>\nls -la\n</parameter>\n</function>\n</tool_call>", nil, calls(readA, lsla)},
		{"coder hermes json", c, "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>", nil, calls(readA)},
		{"coder html entities", c, "<tool_call>\n<function=bash>\n<parameter=command>\nmake &amp;&amp; ./a.out\n</parameter>\n</function>\n</tool_call>", nil, calls(call("bash", "command", "make && ./a.out"))},
		{"qwen3.5 coder format", "qwen3.5-35b-a3b", "<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>", nil, calls(readA)},
	})
}

// GLM-4.5/4.6/4.7 (their chat templates: <tool_call>NAME\n<arg_key>k</arg_key>\n<arg_value>v
// </arg_value>\n</tool_call>, GLM-4.7 without the newlines; values that are JSON are decoded
// by vLLM's glm45 parser).
func TestVariantsGLM(t *testing.T) {
	m := "glm-4.6"
	runVariants(t, []variant{
		{"glm45", m, "<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a.go</arg_value>\n</tool_call>", nil, calls(readA)},
		{"glm47 inline", "glm-4.7", "<tool_call>read_file<arg_key>path</arg_key><arg_value>a.go</arg_value></tool_call>", nil, calls(readA)},
		{"glm after think", m, "<think>I read it.</think>\n<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a.go</arg_value>\n</tool_call>", nil, calls(readA)},
		{"glm two", m, "<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a.go</arg_value>\n</tool_call>\n<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>ls -la</arg_value>\n</tool_call>", nil, calls(readA, lsla)},
		{"glm number", m, "<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a.go</arg_value>\n<arg_key>limit</arg_key>\n<arg_value>20</arg_value>\n</tool_call>", nil, calls(call("read_file", "path", "a.go", "limit", 20.0))},
		{"glm unclosed", m, "<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a.go</arg_value>", nil, calls(readA)},
		{"glm no args", m, "<tool_call>list_dir\n</tool_call>", nil, calls(call("list_dir"))},
		{"glm opencode names", m, "<tool_call>read\n<arg_key>filePath</arg_key>\n<arg_value>a.go</arg_value>\n</tool_call>", nil, calls(readA)},
		{"glm json in value", m, "<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>ls -la</arg_value>\n<arg_key>timeout</arg_key>\n<arg_value>30</arg_value>\n</tool_call>", nil, calls(call("bash", "command", "ls -la", "timeout_s", 30.0))},
		{"glm4 name line json", "glm-4-9b-chat", "read_file\n{\"path\": \"a.go\"}", nil, calls(readA)},
		{"glm multiline value", m, "<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>a.txt</arg_value>\n<arg_key>content</arg_key>\n<arg_value>one\ntwo</arg_value>\n</tool_call>", nil, calls(call("write_file", "path", "a.txt", "content", "one\ntwo"))},
	})
}

// Llama 3.1/3.2/3.3 (Meta's model cards' prompt formats: {"name": N, "parameters": {…}} JSON,
// <|python_tag|>, <function=N>{…}</function>, Llama 3.2's and 4's pythonic [f(a=1)] lists,
// vLLM's llama3_json parser accepting several objects separated by ';').
func TestVariantsLlama(t *testing.T) {
	m := "llama-3.3-70b-instruct"
	runVariants(t, []variant{
		{"json parameters", m, `{"name": "read_file", "parameters": {"path": "a.go"}}`, nil, calls(readA)},
		{"json type function", m, `{"type": "function", "name": "read_file", "parameters": {"path": "a.go"}}`, nil, calls(readA)},
		{"python_tag json", m, `<|python_tag|>{"name": "read_file", "parameters": {"path": "a.go"}}<|eom_id|>`, nil, calls(readA)},
		{"python_tag json eot", m, `<|python_tag|>{"name": "read_file", "parameters": {"path": "a.go"}}<|eot_id|>`, nil, calls(readA)},
		{"function tag", m, `<function=read_file>{"path": "a.go"}</function>`, nil, calls(readA)},
		{"json semicolons", m, `{"name": "read_file", "parameters": {"path": "a.go"}}; {"name": "bash", "parameters": {"command": "ls -la"}}`, nil, calls(readA, lsla)},
		{"json parameters as string", m, `{"name": "read_file", "parameters": "{\"path\": \"a.go\"}"}`, nil, calls(readA)},
		{"pythonic list", "llama-3.2-3b-instruct", `[read_file(path="a.go")]`, nil, calls(readA)},
		{"llama4 pythonic", "llama-4-scout", `[read_file(path="a.go"), bash(command="ls -la")]`, nil, calls(readA, lsla)},
		{"llama4 python_start", "llama-4-scout", `<|python_start|>[read_file(path="a.go")]<|python_end|>`, nil, calls(readA)},
		{"json after prose", m, "I will read the file.\n\n{\"name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}", nil, calls(readA)},
		{"json fenced", m, "```json\n{\"name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}\n```", nil, calls(readA)},
	})
}

// Mistral (mistral-common's tokenizer docs: [TOOL_CALLS][{"name":…,"arguments":…}] before v11,
// [TOOL_CALLS]NAME[ARGS]{…} from v11, [CALL_ID] in v13; Devstral the same).
func TestVariantsMistral(t *testing.T) {
	m := "mistral-small-3.2-24b"
	runVariants(t, []variant{
		{"v3 array", m, `[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "a.go"}}]`, nil, calls(readA)},
		{"v3 array two", m, `[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "a.go"}}, {"name": "bash", "arguments": {"command": "ls -la"}}]`, nil, calls(readA, lsla)},
		{"v11", m, `[TOOL_CALLS]read_file[ARGS]{"path": "a.go"}`, nil, calls(readA)},
		{"v11 two", m, `[TOOL_CALLS]read_file[ARGS]{"path": "a.go"}[TOOL_CALLS]bash[ARGS]{"command": "ls -la"}`, nil, calls(readA, lsla)},
		{"v13 call id", m, `[TOOL_CALLS]read_file[CALL_ID]a1b2c3d4e[ARGS]{"path": "a.go"}`, nil, calls(readA)},
		{"after prose", "devstral-small-2505", "I'll read it.[TOOL_CALLS]read_file[ARGS]{\"path\": \"a.go\"}</s>", nil, calls(readA)},
		{"token stripped array", m, `[{"name": "read_file", "arguments": {"path": "a.go"}}]`, nil, calls(readA)},
		{"token stripped v11", m, `read_file[ARGS]{"path": "a.go"}`, nil, calls(readA)},
		{"v11 with space", m, `[TOOL_CALLS] read_file [ARGS] {"path": "a.go"}`, nil, calls(readA)},
	})
}

// DeepSeek V3 / V3.1 / R1 (their chat templates), Kimi K2 (its tool-call guide), gpt-oss harmony
// (OpenAI's harmony format guide), MiniMax M2 (its tool-calling guide), Granite 3.x/4 (IBM's
// prompt docs: <|tool_call|>[…] and Hermes-style <tool_call>), Hermes 2/3.
func TestVariantsMarkerFamilies(t *testing.T) {
	B, S, E := "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
	runVariants(t, []variant{
		{"deepseek v3", "deepseek-v3", B + "function" + S + "read_file\n```json\n{\"path\": \"a.go\"}\n```" + E, nil, calls(readA)},
		{"deepseek v31", "deepseek-v3.1", B + "read_file" + S + `{"path": "a.go"}` + E, nil, calls(readA)},
		{"deepseek ascii bars", "deepseek-v3.1", "<|tool▁calls▁begin|><|tool▁call▁begin|>read_file<|tool▁sep|>{\"path\": \"a.go\"}<|tool▁call▁end|><|tool▁calls▁end|>", nil, calls(readA)},
		{"deepseek underscores", "deepseek-v3.1", "<|tool_calls_begin|><|tool_call_begin|>read_file<|tool_sep|>{\"path\": \"a.go\"}<|tool_call_end|><|tool_calls_end|>", nil, calls(readA)},
		{"deepseek r1 after think", "deepseek-r1", "<think>ok</think>" + B + "function" + S + "read_file\n```json\n{\"path\": \"a.go\"}\n```" + E, nil, calls(readA)},
		{"kimi", "kimi-k2-instruct", `<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{"path": "a.go"}<|tool_call_end|><|tool_calls_section_end|>`, nil, calls(readA)},
		{"kimi two", "kimi-k2-instruct", `<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{"path": "a.go"}<|tool_call_end|><|tool_call_begin|>functions.bash:1<|tool_call_argument_begin|>{"command": "ls -la"}<|tool_call_end|><|tool_calls_section_end|>`, nil, calls(readA, lsla)},
		{"kimi no section", "kimi-k2-instruct", `<|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{"path": "a.go"}<|tool_call_end|>`, nil, calls(readA)},
		{"kimi bare name", "kimi-k2-instruct", `<|tool_calls_section_begin|><|tool_call_begin|>read_file:0<|tool_call_argument_begin|>{"path": "a.go"}<|tool_call_end|><|tool_calls_section_end|>`, nil, calls(readA)},
		{"harmony", "gpt-oss-20b", `<|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path": "a.go"}<|call|>`, nil, calls(readA)},
		{"harmony after analysis", "gpt-oss-20b", `<|channel|>analysis<|message|>Need to read.<|end|><|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path": "a.go"}<|call|>`, nil, calls(readA)},
		{"harmony recipient in header", "gpt-oss-20b", `<|start|>assistant to=functions.read_file<|channel|>commentary json<|message|>{"path": "a.go"}<|call|>`, nil, calls(readA)},
		{"harmony no constrain", "gpt-oss-20b", `<|channel|>commentary to=functions.read_file<|message|>{"path": "a.go"}<|call|>`, nil, calls(readA)},
		{"harmony tokens stripped", "gpt-oss-20b", `analysisNeed to read the file.assistantcommentary to=functions.read_file json{"path": "a.go"}`, nil, calls(readA)},
		{"harmony tokens stripped constrain", "gpt-oss-20b", `commentary to=functions.read_file <|constrain|>json{"path": "a.go"}`, nil, calls(readA)},
		{"harmony no call token", "gpt-oss-20b", `<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path": "a.go"}`, nil, calls(readA)},
		{"harmony container.exec", "gpt-oss-20b", `<|channel|>commentary to=container.exec <|constrain|>json<|message|>{"cmd": ["bash", "-lc", "ls -la"]}<|call|>`, nil, calls(lsla)},
		{"harmony to= in structured name", "gpt-oss-20b", "", []QuotedCall{{Name: "read_file<|channel|>commentary", Args: `{"path": "a.go"}`}}, calls(readA)},
		{"minimax m2", "minimax-m2", "<minimax:tool_call>\n<invoke name=\"read_file\">\n<parameter name=\"path\">a.go</parameter>\n</invoke>\n</minimax:tool_call>", nil, calls(readA)},
		{"minimax m2 after think", "minimax-m2", "<think>ok</think>\n<minimax:tool_call>\n<invoke name=\"read_file\">\n<parameter name=\"path\">a.go</parameter>\n</invoke>\n<invoke name=\"bash\">\n<parameter name=\"command\">ls -la</parameter>\n</invoke>\n</minimax:tool_call>", nil, calls(readA, lsla)},
		{"granite3", "granite-3.3-8b-instruct", `<|tool_call|>[{"name": "read_file", "arguments": {"path": "a.go"}}]`, nil, calls(readA)},
		{"granite4", "granite-4.0-h-small", "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>", nil, calls(readA)},
		{"hermes3", "hermes-3-llama-3.1-8b", "<tool_call>\n{'arguments': {'path': 'a.go'}, 'name': 'read_file'}\n</tool_call>", nil, calls(readA)},
		{"claude function_calls", "claude-sonnet-4", "<function_calls>\n<invoke name=\"Read\">\n<parameter name=\"file_path\">a.go</parameter>\n</invoke>\n</function_calls>", nil, calls(readA)},
		{"claude antml", "claude-sonnet-4", "<" + A + "function_calls>\n<" + A + "invoke name=\"Bash\">\n<" + A + "parameter name=\"command\">ls -la</" + A + "parameter>\n</" + A + "invoke>\n</" + A + "function_calls>", nil, calls(lsla)},
		{"claude invoke two", "claude-sonnet-4", "<function_calls>\n<invoke name=\"Read\">\n<parameter name=\"file_path\">a.go</parameter>\n</invoke>\n<invoke name=\"Bash\">\n<parameter name=\"command\">ls -la</parameter>\n</invoke>\n</function_calls>", nil, calls(readA, lsla)},
		{"claude invoke unclosed", "claude-sonnet-4", "<function_calls>\n<invoke name=\"Read\">\n<parameter name=\"file_path\">a.go</parameter>\n</invoke>", nil, calls(readA)},
		{"claude invoke json param", "claude-sonnet-4", "<function_calls>\n<invoke name=\"Read\">\n<parameter name=\"file_path\">a.go</parameter>\n<parameter name=\"limit\">20</parameter>\n</invoke>\n</function_calls>", nil, calls(call("read_file", "path", "a.go", "limit", 20.0))},
		{"claude legacy invoke", "claude-3-opus", "<function_calls>\n<invoke>\n<tool_name>Read</tool_name>\n<parameters>\n<file_path>a.go</file_path>\n</parameters>\n</invoke>\n</function_calls>", nil, calls(readA)},
		{"claude legacy two params", "claude-3-opus", "<function_calls>\n<invoke>\n<tool_name>read_file</tool_name>\n<parameters>\n<path>a.go</path>\n<limit>20</limit>\n</parameters>\n</invoke>\n</function_calls>", nil, calls(call("read_file", "path", "a.go", "limit", 20.0))},
		{"claude legacy unclosed", "claude-3-opus", "<function_calls>\n<invoke>\n<tool_name>Bash</tool_name>\n<parameters>\n<command>ls -la</command>\n</parameters>\n</invoke>", nil, calls(lsla)},
	})
}

// A is the namespace prefix Anthropic's own prompt format writes before its tags.
const A = "antml:"

// More Gemma 4 bodies (its template's grammar: keys bare, strings between <|"|> tokens, the
// other values JSON), and calls that sit in the reasoning field with no answer text (Qwen3's
// and DeepSeek R1's <think>, gpt-oss's analysis channel, as servers split them out).
func TestVariantsGemmaBodiesAndReasoning(t *testing.T) {
	m := "gemma-4-31b"
	Q := `<|"|>`
	runVariants(t, []variant{
		{"gemma4 quotes inside a value", m, "<|tool_call>call:write_file{content:" + Q + `say "hi"` + Q + ",file_path:" + Q + "a.txt" + Q + "}<tool_call|>", nil, calls(call("write_file", "path", "a.txt", "content", `say "hi"`))},
		{"gemma4 quoted keys", m, `<|tool_call>call:read_file{"path": "a.go"}<tool_call|>`, nil, calls(readA)},
		{"gemma4 nested list", m, "<|tool_call>call:read_many_files{paths:[" + Q + "a.go" + Q + "," + Q + "b.go" + Q + "]}<tool_call|>", nil, calls(readA, call("read_file", "path", "b.go"))},
		{"gemma4 qwen code names", m, "<|tool_call>call:run_shell_command{command:" + Q + "ls -la" + Q + ",description:" + Q + "List" + Q + "}<tool_call|>", nil, calls(lsla)},
		{"gemma3 python fence", "gemma3:27b", "```python\nprint(default_api.read_file(path='a.go'))\n```", nil, calls(readA)},
	})
	replayVariants(t, []variant{
		{"gemma4 in reasoning", m, "<|tool_call>call:read_file{path:" + Q + "a.go" + Q + "}<tool_call|>", nil, calls(readA)},
		{"qwen3 call in reasoning", "qwen3-8b", "I need the file.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>", nil, calls(readA)},
		{"coder call in reasoning", "qwen3-coder-30b", "Let me look.\n<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>", nil, calls(readA)},
		{"glm call in reasoning", "glm-4.5-air", "Reading it.<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a.go</arg_value>\n</tool_call>", nil, calls(readA)},
		{"harmony call in reasoning", "gpt-oss-20b", `Need to read. <|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path": "a.go"}<|call|>`, nil, calls(readA)},
	}, true)
}
