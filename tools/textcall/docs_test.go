package textcall

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// docForm is one documented call form read at the parser's level: the built-in tools that
// have no troupe tool (so bench/repair's rows cannot replay them), and text the formats'
// definitions say is not a call. bench/repair/FORMATS.md lists them with their sources.
type docForm struct {
	name  string
	text  string
	calls []docCall // nil: no call, and the reply is not cut off
	prose string    // what stays of a reply with calls
}

type docCall struct{ name, args string }

func TestParse_DocumentedForms(t *testing.T) {
	forms := []docForm{
		// Llama 3.1 / 3.3 prompt formats: the built-in tools after <|python_tag|>.
		{"llama brave_search", `<|python_tag|>brave_search.call(query="latest price of 1oz gold")<|eom_id|>`, []docCall{{"brave_search.call", `{"query":"latest price of 1oz gold"}`}}, ""},
		{"llama wolfram_alpha", `<|python_tag|>wolfram_alpha.call(query="100th decimal of pi")<|eom_id|>`, []docCall{{"wolfram_alpha.call", `{"query":"100th decimal of pi"}`}}, ""},
		{"llama4 builtin in python_start", `<|python_start|>brave_search.call(query="gold")<|python_end|>`, []docCall{{"brave_search.call", `{"query":"gold"}`}}, ""},
		// The code interpreter: any code after the tag (chat_format.py: code_interpreter {"code"}).
		{"llama code interpreter", "<|python_tag|>def is_prime(n):\n    if n <= 1:\n        return False\n    return True\n\nprint(is_prime(7))<|eom_id|>", []docCall{{"code_interpreter", `{"code":"def is_prime(n):\n    if n <= 1:\n        return False\n    return True\n\nprint(is_prime(7))"}`}}, ""},
		{"llama code interpreter one line", "<|python_tag|>import math; print(math.pi)<|eom_id|>", []docCall{{"code_interpreter", `{"code":"import math; print(math.pi)"}`}}, ""},
		{"llama4 code interpreter", "<|python_start|>x = 2 ** 10\nprint(x)<|python_end|><|eom|>", []docCall{{"code_interpreter", `{"code":"x = 2 ** 10\nprint(x)"}`}}, ""},
		{"llama custom tool as builtin", `<function=brave_search>{"query": "gold"}</function>`, []docCall{{"brave_search", `{"query":"gold"}`}}, ""},
		// gpt-oss's built-in browser and python tools (the harmony format guide, "Built-in tools").
		{"harmony browser.search", `<|channel|>analysis to=browser.search <|constrain|>json<|message|>{"query":"gold price","topn":5}<|call|>`, []docCall{{"browser.search", `{"query":"gold price","topn":5}`}}, ""},
		{"harmony python code", `<|channel|>analysis to=python code<|message|>print(1+1)<|call|>`, []docCall{{"python", ""}}, ""},
		// Kimi-K3's XTML: the response channel's text stays prose; its markers go.
		{"kimi k3 response and call", "<|open|>response<|sep|>Reading it.<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool=\"read_file\" index=\"0\"<|sep|><|open|>argument key=\"path\" type=\"string\"<|sep|>a.go<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>", []docCall{{"read_file", `{"path":"a.go"}`}}, "Reading it."},
		{"kimi k3 escaped attribute and object value", "<|open|>call tool=\"get_weather\" index=\"0\"<|sep|><|open|> argument key=\"city\" type=\"string\" <|sep|>Paris &amp; Lyon<|close|> argument <|sep|><|open|>argument key=\"opts\" type=\"object\"<|sep|>{\"units\": \"c\"}<|close|>argument<|sep|><|close|>call<|sep|>", []docCall{{"get_weather", `{"city":"Paris &amp; Lyon","opts":{"units":"c"}}`}}, ""},
		// JSON calls between a family's special tokens: the tokens leave the prose with the call.
		{"granite3 after text", "I'll read the file.<|tool_call|>[{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}]<|end_of_text|>", []docCall{{"read_file", `{"path":"a.go"}`}}, "I'll read the file."},
		{"granite3 list short of its bracket", `<|tool_call|>[{"name": "read_file", "arguments": {"path": "a.go"}}`, []docCall{{"read_file", `{"path":"a.go"}`}}, ""},
		{"nemotron", `<TOOLCALL>[{"name": "read_file", "arguments": {"path": "a.go"}}]</TOOLCALL>`, []docCall{{"read_file", `{"path":"a.go"}`}}, ""},
		{"command a", "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}]<|END_ACTION|><|END_OF_TURN_TOKEN|>", []docCall{{"read_file", `{"path":"a.go"}`}}, ""},
		{"command r7b response then action", "<|START_RESPONSE|>Let me check.<|END_RESPONSE|><|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}]<|END_ACTION|>", []docCall{{"read_file", `{"path":"a.go"}`}}, "Let me check."},
		{"jamba", `<tool_calls>[{"name": "read_file", "arguments": {"path": "a.go"}}]</tool_calls>`, []docCall{{"read_file", `{"path":"a.go"}`}}, ""},
		{"internlm", "<|action_start|><|plugin|>\n{\"name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}<|action_end|>", []docCall{{"read_file", `{"path":"a.go"}`}}, ""},
		{"sarashina", `<|tool_calls|>[{'name': 'read_file', 'arguments': {'path': 'a.go'}}]`, []docCall{{"read_file", `{"path":"a.go"}`}}, ""},
		{"inkling", "<|message_model|>read_file<|content_invoke_tool_json|>{\"name\": \"read_file\", \"args\": {\"path\": \"a.go\"}}<|end_message|>", []docCall{{"read_file", `{"path":"a.go"}`}}, ""},
		{"gigachat3", "<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}", []docCall{{"read_file", `{"path":"a.go"}`}}, ""},
		{"minimax m1 lines", "<tool_calls>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n</tool_calls>", []docCall{{"read_file", `{"path":"a.go"}`}, {"bash", `{"command":"ls"}`}}, ""},
		{"granite 20b fc after text", "I will.<function_call> {\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}", []docCall{{"read_file", `{"path":"a.go"}`}}, "I will."},
		{"apertus", `<|tools_prefix|>[{"read_file": {"path": "a.go"}}]<|tools_suffix|>`, []docCall{{"read_file", `{"path":"a.go"}`}}, ""},
		{"phi4 functools", `functools[{"name": "read_file", "arguments": {"path": "a.go"}}]`, []docCall{{"read_file", `{"path":"a.go"}`}}, ""},
		// Header words glued to a stripped recipient come off only onto a known name.
		{"harmony glued json onto known", `commentary to=functions.read_filejson{"path":"a.go"}`, []docCall{{"read_file", `{"path":"a.go"}`}}, ""},
		{"harmony json-named tool kept", `commentary to=functions.to_json json{"a":1}`, []docCall{{"to_json", `{"a":1}`}}, ""},
		// Not calls.
		{"harmony final only", "<|channel|>analysis<|message|>Nothing to run.<|end|><|start|>assistant<|channel|>final<|message|>All done.<|return|>", nil, ""},
		{"harmony recipient named in prose", "Use the to=functions.read_file recipient in commentary.", nil, ""},
		{"python call in a sentence", "You could call read_file(path=\"a.go\") to see it.", nil, ""},
		{"functools index in prose", "Look at functools[0] and functools[key] in the docs, or functools[ alone.", nil, ""},
		{"wrapper tokens named in prose", "The <TOOLCALL> tag wraps [1, 2] lists, and <|tool_call|> {not json}.", nil, ""},
		{"apertus not name keyed", `<|tools_prefix|>[{"a": 1, "b": 2}]<|tools_suffix|>`, nil, ""},
		{"kimi k3 response only", "<|open|>response<|sep|>No tool needed.<|close|>response<|sep|>", nil, ""},
		{"llama pythonic list in a sentence", "The model answers [read_file(path=\"a.go\")] when asked, as shown.", nil, ""},
	}
	for _, f := range forms {
		t.Run(f.name, func(t *testing.T) {
			res := Parse(f.text, knownOpts())
			if res.Partial {
				t.Fatalf("read as cut off: %q", f.text)
			}
			if len(res.Calls) != len(f.calls) {
				t.Fatalf("%d calls, want %d: %+v", len(res.Calls), len(f.calls), res.Calls)
			}
			for i, want := range f.calls {
				got := res.Calls[i]
				if got.Name != want.name || !sameJSON(got.Args, want.args) {
					t.Errorf("call %d = %s %s, want %s %s", i+1, got.Name, got.Args, want.name, want.args)
				}
			}
			if len(f.calls) > 0 && res.Prose != f.prose {
				t.Errorf("prose %q beside the call, want %q", res.Prose, f.prose)
			}
		})
	}
}

// sameJSON compares a call's arguments with want; "" stands for arguments that are not JSON.
func sameJSON(got json.RawMessage, want string) bool {
	if want == "" {
		return got == nil
	}
	var a, b any
	return json.Unmarshal(got, &a) == nil && json.Unmarshal([]byte(want), &b) == nil && jsonEqual(a, b)
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestParse_DocumentedFormsHostile runs 1 MB of hostile input at the paths docfmt added
// (functools lists, code after Llama's tags, Harmony's stripped role recipient, call lists
// before end tokens), each bounded like TestParse_HostileMegabyte.
func TestParse_DocumentedFormsHostile(t *testing.T) {
	replies := map[string]string{
		"functools opens":           repeatTo(`functools[{"name": "read_file", "arguments": {"path": "`, megabyte),
		"functools brackets":        repeatTo("functools[", megabyte),
		"llama tags of code":        repeatTo("<|python_tag|>def f(x):\n    return g(", megabyte),
		"llama4 tags of code":       repeatTo("<|python_start|>print(read_file(path=", megabyte),
		"stripped role harmony":     repeatTo("assistant to=functions.read_file commentary json{", megabyte),
		"stripped harmony json":     repeatTo("commentary to=functions.bash json{\"command\": \"", megabyte),
		"lists before end token":    repeatTo("[read_file(path=\"a.go\"), bash(command=\"ls\")]<|eot_id|><|eom|>", megabyte),
		"xtml call opens":           repeatTo("<|open|>call tool=\"bash\" index=\"0\"<|sep|><|close|>argument<|sep|>", megabyte),
		"xtml arguments":            "<|open|>call tool=\"bash\"<|sep|>" + repeatTo("<|open|>argument key=\"k\" type=\"string\"<|sep|>v<|close|>call <|sep|>", megabyte),
		"xtml channels":             repeatTo("<|open|>tools<|sep|><|close|>tools<|sep|><|open|>call x<|sep|>", megabyte),
		"token json opens":          repeatTo("<|START_ACTION|>{\"tool_name\": \"bash\", ", megabyte),
		"token json one closer":     repeatTo("<TOOLCALL>[{\"name\": \"bash\", ", megabyte) + "</TOOLCALL>",
		"token json headers":        repeatTo("<|message_model|>read_file<|content_invoke_tool_json|>[", megabyte) + "]",
		"token json lines":          "<tool_calls>\n" + repeatTo("{\"name\": \"bash\", \"arguments\": {}}\n{", megabyte),
		"function_call opens":       repeatTo("<function_call> {\"name\": \"bash\", \"arguments\": {\"command\": \"", megabyte),
		"name keyed lists":          "<|tools_prefix|>" + repeatTo("[{\"bash\": ", megabyte) + "<|tools_suffix|>",
		"glued harmony names":       repeatTo("commentary to=functions.read_file"+strings.Repeat("json", 64)+"{", megabyte),
		"end tokens after calls":    "read_file(path=\"a.go\")" + repeatTo("<|eot|> ", megabyte),
		"harmony stray tokens":      repeatTo("assistant to=functions.read_file 天天中彩票json\n", megabyte),
		"harmony stray objects":     repeatTo("analysis to=functions.bash 彩票json content{\"command\": \"", megabyte),
		"harmony namespaced":        repeatTo("assistantanalysis to=repo_browser.open_file code 天天 ", megabyte),
		"unquoted list values":      repeatTo("[read_file(path=a b", megabyte),
		"escaped quote values":      repeatTo("<tool_call>read_file(path: \\\"", megabyte),
		"stray closers":             repeatTo("read_file(path: \"a.go\")</tool_", megabyte),
		"flat objects":              repeatTo(`<tool_call>{"name": "bash", "command": "`, megabyte),
		"glued lists":               repeatTo("[read_file(path=\"a.go\")]I\n", megabyte),
		"dsml bare lines":           repeatTo("DSML | invoke name=\"bash\"\nDSML | parameter name=\"command\"\nls\n", megabyte),
		"glm openers lost their <":  "<tool_call>bash" + repeatTo("\narg_key>k</arg_key>\narg_value>v", megabyte),
		"qwen openers lost their <": "<function=bash>" + repeatTo("\nparameter=command>\nls", megabyte),
		"mistral lists short":       repeatTo(`[TOOL_CALLS][{"name": "bash", "arguments": {}}`, megabyte),
		"llama function end tokens": repeatTo(`<function=bash>{"command": "ls"}<|eom_id|>`, megabyte),
	}
	for name, text := range replies {
		t.Run(name, func(t *testing.T) {
			done := make(chan Result, 1)
			go func() { done <- Parse(text, knownOpts()) }()
			var res Result
			testwait.Until(t, 90*time.Second, func() bool {
				select {
				case res = <-done:
					return true
				default:
					return false
				}
			}, "Parse of a hostile 1 MB reply")
			for _, c := range res.Calls {
				checkCall(t, c)
			}
		})
	}
}

func FuzzKimiK3(f *testing.F) {
	f.Add("<|open|>tools<|sep|><|open|>call tool=\"read_file\" index=\"0\"<|sep|><|open|>argument key=\"path\" type=\"string\"<|sep|>a.go<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>")
	f.Add("<|open|>call tool=\"x\"<|sep|><|open|>argument key=\"n\" type=\"integer\"<|sep|>1<|close|>argument<|sep|>")
	fuzzScanner(f, scanKimiK3, "kimi")
}

func FuzzTokenJSON(f *testing.F) {
	f.Add(`<|tool_call|>[{"name": "read_file", "arguments": {"path": "a.go"}}]<|/tool_call|>`)
	f.Add(`<|message_model|>read_file<|content_invoke_tool_json|>{"name": "read_file", "args": {"path": "a.go"}}<|end_message|>`)
	f.Add("<|START_ACTION|>[{\"tool_name\": \"bash\", \"parameters\": {}}")
	f.Add(`<|tools_prefix|>[{"read_file": {"path": "a.go"}}]<|tools_suffix|>`)
	f.Add("<tool_calls>\n{\"name\": \"a\", \"arguments\": {}}\n{\"name\": \"b\"")
	fuzzScanner(f, scanTokenJSON, "granite", "phi", "nemotron", "command")
}

func FuzzFunctools(f *testing.F) {
	f.Add(`functools[{"name": "read_file", "arguments": {"path": "a.go"}}]`)
	f.Add(`functools[0] functools[ {"name": "bash"`)
	fuzzScanner(f, scanFunctools, "phi4")
}
