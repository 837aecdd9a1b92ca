package main

import (
	"testing"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// Text-format rules added for issue 20's development misses, each in several spellings of
// its format's documentation, through the session's path (repair on).
func TestVariantsFormats(t *testing.T) {
	m := "some-local-model"
	lsBlank := call("bash", "command", "ls -la")
	runVariants(t, []variant{
		// Values written one per line in the template (Qwen3-Coder's "<parameter=K>\nV\n</parameter>",
		// GLM's <arg_value>, the invoke form) arrive with their line breaks flattened to one
		// space each side: the value is what sits between.
		{"qwen3-coder flattened", m, "<tool_call> <function=read_file> <parameter=path> a.go </parameter> </function> </tool_call>", nil, calls(readA)},
		{"qwen3-coder flattened two params", m, "<tool_call> <function=bash> <parameter=command> ls -la </parameter> <parameter=timeout> 30 </parameter> </function> </tool_call>", nil, calls(call("bash", "command", "ls -la", "timeout_s", float64(30)))},
		{"qwen3-coder flattened two calls", m, "<tool_call> <function=read_file> <parameter=path> a.go </parameter> </function> </tool_call> <tool_call> <function=bash> <parameter=command> ls -la </parameter> </function> </tool_call>", nil, calls(readA, lsBlank)},
		{"qwen3-coder line breaks kept", m, "<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\n  indented\n</parameter>\n</function>\n</tool_call>", nil, calls(call("write_file", "path", "a.txt", "content", "  indented"))},
		{"invoke flattened", m, `<function_calls> <invoke name="read_file"> <parameter name="path"> a.go </parameter> </invoke> </function_calls>`, nil, calls(readA)},
		{"glm flattened", "glm-4.6", "<tool_call>read_file <arg_key>path</arg_key> <arg_value> a.go </arg_value> </tool_call>", nil, calls(readA)},
	})
}

// The invoke form under any XML namespace prefix: Anthropic's antml:, Step-3's steptml:,
// MiniMax's minimax: wrapper, and others' own (hermes-agent#83824's atem:).
func TestVariantsInvokeNamespaces(t *testing.T) {
	m := "some-local-model"
	runVariants(t, []variant{
		{"atem wrapper", m, "<atem:function_calls>\n  <atem:invoke name=\"bash\">\n    <atem:parameter name=\"command\">ls -la</atem:parameter>\n  </atem:invoke>\n</atem:function_calls>", nil, calls(lsla)},
		{"other prefix no wrapper", m, `<acme:invoke name="read_file"><acme:parameter name="path">a.go</acme:parameter></acme:invoke>`, nil, calls(readA)},
		{"prefix tool_calls wrapper", m, "Reading it.\n<x-1:tool_calls><x-1:invoke name=\"read_file\">\n<x-1:parameter name=\"path\">a.go</x-1:parameter>\n</x-1:invoke></x-1:tool_calls>", nil, calls(readA)},
		{"two prefixes", m, "<a:invoke name=\"read_file\"><a:parameter name=\"path\">a.go</a:parameter></a:invoke>\n<b:invoke name=\"bash\"><b:parameter name=\"command\">ls -la</b:parameter></b:invoke>", nil, calls(readA, lsla)},
	})
}

// Gemini CLI's bracket line ([tool_call: NAME for 'V' because …]) in the spellings of its
// prompt's examples, translations and forks: a reason after the value ("because …", "to …",
// after a full-width comma), "with KEY 'V'" for the named value, and "with KEY: 'V'" clauses.
func TestVariantsToolCallLines(t *testing.T) {
	m := "gemma-4-12b-it"
	runVariants(t, []variant{
		{"because reason", m, "[tool_call: run_shell_command for 'ls -la' because it lists the files]", nil, calls(lsla)},
		{"reason with apostrophe", m, "[tool_call: run_shell_command for 'ls -la' because it's quick]", nil, calls(lsla)},
		{"to reason", m, "[tool_call: read_file for \"a.go\" to get current state]", nil, calls(readA)},
		{"full-width comma reason", m, "[tool_call: run_shell_command for 'ls -la'，因為需要背景執行]", nil, calls(lsla)},
		{"with description clause", m, "I'll run it.\n    [tool_call: run_shell_command for 'ls -la' with description: 'Lists the files']", nil, calls(lsla)},
		{"with key", m, "[tool_call: glob with pattern \"**/*.go\" to find the sources]", nil, calls(call("glob", "pattern", "**/*.go"))},
		{"for key then with clause", m, "[tool_call: read_file for absolute_path '/a.go' with limit: '5']", nil, calls(call("read_file", "path", "/a.go", "limit", float64(5)))},
	})
}

// One element whose attributes carry the call: the Hermes tag with the name as an attribute
// and the JSON body (Memoh#435, DeepSeek V4), Cline / Roo / Kilo's XML tool use with the
// argument tags written as attributes (inferencer-feedback#74, Olmo 3.1), Granite's list
// lacking its closing bracket (llama-box#17), and the {"tool_name", "tool_args"} reply that
// agent prompts teach (camel#3086 and others).
func TestVariantsAttributeElements(t *testing.T) {
	m := "some-local-model"
	grep := call("grep", "pattern", "foo", "path", "src", "glob", "*.go")
	runVariants(t, []variant{
		{"tool_call name attr json body", m, "<tool_call id=\"call_00_x\" name=\"read_file\">\n{\"path\": \"a.go\"}\n</tool_call>", nil, calls(readA)},
		{"tool_call name attr unclosed", m, "<tool_call name='bash'>{\"command\": \"ls -la\"}", nil, calls(lsla)},
		{"function name attr", m, "<function name=\"read_file\">{\"path\": \"a.go\"}</function>", nil, calls(readA)},
		{"cline attrs self-closing", m, `<read_file path="a.go" />`, nil, calls(readA)},
		{"cline attrs open", m, "Listing.\n<execute_command command=\"ls -la\" requires_approval=\"false\">", nil, calls(lsla)},
		{"cline attrs closed empty", m, `<search_files path="src" regex="foo" file_pattern="*.go"></search_files>`, nil, calls(grep)},
		{"cline attrs entities", m, `<execute_command command="make &amp;&amp; ls -la"/>`, nil, calls(call("bash", "command", "make && ls -la"))},
		{"cline attrs task_progress", m, `<read_file path="a.go" task_progress="- [ ] Read a.go">`, nil, calls(readA)},
		{"granite tool_call list unclosed", "granite-3.1-8b-instruct", `<tool_call>[{"name": "read_file", "arguments": {"path": "a.go"}}]`, nil, calls(readA)},
		{"granite token list", "granite-3.0-8b-instruct", `<|tool_call|>[{"arguments": {"path": "a.go"}, "name": "read_file"}]`, nil, calls(readA)},
		{"granite list short of its bracket", "granite-3.1-8b-instruct", `<tool_call>[{"name": "read_file", "arguments": {"path": "a.go"}}`, nil, calls(readA)},
		{"granite two short of the bracket", "granite-3.1-8b-instruct", `<tool_call>[{"name": "read_file", "arguments": {"path": "a.go"}}, {"name": "bash", "arguments": {"command": "ls -la"}}`, nil, calls(readA, lsla)},
		{"tool_name tool_args", m, "{\n  \"server_idx\": 0,\n  \"tool_name\": \"read_file\",\n  \"tool_args\": {\"path\": \"a.go\"}\n}", nil, calls(readA)},
		{"tool_name tool_args fenced", m, "```tool_call\n{\"tool_name\": \"bash\", \"tool_args\": {\"command\": \"ls -la\"}}\n```", nil, calls(lsla)},
	})
}

// The Hermes wrapper around another family's marker-less syntax: the harness's prompt shows
// <tool_call>, the model writes the call the way it was trained (Llama 3.2 / LFM pythonic,
// Gemma 3 tool_code, NAME then its object).
func TestVariantsHermesOtherBodies(t *testing.T) {
	m := "some-local-model"
	runVariants(t, []variant{
		{"python call", m, `<tool_call>read_file(path="a.go")</tool_call>`, nil, calls(readA)},
		{"pythonic list", "llama-3.2-3b", "<tool_call>\n[read_file(path=\"a.go\"), bash(command=\"ls -la\")]\n</tool_call>", nil, calls(readA, lsla)},
		{"name colon object", m, `<tool_call>read_file: {"path": "a.go"}</tool_call>`, nil, calls(readA)},
		{"name object", m, "<tool_call>\nbash{\"command\": \"ls -la\"}\n</tool_call>", nil, calls(lsla)},
	})
}

// DeepSeek V3.2 / V4's DSML block with the full-width bar normalized to ASCII (NFKC), as its
// other tokens already arrive (<|tool▁call▁begin|>).
func TestVariantsDSMLNormalized(t *testing.T) {
	runVariants(t, []variant{
		{"dsml ascii bars", "deepseek-v3.2", "<|DSML|function_calls>\n<|DSML|invoke name=\"read_file\">\n<|DSML|parameter name=\"path\" string=\"true\">a.go</|DSML|parameter>\n</|DSML|invoke>\n</|DSML|function_calls>", nil, calls(readA)},
		{"dsml ascii tool_calls", "deepseek-v4-flash", "<|DSML|tool_calls>\n<|DSML|invoke name=\"bash\">\n<|DSML|parameter name=\"command\" string=\"true\">ls -la</|DSML|parameter>\n</|DSML|invoke>\n</|DSML|tool_calls>", nil, calls(lsla)},
	})
}

// Continue's labelled tool form without its ```tool fence; the invoke form's parameters under
// a name-attribute element; OpenAI's multi_tool_use.parallel wrapper (ChatGPT's function
// prompt, shared by gpt-oss's harmony tools); MemGPT's {"function", "params"}.
func TestVariantsUnwrappedAndWrappers(t *testing.T) {
	m := "some-local-model"
	parallel := `{"tool_uses": [{"recipient_name": "functions.read_file", "parameters": {"path": "a.go"}}, {"recipient_name": "functions.bash", "parameters": {"command": "ls -la"}}]}`
	runVariants(t, []variant{
		{"continue unfenced", m, "TOOL_NAME: read_file\nBEGIN_ARG: filepath\na.go\nEND_ARG", nil, calls(readA)},
		{"continue unfenced after prose", m, "I'll list it.\n\nTOOL_NAME: run_terminal_command\nBEGIN_ARG: command\nls -la\nEND_ARG\n", nil, calls(lsla)},
		{"continue unfenced two args", m, "TOOL_NAME: create_new_file\nBEGIN_ARG: filepath\na.txt\nEND_ARG\n\nBEGIN_ARG: contents\nhi\nthere\nEND_ARG", nil, calls(call("write_file", "path", "a.txt", "content", "hi\nthere"))},
		{"function name parameters", m, "<function name=\"read_file\">\n<parameter name=\"path\">a.go</parameter>\n</function>", nil, calls(readA)},
		{"tool_call name parameters", m, "<tool_call name=\"bash\">\n<parameter name=\"command\">ls -la</parameter>\n</tool_call>", nil, calls(lsla)},
		{"tool_call name child tags", m, "<tool_call name=\"read_file\">\n<path>a.go</path>\n</tool_call>", nil, calls(readA)},
		{"parallel bare", m, parallel, nil, calls(readA, lsla)},
		{"parallel harmony", "gpt-oss-20b", "<|channel|>commentary to=multi_tool_use.parallel <|constrain|>json<|message|>" + parallel + "<|call|>", nil, calls(readA, lsla)},
		{"parallel functions prefix", "gpt-oss-120b", "<|channel|>commentary to=functions.multi_tool_use.parallel <|constrain|>json<|message|>" + parallel + "<|call|>", nil, calls(readA, lsla)},
		{"memgpt params", m, `{"function": "read_file", "params": {"path": "a.go"}}`, nil, calls(readA)},
	})
}

// GLM's value with its <arg_value> opener lost and its closer kept (GLM-5.2's raw tokens in
// vllm#49248), as the invoke form's lost openers are read (MiniMax-M3, vllm#51075).
func TestVariantsGLMLostValueOpener(t *testing.T) {
	runVariants(t, []variant{
		{"inline", "glm-5", "<tool_call>read_file<arg_key>path</arg_key>a.go</arg_value></tool_call>", nil, calls(readA)},
		{"lines", "glm-4.6", "<tool_call>read_file\n<arg_key>path</arg_key>\na.go</arg_value>\n</tool_call>", nil, calls(readA)},
		{"second value", "glm-4.7", "<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>ls -la</arg_value>\n<arg_key>timeout_s</arg_key>\n30</arg_value>\n</tool_call>", nil, calls(call("bash", "command", "ls -la", "timeout_s", float64(30)))},
		{"no wrapper", "glm-4.6", "bash\n<arg_key>command</arg_key>ls -la</arg_value>\n</tool_call>", nil, calls(lsla)},
	})
}

// The invoke form with every '<' and '</' dropped (MiniMax M2.1 / M2.5 / M2.7 through exo,
// exo#1882), its brackets put back when the lines read as the form and the name is Known.
func TestVariantsInvokeBrackets(t *testing.T) {
	runVariants(t, []variant{
		{"all dropped", "minimax-m2.5", "invoke name=\"read_file\">\nparameter name=\"path\">a.goparameter>\ninvoke>", nil, calls(readA)},
		{"slash kept", "minimax-m2.1", "invoke name=\"bash\">\nparameter name=\"command\">ls -la/parameter>\n/invoke>", nil, calls(lsla)},
		{"closer kept", "minimax-m2.7", "Reading it.\ninvoke name=\"read_file\">\nparameter name=\"path\">a.go</parameter>\ninvoke>", nil, calls(readA)},
		{"two params", "minimax-m2.5", "invoke name=\"read_file\">\nparameter name=\"path\">a.goparameter>\nparameter name=\"limit\">5parameter>\ninvoke>", nil, calls(call("read_file", "path", "a.go", "limit", float64(5)))},
	})
}

// Gemma 4's relaxed object in round brackets with plain quotes between its call tokens
// (hermes-agent#7457), as its braces already take plain quotes.
func TestVariantsGemmaRoundPlain(t *testing.T) {
	m := "gemma-4-31b-it"
	runVariants(t, []variant{
		{"one key", m, `<|tool_call>call:read_file(path: "a.go")<tool_call|>`, nil, calls(readA)},
		{"two keys", m, `<|tool_call>call:read_file(path: "a.go", limit: 5)<tool_call|>`, nil, calls(call("read_file", "path", "a.go", "limit", float64(5)))},
		{"python kwargs still", m, `<|tool_call>call:bash(command="ls -la")<tool_call|>`, nil, calls(lsla)},
	})
}

// The invoke form's parameters as self-closing elements with the value in an attribute
// (DeepSeek V4's nested DSML invoke in codex-relay#49; <parameter name="k" value="v"/>).
func TestVariantsSelfClosingParams(t *testing.T) {
	runVariants(t, []variant{
		{"dsml nested invoke", "deepseek-v4-flash", "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"bash\">\n<｜DSML｜invoke name=\"command\" string=\"ls -la\" />\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>", nil, calls(lsla)},
		{"dsml parameter value attr", "deepseek-v3.2", "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"read_file\">\n<｜DSML｜parameter name=\"path\" value=\"a.go\"/>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>", nil, calls(readA)},
		{"plain invoke value attrs", "some-local-model", "<function_calls>\n<invoke name=\"read_file\">\n<parameter name=\"path\" value=\"a.go\" />\n<parameter name=\"limit\" value=\"5\" />\n</invoke>\n</function_calls>", nil, calls(call("read_file", "path", "a.go", "limit", float64(5)))},
	})
}

// Qwen3-Coder markup mangled in the ways the development set shows (q27#24 with Qwen3.6-27B,
// step-3.5-flash in opencode logs), each in several spellings: the <function=NAME> opener
// written as an empty <parameter=NAME> (bare, in the wrapper, glued to prose, two in a row, in
// reasoning), an opener's '>' lost (a space or a line break instead), and the block closed with
// other tags than its own.
func TestVariantsQwenMangled(t *testing.T) {
	m := "qwen3.6-27b"
	write := call("write_file", "path", "b.txt", "content", "hi")
	vs := []variant{
		{"param as function bare", m, "<parameter=bash>\n<parameter=command>\nls -la\n</parameter>\n</function>", nil, calls(lsla)},
		{"param as function wrapped", m, "<tool_call>\n<parameter=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>", nil, calls(readA)},
		{"param as function glued", m, "Reading it now.<parameter=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>", nil, calls(readA)},
		{"param as function alias name", m, "<parameter=read>\n<parameter=filePath>\na.go\n</parameter>\n</function>", nil, calls(readA)},
		{"param as function two", m, "<parameter=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>\n<parameter=bash>\n<parameter=command>\nls -la\n</parameter>\n</function>", nil, calls(readA, lsla)},
		{"param as function no closer", m, "<parameter=write_file>\n<parameter=path>\nb.txt\n</parameter>\n<parameter=content>\nhi\n</parameter>\n<parameter=bash>\n<parameter=command>\nls -la\n</parameter>", nil, calls(write, lsla)},
		{"lost gt space", m, "<tool_call>\n<function=bash>\n<parameter=command ls -la\n</parameter>\n</function>\n</tool_call>", nil, calls(lsla)},
		{"lost gt newline", m, "<tool_call>\n<function=read_file>\n<parameter=path\na.go\n</parameter>\n</function>\n</tool_call>", nil, calls(readA)},
		{"lost gt on function", m, "<tool_call>\n<function=read_file\n<parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>", nil, calls(readA)},
		{"stray closers", m, "Writing it:<tool_call>\n<function=write_file>\n<parameter=content>\nhi\n</parameter>\n<parameter=path>\nb.txt\n</compiling>\n</think>", nil, calls(write)},
		{"stray closer one", m, "<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</tool_call>", nil, calls(readA)},
		{"opener written as closer", m, "<tool_call>\n<function=read_file>\n</parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>", nil, calls(readA)},
		{"opener as closer and lost gt", m, "Checking.<tool_call>\n<function=glob\n</parameter=pattern>\n**/*.go\n</parameter>\n</function>\n</tool_call>", nil, calls(call("glob", "pattern", "**/*.go"))},
		{"stray closers after params", m, "<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</think>", nil, calls(readA)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// A call object whose tool name sits under another key than "name": "tool_call" beside
// "parameters" (gemma4:e2b), "function_name" and "toolName" as agent prompts spell it, and the
// call object wrapped under "tool_call" or "tool_use"; bare, fenced, after a sentence, in
// reasoning.
func TestVariantsJSONNameKeys(t *testing.T) {
	m := "gemma4:e2b"
	list := call("list_dir", "path", "/tmp")
	vs := []variant{
		{"tool_call key", m, `{"tool_call":"list_directory","parameters":{"path":"/tmp"}}`, nil, calls(list)},
		{"tool_call key fenced", m, "```json\n{\"tool_call\": \"list_dir\", \"parameters\": {\"path\": \"/tmp\"}}\n```", nil, calls(list)},
		{"tool_call key after prose", m, "Let me look.\n{\"tool_call\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}", nil, calls(readA)},
		{"function_name key", m, `{"function_name": "bash", "arguments": {"command": "ls -la"}}`, nil, calls(lsla)},
		{"toolName key", m, `{"toolName": "read_file", "args": {"path": "a.go"}}`, nil, calls(readA)},
		{"tool_call wrapper object", m, `{"tool_call": {"name": "bash", "arguments": {"command": "ls -la"}}}`, nil, calls(lsla)},
		{"tool_use wrapper object", m, `{"tool_use": {"name": "read_file", "input": {"path": "a.go"}}}`, nil, calls(readA)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// A <tool_call> body written as one call in attribute form (openclaw#33258): the name and
// key="value" pairs, self-closed or not, with or without the element's '<', the name repeated
// in a tool= attribute; glued to prose, closed or not, in reasoning.
func TestVariantsHermesAttributeBody(t *testing.T) {
	m := "some-local-model"
	vs := []variant{
		{"self-closing glued", m, `好的，我来排查。<tool_call>exec tool="exec" command="ls -la" />`, nil, calls(lsla)},
		{"closed", m, `<tool_call>read_file path="a.go"</tool_call>`, nil, calls(readA)},
		{"element inside", m, `<tool_call><read_file path="a.go"/></tool_call>`, nil, calls(readA)},
		{"single quotes", m, "<tool_call>\nbash command='ls -la'\n</tool_call>", nil, calls(lsla)},
		{"two", m, "<tool_call>read_file path=\"a.go\" /></tool_call>\n<tool_call>bash command=\"ls -la\" /></tool_call>", nil, calls(readA, lsla)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// The invoke form's value left unclosed with the call's own markup leaked after it
// (MiniMax-M3's nested <tool_call> after a command, ik_llama.cpp#2085): the value ends at the
// markup, as a child tag or a parameter, with or without the boundary tokens, in reasoning.
func TestVariantsInvokeMarkupLeak(t *testing.T) {
	m := "MiniMax-M3"
	b := "]<]minimax[>["
	vs := []variant{
		{"child tag then tool_call", m, "<minimax:tool_call>\n<invoke name=\"bash\"><command>ls -la<tool_call>\n</invoke>\n</minimax:tool_call>", nil, calls(lsla)},
		{"boundary tokens", m, b + "<tool_call>\n" + b + "<invoke name=\"bash\">" + b + "<command>ls -la" + b + "<tool_call>\n" + b + "</invoke>\n" + b + "</tool_call>", nil, calls(lsla)},
		{"parameter then closer", m, "<invoke name=\"read_file\">\n<parameter name=\"path\">a.go</minimax:tool_call>\n</invoke>", nil, calls(readA)},
		{"parameter then tool_call", m, "<invoke name=\"bash\">\n<parameter name=\"command\">ls -la\n<tool_call>\n</invoke>", nil, calls(lsla)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// Gemma 3's tool_code block written as a <tool_code> tag instead of its fence: a positional
// argument, keyword arguments, print(…) around the call, a list of calls, glued to prose, in
// reasoning.
func TestVariantsToolCodeTag(t *testing.T) {
	m := "gemma-3-4b"
	vs := []variant{
		{"positional", m, `<tool_code>run_command("ls -la")</tool_code>`, nil, calls(lsla)},
		{"keyword", m, "<tool_code>\nread_file(path=\"a.go\")\n</tool_code>", nil, calls(readA)},
		{"print", m, `<tool_code>print(read_file(path="a.go"))</tool_code>`, nil, calls(readA)},
		{"list", m, `<tool_code>[read_file(path="a.go"), run_command(command="ls -la")]</tool_code>`, nil, calls(readA, lsla)},
		{"glued", m, `Reading it.<tool_code>read_file("a.go")</tool_code>`, nil, calls(readA)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// Continue's labelled BEGIN_ARG … END_ARG groups under a name label in Gemma's own call
// syntax (call:NAME: instead of TOOL_NAME: NAME; gemma4 in ollama#18275), a lone group with
// no key holding the tool's one argument, Gemma's thinking span inside a value; bare, in the
// ```tool fence, after prose, in reasoning.
func TestVariantsContinueGemmaLabel(t *testing.T) {
	m := "gemma4:12b"
	vs := []variant{
		{"keyless group with thought", m, "call:run_terminal_command:\nBEGIN_ARG:\n<|channel>thought\n<channel|>ls -la\nEND_ARG", nil, calls(lsla)},
		{"keyed group", m, "call:read_file\nBEGIN_ARG: filepath\na.go\nEND_ARG", nil, calls(readA)},
		{"keyed in fence", m, "```tool\ncall:run_terminal_command:\nBEGIN_ARG: command\nls -la\nEND_ARG\n```", nil, calls(lsla)},
		{"after prose", m, "I'll list the files.\ncall:run_terminal_command:\nBEGIN_ARG: command\nls -la\nEND_ARG", nil, calls(lsla)},
		{"keyless plain", m, "call:builtin_read_file:\nBEGIN_ARG:\na.go\nEND_ARG", nil, calls(readA)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// A bare JSON call that never closes: a key's closing quote written escaped ("timeout\": …,
// MTPLX#196, Qwen3.6-27B) so the rest reads as a string, or its last braces dropped where the
// prose resumes; at the start, after a sentence, fenced, in reasoning.
func TestVariantsJSONShortBeforeProse(t *testing.T) {
	m := "qwen3.6-27b"
	vs := []variant{
		{"escaped key quote", m, `{"name": "read_file", "arguments": {"path": "a.go", "limit\": 20}Let me read it first.`, nil, calls(call("read_file", "path", "a.go", "limit", float64(20)))},
		{"escaped key quote closed", m, `{"name": "bash", "arguments": {"command\": "ls -la"}}`, nil, calls(lsla)},
		{"closers dropped before prose", m, `Looking. {"name": "read_file", "arguments": {"path": "a.go"}Then I'll edit it.`, nil, calls(readA)},
		{"closers dropped before next line", m, "{\"name\": \"bash\", \"arguments\": {\"command\": \"ls -la\"}\nNow the listing.", nil, calls(lsla)},
		{"both", m, `{"name": "bash", "arguments": {"command": "ls -la", "timeout\": 30}I will wait for it.`, nil, calls(call("bash", "command", "ls -la", "timeout_s", float64(30)))},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// SWE-agent's DISCUSSION reply: the command in its fence (the documented form, bare or
// ```bash), or under a COMMAND heading with the fence lost (SWE-agent#297), its file commands
// read with their positional arguments; in reasoning too.
func TestVariantsSWEAgent(t *testing.T) {
	m := "some-local-model"
	d := "DISCUSSION\nI'll look at the files first.\n"
	vs := []variant{
		{"fence", m, d + "```\nls -la\n```", nil, calls(lsla)},
		{"bash fence", m, d + "```bash\nls -la\n```\n", nil, calls(lsla)},
		{"command heading", m, d + "\nCOMMAND\nls -la\n\nLet me know what happens next!", nil, calls(lsla)},
		{"command heading fence", m, d + "COMMAND\n```\nls -la\n```", nil, calls(lsla)},
		{"open", m, d + "COMMAND\nopen a.go", nil, calls(readA)},
		{"find_file", m, d + "```\nfind_file \"a.go\"\n```", nil, calls(call("glob", "pattern", "**/a.go"))},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// GLM's <arg_value> holds its value verbatim (its template adds no line breaks around it): a
// value of several lines keeps its last line break, as a file's content does; one padded
// after its opener loses that one; one-line values are as before. In text and reasoning.
func TestVariantsGLMMultilineValue(t *testing.T) {
	m := "glm-4.7"
	faq := call("write_file", "path", "docs/faq.md", "content", "# FAQ\nQ: How?\n")
	vs := []variant{
		{"content then path", m, "Proceeding:<tool_call>write_file<arg_key>content</arg_key><arg_value># FAQ\nQ: How?\n</arg_value><arg_key>path</arg_key><arg_value>docs/faq.md</arg_value></tool_call>", nil, calls(faq)},
		{"padded after opener", m, "<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>docs/faq.md</arg_value>\n<arg_key>content</arg_key>\n<arg_value>\n# FAQ\nQ: How?\n</arg_value>\n</tool_call>", nil, calls(faq)},
		{"one line padded", m, "<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>\na.go\n</arg_value>\n</tool_call>", nil, calls(readA)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// gpt-oss harmony with its special tokens stripped and glitch tokens leaked between the
// header's parts (the format guide's "<|channel|>commentary to=functions.N <|constrain|>json
// <|message|>{…}"): runs of unrelated CJK, Georgian or Telugu tokens, "commentary" spelled
// half in another script, the object on the next line, after a stray "content" or "_input=",
// in any channel or role word (openclaw/docs' translated pages in eight languages, forge's
// analysis-channel call to gpt-oss's trained-in repo_browser). In text and reasoning.
func TestVariantsHarmonyStrayTokens(t *testing.T) {
	m := "gpt-oss-20b"
	vs := []variant{
		{"cjk then json next line", m, "Die Datei lesen】【：】【assistant to=functions.read_file  海南天天 ￣亚洲json\n{\"path\":\"a.go\"}", nil, calls(readA)},
		{"mangled commentary", m, "Lire le fichierassistant to=functions.read_file კომენტary  玩彩神争霸json\n{\"path\":\"a.go\"}", nil, calls(readA)},
		{"in commentary content", m, "変更user to=functions.bash in commentary  天天彩票怎么json  content{\"command\":\"ls -la\"}", nil, calls(lsla)},
		{"content colon", m, "analysis to=functions.read_file  天天中彩票commentary 开号json  content: {\"path\":\"a.go\"}", nil, calls(readA)},
		{"input equals then code", m, "读取】【。analysis to=functions.read_file  xx_input={\"path\":\"a.go\"} code", nil, calls(readA)},
		{"token glued to json", m, "hata ayıklama】【analysis to=functions.read_file 彩票娱乐注册json 和天天中彩票{\"path\":\"a.go\"}", nil, calls(readA)},
		{"two in a row", m, "変更analysis to=functions.read_file in commentary 天天json content{\"path\":\"a.go\"}/Sub assistant to=functions.bash in commentary 手机json content{\"command\":\"ls -la\"} 天天json", nil, calls(readA, lsla)},
		{"other namespace after channel", m, "assistantanalysis to=repo_browser.open_file code{\"path\":\"a.go\"}", nil, calls(readA)},
		{"container exec stripped", m, "assistantcommentary to=container.exec json{\"cmd\":[\"bash\",\"-lc\",\"ls -la\"]}", nil, calls(lsla)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// A recipient written in prose is not a call: a sentence between it and an object, more words
// than stray tokens hold, a second line break, another namespace with no header word before it.
func TestHarmonyRecipientInProseIsNotACall(t *testing.T) {
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"Use the to=functions.read_file recipient. Then send {\"path\": \"a.go\"} as its message.",
		"The header holds to=functions.read_file and the message body holds the object {\"path\": \"a.go\"}",
		"commentary to=functions.read_file\n\nThe arguments were\n{\"path\": \"a.go\"}",
		"Send it to=repo_browser.open_file json{\"path\": \"a.go\"}",
		"Name to=functions.bash, then later pass {\"command\": \"ls -la\"}",
	} {
		d := classify(Case{ID: "prose", Model: "gpt-oss-20b", Text: text}, true, reg)
		if len(d.Calls) > 0 {
			t.Errorf("%q read as %d call(s): %s %s", text, len(d.Calls), d.Calls[0].Name, d.Calls[0].Args)
		}
	}
}

// Python-call syntax as small models mangle it (tool-calling-benchmark's gemma3:1b, BitNet and
// LFM2.5 runs; subversionbench's llama-4-maverick): "key: value" for key=value (Gemma 4's own
// call:NAME{k:v} pairs), a string left unquoted or in escaped quotes, the whole call in
// typographic quotes, the </tool_call> cut short, misspelled or alone, the name beside the
// arguments in a marked JSON object, and LFM's list with its answer glued after "]" once the
// special tokens are stripped. In text and reasoning.
func TestVariantsPythonMangled(t *testing.T) {
	m := "some-local-model"
	globPy := call("glob", "pattern", "*.py")
	vs := []variant{
		{"colon kwarg in tool_call fence", m, "```tool_call\nglob(pattern: '*.py')\n```", nil, calls(globPy)},
		{"colon kwarg in tags", m, `<tool_call>read_file(path: "a.go")</tool_call>`, nil, calls(readA)},
		{"colon kwarg own line", m, "Reading it.\nread_file(path: \"a.go\")", nil, calls(readA)},
		{"closer cut short", m, "<tool_call>read_file(path: \"a.go\")</tool_\n", nil, calls(readA)},
		{"closer misspelled", m, `<tool_call>bash(command: "ls -la")</tool_Latin>`, nil, calls(lsla)},
		{"closer alone", m, `read_file(path: "a.go")</tool_call>`, nil, calls(readA)},
		{"closer alone after a line", m, "Listing.\nbash(command=\"ls -la\")</tool_call>", nil, calls(lsla)},
		{"unquoted glob in tags", m, `<tool_call>glob(pattern: *.py)</tool_call>`, nil, calls(globPy)},
		{"unquoted word in tags", m, `<tool_call>read_file(path: README)</tool_call>`, nil, calls(call("read_file", "path", "README"))},
		{"unquoted words in a list", "llama-4-maverick", "Let's begin by listing.\n\n[bash(command=ls -la)]", nil, calls(lsla)},
		{"typographic quotes", m, `<tool_call>“read_file(path: a.go)”</tool_call>`, nil, calls(readA)},
		{"escaped quotes", m, `<tool_call>read_file(path: \"a.go\")</tool_call>`, nil, calls(readA)},
		{"positional single quotes", m, `<tool_call>glob('*.py')</tool_call>`, nil, calls(globPy)},
		{"flat json in tags unclosed", m, `<tool_call>{"name": "read_file", "path": "a.go"}`, nil, calls(readA)},
		{"flat json with id", m, `<tool_call>{"id": "c1", "name": "read_file", "path": "a.go"}</tool_call>`, nil, calls(readA)},
		{"flat json in fence", m, "```tool_call\n{\"name\": \"bash\", \"command\": \"ls -la\"}\n```", nil, calls(lsla)},
		{"lfm list with answer glued", "lfm2.5-1.2b", `[read_file(path="a.go")]I am reading the file to see its contents.`, nil, calls(readA)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// Code and prose around those shapes stay prose: a signature, a variable or attribute as the
// value, a list quoted mid-sentence or followed by a blank, an assignment, an unquoted word
// cut off at the end.
func TestPythonMangledProseIsNotACall(t *testing.T) {
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"def read_file(path: str) -> str:\n    return open(path).read()",
		"read_file(path: str)",
		"[read_file(path=file_path)]",
		"[read_file(path=self.path)]",
		"The list [read_file(path=a.go)] reads it.",
		"[read_file(path=\"a.go\")] is the call the model should send.",
		"content = read_file(path: \"a.go\")",
		"Next I will call\nread_file(path=the whole file",
		"Call it as read_file(path: a.go) when you need it.",
	} {
		d := classify(Case{ID: "prose", Model: "some-local-model", Text: text}, true, reg)
		if len(d.Calls) > 0 || d.Class != messages.ReplyFinal {
			t.Errorf("%q read as %s with %d call(s)", text, d.Class, len(d.Calls))
		}
	}
}

// Gemma 4's quote token left open before the object's '}' in a terminated block: the string
// ends there (TensorFold's recorded glob leak; the same in FunctionGemma's <escape>).
func TestVariantsGemmaOpenString(t *testing.T) {
	m := "gemma-4-26b"
	vs := []variant{
		{"glob pattern", m, `<|tool_call>call:glob{pattern:<|"|>*/}<tool_call|>`, nil, calls(call("glob", "pattern", "*/"))},
		{"last of two", m, `<|tool_call>call:read_file{limit:5,path:<|"|>a.go}<tool_call|>`, nil, calls(call("read_file", "path", "a.go", "limit", float64(5)))},
		{"functiongemma escape", "functiongemma-270m", `<start_function_call>call:read_file{path:<escape>a.go}<end_function_call>`, nil, calls(readA)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// An action object one or two brackets short before the fence that closes the reply, in a
// fence of the harness's own language (forge's ```forge_action, Ornith-1.5-9B) or a plain one:
// the fence ends it, nothing was cut off.
func TestVariantsFencedObjectShortOfBrackets(t *testing.T) {
	m := "some-local-model"
	write := call("write_file", "path", "a.txt", "content", "hi {x}\n")
	vs := []variant{
		{"harness fence tool key", m, "Creating it.\n\n```forge_action\n{\"tool\": \"write_file\", \"args\": {\"path\": \"a.txt\", \"content\": \"hi {x}\\n\"}\n```", nil, calls(write)},
		{"harness fence two short", m, "```action\n{\"tool\": \"bash\", \"args\": {\"command\": \"ls -la\"\n```\n", nil, calls(lsla)},
		{"plain fence name key", m, "```\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}\n```", nil, calls(readA)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// DeepSeek's DSML block as a chat client renders it with its tags' brackets dropped and the
// full-width bars as " | " (hermes-agent#115475), closed or with a parameter left open before
// the next; the ASCII and full-width bar both. Prose that names DSML stays prose.
func TestVariantsDSMLBareLines(t *testing.T) {
	m := "deepseek-v4-flash"
	vs := []variant{
		{"v4 tool_calls closed", m, "DSML | tool_calls\nDSML | invoke name=\"read_file\"\nDSML | parameter name=\"path\" string=\"true\"\na.go\nDSML | /parameter\nDSML | /invoke\nDSML | /tool_calls", nil, calls(readA)},
		{"parameter left open", m, "Running it.\nDSML | tool_calls\nDSML | invoke name=\"bash\"\nDSML | parameter name=\"command\" string=\"true\"\nls -la\nDSML | parameter name=\"timeout\" string=\"false\"\n30\nDSML | /parameter\nDSML | /invoke\nDSML | /tool_calls", nil, calls(call("bash", "command", "ls -la", "timeout_s", float64(30)))},
		{"v32 function_calls full-width bar", "deepseek-v3.2", "DSML｜function_calls\nDSML｜invoke name=\"read_file\"\nDSML｜parameter name=\"path\" string=\"true\"\na.go\nDSML｜/parameter\nDSML｜/invoke\nDSML｜/function_calls", nil, calls(readA)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"DSML | tool_calls is the wrapper DeepSeek V4 writes; DSML | invoke holds one call.",
		"The block opens with\nDSML | tool_calls\nand closes with\nDSML | /tool_calls",
	} {
		if d := classify(Case{ID: "prose", Model: m, Text: text}, true, reg); len(d.Calls) > 0 || d.Class != messages.ReplyFinal {
			t.Errorf("%q read as %s with %d call(s)", text, d.Class, len(d.Calls))
		}
	}
}

// Each family's own grammar with one tag mangled the ways issue 20 names (a tag's '<' lost, a
// closer lost before the next tag or the block's end, a wrapper's closer alone), written from
// the chat templates: GLM's <arg_key>/<arg_value> pairs, Qwen3-Coder's <parameter=K>, Llama
// 3.1's <function=N>{…}</function><|eom_id|>, LFM's and Gemma 3's Python between their
// tokens, gpt-oss harmony's recipient with no functions. namespace, Mistral's pre-v11 list,
// DeepSeek V3's call with "function" (and its begin token) lost before <｜tool▁sep｜>.
// In text and reasoning.
func TestVariantsMangledMarkup(t *testing.T) {
	vs := []variant{
		{"glm key opener lost its <", "glm-4.6", "<tool_call>read_file\narg_key>path</arg_key>\n<arg_value>a.go</arg_value>\n</tool_call>", nil, calls(readA)},
		{"glm value opener lost its <", "glm-4.7", "<tool_call>bash\n<arg_key>command</arg_key>\narg_value>ls -la</arg_value>\n</tool_call>", nil, calls(lsla)},
		{"glm key closer lost", "glm-4.6", "<tool_call>read_file\n<arg_key>path<arg_value>a.go</arg_value>\n</tool_call>", nil, calls(readA)},
		{"glm last value closer lost", "glm-4.6", "<tool_call>read_file<arg_key>path</arg_key><arg_value>a.go</tool_call>", nil, calls(readA)},
		{"glm last value closer lost two keys", "glm-4.7", "<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>ls -la</arg_value>\n<arg_key>timeout</arg_key>\n<arg_value>30\n</tool_call>", nil, calls(call("bash", "command", "ls -la", "timeout_s", float64(30)))},
		{"qwen parameter opener lost its <", "qwen3-coder-30b", "<tool_call>\n<function=read_file>\nparameter=path>\na.go\n</parameter>\n</function>\n</tool_call>", nil, calls(readA)},
		{"qwen every tag lost its <", "qwen3-coder-30b", "<tool_call>\n<function=bash>\nparameter=command>\nls -la\n/parameter>\n/function>\n</tool_call>", nil, calls(lsla)},
		{"llama function eom without closer", "llama-3.1-8b-instruct", `<function=read_file>{"path": "a.go"}<|eom_id|>`, nil, calls(readA)},
		{"llama function eot without closer", "llama-3.3-70b-instruct", "<function=bash>{\"command\": \"ls -la\"}<|eot_id|>", nil, calls(lsla)},
		{"lfm end token alone", "lfm2-1.2b", `[read_file(path="a.go")]<|tool_call_end|>`, nil, calls(readA)},
		{"tool_code closer alone", "gemma-3-27b-it", "Reading it.\nread_file(path=\"a.go\")</tool_code>", nil, calls(readA)},
		{"harmony stripped no namespace", "gpt-oss-20b", `commentary to=read_file json{"path":"a.go"}`, nil, calls(readA)},
		{"harmony stripped no namespace role", "gpt-oss-120b", `assistant to=bash commentary json{"command":"ls -la"}`, nil, calls(lsla)},
		{"mistral list short of its bracket", "mistral-7b-instruct-v0.3", `[TOOL_CALLS] [{"name": "read_file", "arguments": {"path": "a.go"}}`, nil, calls(readA)},
		{"deepseek v3 function word lost", "deepseek-v3-0324", "<｜tool▁calls▁begin｜><｜tool▁sep｜>read_file\n```json\n{\"path\": \"a.go\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", nil, calls(readA)},
		{"deepseek v3 call begin and function lost ascii", "deepseek-r1-0528", "<|tool_sep|>bash\n```json\n{\"command\": \"ls -la\"}\n```<|tool_call_end|>", nil, calls(lsla)},
		{"mistral two short of the bracket", "mistral-large-2411", `[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "a.go"}}, {"name": "bash", "arguments": {"command": "ls -la"}}`, nil, calls(readA, lsla)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}

// What those repairs must not read: a value line that merely holds the tag's words, a value
// cut off with no closer at all, a recipient with no header word before it, a Mistral list
// cut off inside a call, a nameless DeepSeek separator with no end token.
func TestMangledMarkupLeavesTheRestAlone(t *testing.T) {
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		model, text string
		want        []Expected
	}{
		{"qwen3-coder-30b", "<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nset parameter=x> here\n</parameter>\n</function>\n</tool_call>", calls(call("write_file", "path", "a.txt", "content", "set parameter=x> here"))},
		{"glm-4.6", "<tool_call>write_file<arg_key>path</arg_key><arg_value>a.txt</arg_value><arg_key>content</arg_key><arg_value>x arg_key>y</arg_value></tool_call>", calls(call("write_file", "path", "a.txt", "content", "x arg_key>y"))},
		{"glm-4.6", "Use to=read_file json{\"path\":\"a.go\"} in the header.", nil},
		{"mistral-7b-instruct-v0.3", `[TOOL_CALLS] [{"name": "read_file", "arguments": {"path": "a.`, nil},
		{"glm-4.6", "<tool_call>read_file<arg_key>path</arg_key><arg_value>a.go", nil},
		{"deepseek-v3-0324", "<｜tool▁sep｜>read_file\n```json\n{\"path\": \"a.go\"}\n```", nil},
	} {
		got, err := replayCase(Case{ID: "rest", Model: c.model, Text: c.text, Expect: c.want}, true)
		if err != nil {
			t.Fatal(err)
		}
		if c.want != nil && !got.ok {
			t.Errorf("%q: %s", c.text, got.why)
		}
		if d := classify(Case{ID: "rest", Model: c.model, Text: c.text}, true, reg); c.want == nil && len(d.Calls) > 0 {
			t.Errorf("%q read as %d call(s): %s %s", c.text, len(d.Calls), d.Calls[0].Name, d.Calls[0].Args)
		}
	}
}

// Two documented forms fused (issue 20's "XML fused"): a tag pair whose argument tag holds one
// child tag per argument (Cline's XML tool use under <tool>/<args>), and Qwen3-Coder's
// <function=N> holding the invoke form's <parameter name="K">. In text and reasoning.
func TestVariantsFusedXMLForms(t *testing.T) {
	m := "some-local-model"
	vs := []variant{
		{"tag pair child tags", m, "<tool_call>\n<tool_name>read_file</tool_name>\n<parameters><path>a.go</path></parameters>\n</tool_call>", nil, calls(readA)},
		{"tool args child tags", m, "<tool>bash</tool>\n<args>\n<command>ls -la</command>\n</args>", nil, calls(lsla)},
		{"function parameter name", "qwen3-coder-30b", "<tool_call>\n<function=read_file>\n<parameter name=\"path\">\na.go\n</parameter>\n</function>\n</tool_call>", nil, calls(readA)},
		{"function parameter name string attr", "qwen3-coder-30b", "<function=bash>\n<parameter name=\"command\" string=\"true\">ls -la</parameter>\n</function>", nil, calls(lsla)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"The <tool>bash</tool> tag names it; <args><command>ls</command></args> would be its arguments.",
		"<tool>bash</tool> <args>see <command>ls</command> below</args>",
	} {
		if d := classify(Case{ID: "prose", Model: m, Text: text}, true, reg); len(d.Calls) > 0 {
			t.Errorf("%q read as %d call(s): %s %s", text, len(d.Calls), d.Calls[0].Name, d.Calls[0].Args)
		}
	}
}

// Inside <tool_call>, the name as the object's one key, as Apertus's template writes a call
// ({"N": {…}} in <|tools_prefix|>[…]): a model mixing that shape into the Hermes wrapper.
func TestVariantsNameKeyedInHermes(t *testing.T) {
	m := "some-local-model"
	vs := []variant{
		{"name keyed", m, "<tool_call>\n{\"read_file\": {\"path\": \"a.go\"}}\n</tool_call>", nil, calls(readA)},
		{"name keyed unclosed tag", m, `<tool_call>{"bash": {"command": "ls -la"}}`, nil, calls(lsla)},
	}
	runVariants(t, vs)
	replayVariants(t, vs, true)
}
