package main

import "testing"

// Documented call forms, one row per form and documented variant, each from the format's own
// definition: model cards and prompt-format pages, chat templates, and the parser source of
// vLLM, SGLang (its Rust port in lightseekorg/smg crates/tool_parser), llama.cpp
// (common/chat.cpp) and Ollama (model/parsers). bench/repair/FORMATS.md maps each family to
// its forms, their sources, the scanner that reads them and the row here.

// Llama 3.1 / 3.2 / 3.3 (meta-llama/llama-models models/llama3_1/prompt_format.md,
// llama3_2/text_prompt_format.md, llama3_3/prompt_format.md, models/llama3/tool_utils.py) and
// Llama 4 (llama4/prompt_format.md, llama4/chat_format.py).
func TestDocsLlama(t *testing.T) {
	m31, m32, m4 := "llama-3.1-70b-instruct", "llama-3.2-3b-instruct", "llama-4-scout-17b-16e-instruct"
	twoRead := calls(call("read_file", "path", "a.go"), call("read_file", "path", "b.go"))
	runVariants(t, []variant{
		// JSON based tool calling: <|python_tag|>{"type","name","parameters"} with a line break
		// per key, <|eom_id|> (Environment: ipython) or <|eot_id|>.
		{"llama31 python_tag json multiline", m31, "<|python_tag|>{\n    \"type\": \"function\",\n    \"name\": \"read_file\",\n    \"parameters\": {\n        \"path\": \"a.go\"\n    }\n}<|eom_id|>", nil, calls(readA)},
		{"llama31 json without tag eot", m31, "{\"type\": \"function\", \"name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}<|eot_id|>", nil, calls(readA)},
		{"llama31 json name parameters only", m31, `{"name": "read_file", "parameters": {"path": "a.go"}}`, nil, calls(readA)},
		{"llama31 json parameter values as strings", m31, "<|python_tag|>{\"type\": \"function\", \"name\": \"read_file\", \"parameters\": {\"path\": \"a.go\", \"limit\": \"20\"}}<|eom_id|>", nil, calls(call("read_file", "path", "a.go", "limit", 20.0))},
		{"llama31 python_tag arguments key", m31, `<|python_tag|>{"name": "read_file", "arguments": {"path": "a.go"}}<|eom_id|>`, nil, calls(readA)},
		{"llama31 python_tag no end token", m31, `<|python_tag|>{"name": "read_file", "parameters": {"path": "a.go"}}`, nil, calls(readA)},
		{"llama31 assistant header leaked", m31, "<|start_header_id|>assistant<|end_header_id|>\n\n<|python_tag|>{\"name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}<|eom_id|>", nil, calls(readA)},
		{"llama31 python_tag semicolons", m31, `<|python_tag|>{"name": "read_file", "parameters": {"path": "a.go"}}; {"name": "read_file", "parameters": {"path": "b.go"}}<|eom_id|>`, nil, twoRead},
		// <function> based tool calling: one line, ended by <|eot_id|> (3.1/3.3) or <|eot|> (4).
		{"llama31 function tag eot", m31, `<function=read_file>{"path": "a.go"}</function><|eot_id|>`, nil, calls(readA)},
		{"llama4 function tag eot", m4, `<function=read_file>{"path": "a.go"}</function><|eot|>`, nil, calls(readA)},
		{"llama function tag single quotes", m31, `<function=read_file>{'path': 'a.go'}</function>`, nil, calls(readA)},
		{"llama function tag two", m31, "<function=read_file>{\"path\": \"a.go\"}</function>\n<function=read_file>{\"path\": \"b.go\"}</function>", nil, twoRead},
		{"llama function tag closed by gt", m31, `<function=read_file>{"path": "a.go"}>`, nil, calls(readA)},
		{"llama function tag unclosed", m31, `<function=read_file>{"path": "a.go"}`, nil, calls(readA)},
		{"llama function tag after prose", m31, "Reading it now.\n<function=read_file>{\"path\": \"a.go\"}</function>", nil, calls(readA)},
		// Llama 3.2 / 3.3 zero-shot: a Python list of keyword calls, single or double quotes,
		// ended by <|eot_id|>; Llama 4 the same with <|eot|>.
		{"llama32 pythonic single quotes eot", m32, `[read_file(path='a.go', limit=20)]<|eot_id|>`, nil, calls(call("read_file", "path", "a.go", "limit", 20.0))},
		{"llama32 pythonic two same tool", m32, `[read_file(path='a.go'), read_file(path='b.go')]<|eot_id|>`, nil, twoRead},
		{"llama33 pythonic int arg", "llama-3.3-70b-instruct", `[read_file(path="a.go", offset=10)]<|eot_id|>`, nil, calls(call("read_file", "path", "a.go", "offset", 10.0))},
		{"llama4 pythonic eot", m4, `[read_file(path="a.go"), bash(command="ls -la")]<|eot|>`, nil, calls(readA, lsla)},
		{"llama4 pythonic eom", m4, `[read_file(path="a.go")]<|eom|>`, nil, calls(readA)},
		// Llama 4's <|python_start|> … <|python_end|> around the call (chat_format.py strips
		// them, then reads the same JSON, <function=…> or list forms).
		{"llama4 python_start json", m4, `<|python_start|>{"name": "read_file", "parameters": {"path": "a.go"}}<|python_end|><|eom|>`, nil, calls(readA)},
		{"llama4 python_start function tag", m4, `<|python_start|><function=read_file>{"path": "a.go"}</function><|python_end|>`, nil, calls(readA)},
		{"llama4 python_start list no end", m4, `<|python_start|>[read_file(path="a.go")]`, nil, calls(readA)},
		// A dict value (env) is read as a dict; troupe's bash folds it into the command.
		{"llama4 python_start dict arg", m4, `<|python_start|>[bash(command="ls -la", env={"A": "1"})]<|python_end|>`, nil, calls(call("bash", "command", "export A=1; ls -la"))},
		{"llama4 header leaked", m4, "<|header_start|>assistant<|header_end|>\n\n[read_file(path=\"a.go\")]<|eot|>", nil, calls(readA)},
		// Python literals the list form allows (tool_utils.py: ast.literal_eval of each keyword).
		// (case_insensitive=True becomes troupe grep's (?i) flag.)
		{"llama pythonic booleans", m32, `[grep(pattern="foo", path="src", case_insensitive=True)]`, nil, calls(call("grep", "pattern", "(?i)foo", "path", "src"))},
	})
}

// gpt-oss Harmony (openai/harmony's format guide, "Receiving tool calls": the recipient in the
// role or the channel section of the header, <|constrain|> naming the input type; llama.cpp
// common_chat_params_init_gpt_oss: constrain type any [A-Za-z0-9_-]+ with or without the
// token, commentary or analysis channel, a stray "<|channel|>commentary to=assistant").
func TestDocsHarmony(t *testing.T) {
	m := "gpt-oss-20b"
	runVariants(t, []variant{
		{"harmony doc example", m, `<|channel|>analysis<|message|>Need to use function read_file.<|end|><|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"a.go"}<|call|>`, nil, calls(readA)},
		{"harmony preamble then call", m, "<|channel|>commentary<|message|>**Action plan**: read a.go.\nWill start executing the plan step by step<|end|><|start|>assistant<|channel|>commentary to=functions.read_file<|constrain|>json<|message|>{\"path\": \"a.go\"}<|call|>", nil, calls(readA)},
		{"harmony recipient in role constrain token", m, `<|start|>assistant to=functions.read_file<|channel|>commentary <|constrain|>json<|message|>{"path":"a.go"}<|call|>`, nil, calls(readA)},
		{"harmony recipient in role no constrain", m, `<|start|>assistant to=functions.read_file<|channel|>commentary<|message|>{"path":"a.go"}<|call|>`, nil, calls(readA)},
		// The generation prompt ends with <|start|>assistant, so the reply itself opens with the
		// role position's recipient (llama.cpp's tool_in_role after its "<|start|>assistant").
		{"harmony reply opens in role header", m, ` to=functions.read_file<|channel|>commentary <|constrain|>json<|message|>{"path":"a.go"}<|call|>`, nil, calls(readA)},
		{"harmony reply opens with channel", m, `<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"a.go"}`, nil, calls(readA)},
		{"harmony analysis channel call", m, `<|channel|>analysis to=functions.read_file <|constrain|>json<|message|>{"path":"a.go"}<|call|>`, nil, calls(readA)},
		{"harmony constrain without token", m, `<|channel|>commentary to=functions.read_file json<|message|>{"path":"a.go"}<|call|>`, nil, calls(readA)},
		{"harmony stray commentary prefix", m, `<|channel|>commentary to=assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"a.go"}<|call|>`, nil, calls(readA)},
		{"harmony ended by end token", m, `<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"a.go"}<|end|>`, nil, calls(readA)},
		{"harmony two calls", m, `<|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"a.go"}<|call|><|start|>assistant<|channel|>commentary to=functions.bash <|constrain|>json<|message|>{"command":"ls -la"}<|call|>`, nil, calls(readA, lsla)},
		// Servers that drop the special tokens (decoded with skip_special_tokens) leave the words.
		{"harmony stripped role recipient", m, `assistant to=functions.read_file commentary json{"path":"a.go"}`, nil, calls(readA)},
		{"harmony stripped analysis then call", m, `analysisNeed to read a.go.assistantcommentary to=functions.read_file <|constrain|>json{"path":"a.go"}`, nil, calls(readA)},
		// Stripping the tokens glues the header words to the recipient where the guide writes
		// none between them ("to=functions.generate_file<|constrain|>json").
		{"harmony stripped glued json", m, `commentary to=functions.read_filejson{"path":"a.go"}`, nil, calls(readA)},
		{"harmony stripped glued channel", m, `assistant to=functions.read_filecommentary json{"path":"a.go"}`, nil, calls(readA)},
		{"harmony stripped no content type", m, `commentary to=functions.read_file {"path":"a.go"}`, nil, calls(readA)},
		// Codex-style container.exec (argv in "cmd"); the guide's python and browser built-ins
		// have no troupe tool and are checked in tools/textcall's TestParse_DocumentedForms.
		{"harmony container.exec", m, `<|start|>assistant<|channel|>commentary to=container.exec <|constrain|>json<|message|>{"cmd":["bash","-lc","ls -la"]}<|call|>`, nil, calls(lsla)},
	})
}

// Mistral / Devstral / Magistral / Ministral (mistral-common experimental/tools.py: v2–v7
// [TOOL_CALLS][{"name","arguments"(,"id")}], v11+ [TOOL_CALLS]NAME[ARGS]{…} and
// [TOOL_CALLS]NAME[CALL_ID]id[ARGS]{…}; template_generator.py: the SentencePiece " [" space,
// one [TOOL_CALLS] per call from v11; llama.cpp and Ollama's ministral parsers: [THINK]…[/THINK]).
func TestDocsMistral(t *testing.T) {
	m := "mistral-small-3.2-24b-instruct"
	runVariants(t, []variant{
		{"mistral v3 spm space with ids", "mistral-7b-instruct-v0.3", `[TOOL_CALLS] [{"name": "read_file", "arguments": {"path": "a.go"}, "id": "a1B2c3D4e"}]</s>`, nil, calls(readA)},
		{"mistral v7 no space id first", "mistral-large-2411", `[TOOL_CALLS][{"id": "a1B2c3D4e", "name": "read_file", "arguments": {"path": "a.go"}}, {"id": "f5G6h7I8j", "name": "bash", "arguments": {"command": "ls -la"}}]`, nil, calls(readA, lsla)},
		{"mistral v11 call id two", m, `[TOOL_CALLS]read_file[CALL_ID]a1B2c3D4e[ARGS]{"path": "a.go"}[TOOL_CALLS]bash[CALL_ID]f5G6h7I8j[ARGS]{"command": "ls -la"}`, nil, calls(readA, lsla)},
		{"mistral v13 no call id eos", "devstral-small-2507", `[TOOL_CALLS]read_file[ARGS]{"path": "a.go"}</s>`, nil, calls(readA)},
		{"magistral think then call", "magistral-small-2509", "[THINK]I should read a.go first.[/THINK][TOOL_CALLS]read_file[ARGS]{\"path\": \"a.go\"}", nil, calls(readA)},
		{"ministral3 think then two calls", "ministral-3-14b-reasoning", "[THINK]Read then list.[/THINK]Sure.[TOOL_CALLS]read_file[ARGS]{\"path\": \"a.go\"}[TOOL_CALLS]bash[ARGS]{\"command\": \"ls -la\"}", nil, calls(readA, lsla)},
		{"mistral v11 multiline args", "devstral-small-2505", "[TOOL_CALLS]write_file[ARGS]{\"path\": \"a.txt\", \"content\": \"one\\ntwo\"}", nil, calls(call("write_file", "path", "a.txt", "content", "one\ntwo"))},
		{"mistral tokens ignored array", "mistral-7b-instruct-v0.3", ` [{"name": "read_file", "arguments": {"path": "a.go"}, "id": "a1B2c3D4e"}]`, nil, calls(readA)},
		{"mistral tokens ignored v11 name then args", "devstral-small-2507", `read_file{"path": "a.go"}`, nil, calls(readA)},
	})
}

// Granite 3.x / 4 (ibm-granite model cards and chat templates: <|tool_call|>[…] in 3.x, Hermes
// <tool_call> in 4.0), Phi-4-mini (its model card: <|tool_call|>[…]<|/tool_call|>; vLLM's
// phi4mini parser: functools[…]), Command R / R+ / R7B / A (Cohere's prompt docs "Action:
// ```json", CMD3/CMD4 <|START_ACTION|>…<|END_ACTION|> with tool_name and parameters, an
// object or a list), Nemotron (<TOOLCALL>[…]</TOOLCALL>; Nemotron 3 Nano's Ollama parser:
// <tool_call><function=…>), Seed-OSS (ByteDance-Seed chat template: <seed:tool_call>, thinking in
// <seed:think>), OLMo 3 (Ollama olmo3.go: Python calls in <function_calls>), xLAM and Hermes.
func TestDocsOtherFamilies(t *testing.T) {
	runVariants(t, []variant{
		{"granite3 tool_call list two", "granite-3.2-8b-instruct", `<|tool_call|>[{"name": "read_file", "arguments": {"path": "a.go"}}, {"name": "bash", "arguments": {"command": "ls -la"}}]`, nil, calls(readA, lsla)},
		{"granite3 tool_call after text", "granite-3.3-8b-instruct", "I'll read the file.<|tool_call|>[{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}]<|end_of_text|>", nil, calls(readA)},
		{"granite4 hermes two", "granite-4.0-h-tiny", "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls -la\"}}\n</tool_call>", nil, calls(readA, lsla)},
		{"phi4 mini two", "phi-4-mini-instruct", `<|tool_call|>[{"name": "read_file", "arguments": {"path": "a.go"}}, {"name": "bash", "arguments": {"command": "ls -la"}}]<|/tool_call|>`, nil, calls(readA, lsla)},
		{"phi4 functools", "phi-4-mini-instruct", `functools[{"name": "read_file", "arguments": {"path": "a.go"}}]`, nil, calls(readA)},
		{"phi4 functools two", "phi-4-mini-instruct", `functools[{"name": "read_file", "arguments": {"path": "a.go"}}, {"name": "bash", "arguments": {"command": "ls -la"}}]`, nil, calls(readA, lsla)},
		{"phi4 tool_call end token", "phi-4-mini-instruct", `<|tool_call|>[{"name": "read_file", "arguments": {"path": "a.go"}}]<|/tool_call|><|end|>`, nil, calls(readA)},
		{"command r action fence", "command-r-plus-08-2024", "Action: ```json\n[\n    {\n        \"tool_name\": \"read_file\",\n        \"parameters\": {\"path\": \"a.go\"}\n    },\n    {\n        \"tool_name\": \"bash\",\n        \"parameters\": {\"command\": \"ls -la\"}\n    }\n]\n```", nil, calls(readA, lsla)},
		{"command r plan then action", "command-r-08-2024", "Plan: First I will read the file.\nAction: ```json\n[{\"tool_name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}]\n```", nil, calls(readA)},
		{"command a action object", "command-a-03-2025", "<|START_ACTION|>\n{\"tool_name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}\n<|END_ACTION|>", nil, calls(readA)},
		{"command a thinking then action list", "command-a-reasoning-08-2025", "<|START_THINKING|>I need the file.<|END_THINKING|><|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}},\n    {\"tool_call_id\": \"1\", \"tool_name\": \"bash\", \"parameters\": {\"command\": \"ls -la\"}}\n]<|END_ACTION|><|END_OF_TURN_TOKEN|>", nil, calls(readA, lsla)},
		{"command r7b response then action", "command-r7b-12-2024", "<|START_RESPONSE|>Let me check.<|END_RESPONSE|><|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}]<|END_ACTION|>", nil, calls(readA)},
		{"nemotron toolcall two", "llama-3.1-nemotron-nano-8b-v1", `<TOOLCALL>[{"name": "read_file", "arguments": {"path": "a.go"}}, {"name": "bash", "arguments": {"command": "ls -la"}}]</TOOLCALL>`, nil, calls(readA, lsla)},
		{"nemotron toolcall after think", "llama-3.3-nemotron-super-49b-v1.5", "<think>\nRead it.\n</think>\n<TOOLCALL>[{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}]</TOOLCALL>", nil, calls(readA)},
		{"nemotron3 nano coder form", "nemotron-3-nano-30b-a3b", "<think>\nRead it.\n</think>\n<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>", nil, calls(readA)},
		{"seed-oss think then call", "seed-oss-36b-instruct", "<seed:think>\nI need a.go.\n</seed:think>\n<seed:tool_call>\n<function=read_file>\n<parameter=path>a.go</parameter>\n</function>\n</seed:tool_call>", nil, calls(readA)},
		{"seed-oss two functions", "seed-oss-36b-instruct", "<seed:tool_call>\n<function=read_file>\n<parameter=path>a.go</parameter>\n</function>\n</seed:tool_call>\n<seed:tool_call>\n<function=bash>\n<parameter=command>ls -la</parameter>\n</function>\n</seed:tool_call>", nil, calls(readA, lsla)},
		{"olmo3 function_calls python", "olmo-3-7b-instruct", "<function_calls>read_file(path=\"a.go\")\nbash(command=\"ls -la\")</function_calls>", nil, calls(readA, lsla)},
		{"xlam object list two", "xlam-2-8b-fc-r", `[{"name": "read_file", "arguments": {"path": "a.go"}}, {"name": "bash", "arguments": {"command": "ls -la"}}]`, nil, calls(readA, lsla)},
		{"hermes2 pro tool_call", "hermes-2-pro-llama-3-8b", "<tool_call>\n{\"arguments\": {\"path\": \"a.go\"}, \"name\": \"read_file\"}\n</tool_call>", nil, calls(readA)},
		{"sarashina python dict list", "sarashina2.2-3b-instruct", `<|tool_calls|>[{'name': 'read_file', 'arguments': {'path': 'a.go'}}]`, nil, calls(readA)},
		{"lfm2 python list", "lfm2-1.2b", `<|tool_call_start|>[read_file(path="a.go"), bash(command="ls -la")]<|tool_call_end|>`, nil, calls(readA, lsla)},
		{"lfm2 after think", "lfm2.5-1.2b-thinking", "<think>Read it.</think><|tool_call_start|>[read_file(path=\"a.go\")]<|tool_call_end|>", nil, calls(readA)},
	})
}

// DeepSeek V3.2 / V4 (their DSML encoding: <｜DSML｜function_calls> in V3.2, <｜DSML｜tool_calls>
// in V4, parameters with string="true|false"; smg deepseek_dsml.rs), Kimi K2 (its tool-call
// guide), MiniMax M2 (its tool-calling guide), GLM-4.5/4.6/4.7 and Qwen3-Coder (their chat
// templates and vLLM parsers).
func TestDocsMarkerFamilies(t *testing.T) {
	D := "｜DSML｜"
	runVariants(t, []variant{
		{"deepseek v32 dsml", "deepseek-v3.2", "<" + D + "function_calls>\n<" + D + "invoke name=\"read_file\">\n<" + D + "parameter name=\"path\" string=\"true\">a.go</" + D + "parameter>\n<" + D + "parameter name=\"limit\" string=\"false\">20</" + D + "parameter>\n</" + D + "invoke>\n</" + D + "function_calls>", nil, calls(call("read_file", "path", "a.go", "limit", 20.0))},
		{"deepseek v4 dsml tool_calls", "deepseek-v4-flash", "<" + D + "tool_calls>\n<" + D + "invoke name=\"read_file\">\n<" + D + "parameter name=\"path\" string=\"true\">a.go</" + D + "parameter>\n</" + D + "invoke>\n<" + D + "invoke name=\"bash\">\n<" + D + "parameter name=\"command\" string=\"true\">ls -la</" + D + "parameter>\n</" + D + "invoke>\n</" + D + "tool_calls>", nil, calls(readA, lsla)},
		{"deepseek dsml json in invoke", "deepseek-v3.2", "<" + D + "function_calls>\n<" + D + "invoke name=\"read_file\">{\"path\": \"a.go\"}</" + D + "invoke>\n</" + D + "function_calls>", nil, calls(readA)},
		{"deepseek dsml non-string list", "deepseek-v3.2", "<" + D + "function_calls>\n<" + D + "invoke name=\"bash\">\n<" + D + "parameter name=\"command\" string=\"true\">ls -la</" + D + "parameter>\n<" + D + "parameter name=\"timeout\" string=\"false\">30</" + D + "parameter>\n</" + D + "invoke>\n</" + D + "function_calls>", nil, calls(call("bash", "command", "ls -la", "timeout_s", 30.0))},
		{"deepseek v31 two", "deepseek-v3.1", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{\"path\": \"a.go\"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>bash<｜tool▁sep｜>{\"command\": \"ls -la\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>", nil, calls(readA, lsla)},
		{"deepseek r1 0528 two", "deepseek-r1-0528", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file\n```json\n{\"path\": \"a.go\"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>bash\n```json\n{\"command\": \"ls -la\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>", nil, calls(readA, lsla)},
		{"kimi k2 after think", "kimi-k2-thinking", "<think>Read it.</think><|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{\"path\": \"a.go\"}<|tool_call_end|><|tool_calls_section_end|>", nil, calls(readA)},
		{"minimax m2 number param", "minimax-m2", "<minimax:tool_call>\n<invoke name=\"read_file\">\n<parameter name=\"path\">a.go</parameter>\n<parameter name=\"limit\">20</parameter>\n</invoke>\n</minimax:tool_call>", nil, calls(call("read_file", "path", "a.go", "limit", 20.0))},
		{"glm47 two inline", "glm-4.7", "<tool_call>read_file<arg_key>path</arg_key><arg_value>a.go</arg_value></tool_call><tool_call>bash<arg_key>command</arg_key><arg_value>ls -la</arg_value></tool_call>", nil, calls(readA, lsla)},
		{"step3 steptml", "step-3", "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"read_file\"><steptml:parameter name=\"path\">a.go</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>", nil, calls(readA)},
	})
}

// Newer families in the parsers' source: MiniMax-M3 (llama.cpp common_chat_params_init_minimax_m3:
// every tag after the "]<]minimax[>[" marker, parameters as tags named by the key, thinking
// in <mm:think>), Kimi-K3's XTML (smg kimi_k3.rs), Inkling's TML (smg inkling.rs), GigaChat 3
// (llama.cpp common_chat_params_init_gigachat_v3), MiroThinker's <use_mcp_tool> (llama.cpp
// common_chat_params_init_mirothinker) and Functionary v3.2's "all" channel.
func TestDocsNewerFamilies(t *testing.T) {
	N := "]<]minimax[>["
	runVariants(t, []variant{
		{"minimax m3", "minimax-m3", N + "<tool_call>\n" + N + "<invoke name=\"read_file\">\n" + N + "<path>a.go" + N + "</path>\n" + N + "</invoke>\n" + N + "</tool_call>", nil, calls(readA)},
		{"minimax m3 think then two", "minimax-m3", "<mm:think>Read, then list.</mm:think>\n" + N + "<tool_call>\n" + N + "<invoke name=\"read_file\">\n" + N + "<path>a.go" + N + "</path>\n" + N + "</invoke>\n" + N + "<invoke name=\"bash\">\n" + N + "<command>ls -la" + N + "</command>\n" + N + "</invoke>\n" + N + "</tool_call>", nil, calls(readA, lsla)},
		{"kimi k3 xtml", "kimi-k3", "<|open|>response<|sep|>Reading it.<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool=\"read_file\" index=\"0\"<|sep|><|open|>argument key=\"path\" type=\"string\"<|sep|>a.go<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>", nil, calls(readA)},
		{"kimi k3 xtml json arg", "kimi-k3", "<|open|>tools<|sep|><|open|>call tool=\"read_file\" index=\"0\"<|sep|><|open|>argument key=\"path\" type=\"string\"<|sep|>a.go<|close|>argument<|sep|><|open|>argument key=\"limit\" type=\"integer\"<|sep|>20<|close|>argument<|sep|><|close|>call<|sep|><|open|>call tool=\"bash\" index=\"1\"<|sep|><|open|>argument key=\"command\" type=\"string\"<|sep|>ls -la<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>", nil, calls(call("read_file", "path", "a.go", "limit", 20.0), lsla)},
		{"inkling tml json", "inkling-1", "<|message_model|>read_file<|content_invoke_tool_json|>{\"name\": \"read_file\", \"args\": {\"path\": \"a.go\"}}<|end_message|>", nil, calls(readA)},
		{"gigachat3 function call", "gigachat-3-lightning", "<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}", nil, calls(readA)},
		{"mirothinker use_mcp_tool", "mirothinker-v1.5", "<think>Read it.</think>\n<use_mcp_tool>\n<server_name>tools</server_name>\n<tool_name>read_file</tool_name>\n<arguments>\n{\"path\": \"a.go\"}\n</arguments>\n</use_mcp_tool>", nil, calls(readA)},
		// vLLM's tool parsers (vllm/entrypoints/openai/tool_parsers): minimax (MiniMax-M1, one
		// object a line in <tool_calls>), granite_20b_fc (<function_call> before each object),
		// apertus (<|tools_prefix|>[{"NAME": {…}}]<|tools_suffix|>), ernie45 (Hermes after </think>),
		// minicpm (MiniCPM3: Python calls in a ```python fence between <|tool_call_start|> tokens).
		{"minimax m1 lines", "minimax-m1-80k", "<think>Read, then list.</think>\n<tool_calls>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls -la\"}}\n</tool_calls>", nil, calls(readA, lsla)},
		{"granite 20b fc two", "granite-20b-functioncalling", "<function_call> {\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}} <function_call> {\"name\": \"bash\", \"arguments\": {\"command\": \"ls -la\"}}", nil, calls(readA, lsla)},
		{"apertus name keyed", "apertus-8b-instruct-2509", `<|tools_prefix|>[{"read_file": {"path": "a.go"}}, {"bash": {"command": "ls -la"}}]<|tools_suffix|>`, nil, calls(readA, lsla)},
		{"ernie45 after think", "ernie-4.5-21b-a3b-thinking", "I need the file.\n</think>\n\n\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>\n", nil, calls(readA)},
		{"longcat flash", "longcat-flash-chat", "<longcat_tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</longcat_tool_call>", nil, calls(readA)},
		{"minicpm3 python fence in lfm tokens", "minicpm3-4b", "<|thought_start|>I need the file.<|thought_end|><|tool_call_start|>```python\nread_file(path=\"a.go\")\n```<|tool_call_end|>", nil, calls(readA)},
		{"functionary v32 all then call", "functionary-small-v3.2", "all\nLet me read it.>>>read_file\n{\"path\": \"a.go\"}", nil, calls(readA)},
	})
}

// Gemma 4 (llama.cpp common_chat_params_init_gemma4, Ollama gemma4.go: call:NAME{…} with bare
// keys, <|"|> strings, JSON numbers, booleans, lists and nested dicts, an empty {} for no
// arguments, several calls back to back, thinking in <|channel>thought…<channel|>).
func TestDocsGemma4(t *testing.T) {
	m := "gemma-4-31b-it"
	Q := `<|"|>`
	runVariants(t, []variant{
		{"gemma4 no arguments", m, "<|tool_call>call:list_dir{}<tool_call|>", nil, calls(call("list_dir"))},
		{"gemma4 boolean", m, "<|tool_call>call:edit_file{path:" + Q + "a.go" + Q + ",old_string:" + Q + "x" + Q + ",new_string:" + Q + "y" + Q + ",replace_all:true}<tool_call|>", nil, calls(call("edit_file", "path", "a.go", "old_string", "x", "new_string", "y", "replace_all", true))},
		{"gemma4 empty thought then call", m, "<|channel>thought\n<channel|><|tool_call>call:read_file{path:" + Q + "a.go" + Q + "}<tool_call|>", nil, calls(readA)},
		{"gemma4 two back to back after text", m, "Reading both.<|tool_call>call:read_file{path:" + Q + "a.go" + Q + "}<tool_call|><|tool_call>call:read_file{path:" + Q + "b.go" + Q + "}<tool_call|>", nil, calls(readA, call("read_file", "path", "b.go"))},
	})
}
