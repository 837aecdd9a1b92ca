package textcall

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

const megabyte = 1 << 20

// repeatTo repeats unit until the text is about n bytes long.
func repeatTo(unit string, n int) string {
	return strings.Repeat(unit, n/len(unit)+1)[:n]
}

// hostileReplies are 1 MB replies built to make a careless parser rescan the text per
// candidate: open markers that never close, unterminated candidates, deep nesting.
func hostileReplies() map[string]string {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, megabyte)
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	return map[string]string{
		"random bytes":             string(random),
		"nested braces":            strings.Repeat("{", megabyte/2) + strings.Repeat("}", megabyte/2),
		"unclosed braces":          repeatTo(`{"a": `, megabyte),
		"unterminated calls":       repeatTo(`{"name": "read_file", "arguments": {"path": "`, megabyte),
		"open tool_call tags":      repeatTo("<tool_call>", megabyte),
		"open tool_call json":      repeatTo(`<tool_call>{"name": "read_file", `, megabyte),
		"open function tags":       repeatTo("<function=read_file><parameter=path>", megabyte),
		"harmony headers":          repeatTo("<|channel|>commentary to=functions.bash <|message|>{", megabyte),
		"mistral tokens":           repeatTo("[TOOL_CALLS]read_file[ARGS]{", megabyte),
		"deepseek begins":          repeatTo("<｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{", megabyte),
		"kimi begins":              repeatTo("<|tool_call_begin|>functions.bash:0<|tool_call_argument_begin|>", megabyte),
		"invoke opens":             repeatTo(`<invoke name="bash"><parameter name="command">`, megabyte),
		"gemma opens":              repeatTo(`<|tool_call>call:bash{command:<|"|>`, megabyte),
		"fences":                   repeatTo("```json\n{\"name\": \"read_file\", ", megabyte),
		"python opens":             repeatTo(`read_file(path=[`, megabyte),
		"python strings":           repeatTo(`read_file(path="`, megabyte),
		"python deep lists":        "read_file(path=" + strings.Repeat("[", megabyte),
		"many complete calls":      repeatTo("<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>\n", megabyte),
		"many bare python calls":   repeatTo("read_file(path=\"a.go\")\n", megabyte),
		"repair bait":              repeatTo("<tool_call>{'name': 'bash', 'arguments': {"+repeatTo("'a': 'x', ", repairMax-64), megabyte),
		"glm keys":                 repeatTo("bash\n<arg_key>command<arg_value>", megabyte),
		"tool_call lines":          repeatTo("[tool_call: bash for '", megabyte),
		"invoke line wrappers":     repeatTo("<tool_calls>\ninvoke read_file(", megabyte),
		"arrow opens":              repeatTo(`[TOOL_CALL]{tool => "bash", args => { --command "`, megabyte),
		"arrow dashes":             "[TOOL_CALL]{tool => \"bash\", args => {--k " + repeatTo(" --x", megabyte) + "}}",
		"called function lines":    repeatTo(`[Called function "bash" with args: {"a": `, megabyte),
		"tool call records":        repeatTo("[Tool Call: read (ID: x)] Arguments: {", megabyte),
		"named tool fences":        repeatTo("```tool bash\n{", megabyte),
		"llama function opens":     repeatTo(`<function=read={"path": "`, megabyte),
		"named json opens":         repeatTo(`bash{"command": `, megabyte),
		"named json closed":        repeatTo(`bash{"command": "ls"} and `, megabyte),
		"bracket block opens":      repeatTo("bash\nls -la\n", megabyte),
		"bracket block closes":     repeatTo("[bash]\nls\n[/bash]\n", megabyte),
		"gemma bare opens":         repeatTo(`call:bash{command:<|"|>`, megabyte),
		"gemma bare nests":         "call:bash{" + strings.Repeat("call:bash{a:[", megabyte/13),
		"stray token lines":        repeatTo("bash ▁ [ARGS] {", megabyte),
		"name tag opens":           repeatTo("<name>bash</name><parameter=command>", megabyte),
		"arg tag opens":            repeatTo("<tool>bash</tool><args>{", megabyte),
		"attribute opens":          repeatTo(`name="bash" arguments={"command": `, megabyte),
		"fused opens":              repeatTo(`{"function="bash", "command="ls`, megabyte),
		"mangled closers":          "<function=bash>\n<parameter=command>" + repeatTo("x/parameter>\nfunction>", megabyte),
		"param-named opens":        repeatTo("<parameter=bash>\n<parameter=command>\nls\n", megabyte),
		"param-named no closers":   repeatTo("<parameter=bash> <parameter=x> <parameter=y>", megabyte),
		"lost gt openers":          "<function=bash>" + repeatTo("<parameter=command ls\n", megabyte),
		"stray closers":            "<function=bash>\n<parameter=command>\nls\n" + repeatTo("</x>\n", megabyte),
		"attribute bodies":         repeatTo(`<tool_call>exec tool="exec" command="ls`, megabyte),
		"attribute bodies closed":  repeatTo(`<tool_call>exec command="ls" />`, megabyte),
		"tool_code tag opens":      repeatTo(`<tool_code>run_command("ls`, megabyte),
		"tool_code tags":           repeatTo(`<tool_code>run_command("ls")</tool_code>`, megabyte),
		"call label groups":        repeatTo("call:bash:\nBEGIN_ARG:\n<|channel>thought\n", megabyte),
		"call label lines":         repeatTo("call:bash:\n", megabyte),
		"call label closed groups": repeatTo("call:bash:\nBEGIN_ARG:\nls\nEND_ARG\n", megabyte),
		"thoughts in a value":      "call:bash:\nBEGIN_ARG:\n" + repeatTo("<|channel>t<channel|>x", megabyte) + "\nEND_ARG",
		"escaped key quotes":       repeatTo(`{"name": "bash", "arguments": {"a\": 1, "b\": `, megabyte),
		"closers before prose":     repeatTo(`{"name": "bash", "arguments": {"command": "ls"}x `, megabyte),
		"unclosed before prose":    repeatTo(`{"name": "bash", "arguments": {"command": [1, {"a": "`, megabyte),
		"discussion headings":      repeatTo("DISCUSSION\nx\n", megabyte),
		"discussion command lines": "DISCUSSION\nCOMMAND\n" + repeatTo("open a b c d e\n", megabyte),
		"discussion open fence":    "DISCUSSION\n```\n" + repeatTo("ls\n", megabyte),
		"discussion on one line":   repeatTo("DISCUSSION ", megabyte),
		"glued glm names":          repeatTo("<tool_call>bashcommand</arg_key><arg_value>", megabyte),
		"xml tags unclosed":        repeatTo("<read_file>\n<path>a", megabyte),
		"xml tags mangled":         repeatTo("<read_file><path>a/path>", megabyte),
		"tool_call as closers":     repeatTo(`<tool_call>{"name": "bash"}`, megabyte),
		"stray token objects":      repeatTo("bash ▁ {\"command\": \"ls\"} x\n", megabyte),
		"mistral stray opens":      repeatTo("[TOOL_CALLS]bash<unk> ▁ ", megabyte),
		"fused objects":            `<tool_call>{"name": "bash"` + repeatTo(`, "arguments="{"a": {`, megabyte) + "</tool_call>",
		"fused closers":            repeatTo(`{"name="bash", "x="} }`, megabyte),
		"fused far closers":        repeatTo(`{"name="bash", "k="`+strings.Repeat("v", 100)+`}`, megabyte),
		"glm lost closers":         repeatTo("bash\n<arg_key>command</arg_key><arg_value>ls<arg_value>", megabyte),
		"kimi ids":                 repeatTo(`functions.bash:0 {"command": "`, megabyte),
		"kimi ids closed":          repeatTo(`functions.bash:0{"command": "ls"} x `, megabyte),
		"escaped attributes":       repeatTo(`<tool_call name="bash" arguments="{\"command\": \"ls`, megabyte),
		"entity attributes":        repeatTo(`<f name='bash' parameters='{&quot;command&quot;: `, megabyte),
		"llama4 opens":             repeatTo(`<|python_start|>[read_file(path="`, megabyte),
		"deepseek ascii begins":    repeatTo("<|tool_call_begin|>read_file<|tool_sep|>{", megabyte),
		"antml invoke opens":       repeatTo(`<invoke name="bash"><parameter name="command">`, megabyte),
		"fused after name":         repeatTo(`{"name": "bash", "arguments="{"command": "ls`, megabyte),
		"fused after name close":   repeatTo(`{"name": "bash", "k="v"} `, megabyte),
		"react opens":              repeatTo("Action: bash\nAction Input: {\"command\": \"", megabyte),
		"react names":              repeatTo("\nAction: bash\n", megabyte),
		"react labels one line":    repeatTo("Action: bash ", megabyte),
		"qwen-agent one line":      repeatTo("✿FUNCTION✿: bash ✿ARGS✿: ", megabyte),
		"qwen-agent opens":         repeatTo("✿FUNCTION✿: bash\n✿ARGS✿: {", megabyte),
		"continue tool fences":     "```tool\nTOOL_NAME: bash\n" + repeatTo("BEGIN_ARG: command\nls\n", megabyte),
		"continue open fences":     repeatTo("```tool\nTOOL_NAME: bash\nBEGIN_ARG: command\n", megabyte),
		"legacy invoke opens":      repeatTo("<invoke>\n<tool_name>bash</tool_name>\n<parameters>\n<command>", megabyte),
		"legacy invoke names":      repeatTo("<invoke><tool_name>", megabyte),
		"escaped markup":           repeatTo("&lt;tool_call&gt;{&quot;name&quot;: &quot;bash&quot;, ", megabyte),
		"escaped entities only":    repeatTo("&lt;&amp;&gt;", megabyte),
		"qwen unclosed lines":      repeatTo("<tool_call>\n<function=bash>\n<parameter=command>\nls\n", megabyte),
		"attribute line opens":     "bash with " + repeatTo(`command="ls" k="`, megabyte),
		"attribute lines":          repeatTo("read_file path=\"a.go\" x\n", megabyte),
		"fence tag then lines":     "bash\n" + repeatTo("ls -la ", megabyte),
		"mangled tag lines":        repeatTo("read_file>\nargs>\n<path>a.gopath>\n", megabyte),
		"mangled tag opens":        repeatTo("read_file>\n", megabyte),
		"label opens":              repeatTo(`: bash Args :{"command": "`, megabyte),
		"label braces":             repeatTo("bash Args : {", megabyte),
		"gemma mixed quotes":       "<|tool_call>call:bash{" + repeatTo(`a:'x`, megabyte),
		"gemma mixed quote ends":   "<|tool_call>call:bash{" + repeatTo(`a:"x<|"|>,`, megabyte),
		"namespaced invoke opens":  repeatTo(`<a:invoke name="bash"><a:parameter name="command">`, megabyte),
		"many invoke prefixes":     repeatTo(`<p1:invoke name="bash"><p2:invoke name="x"><p3:invoke name=<p4:invoke name=<p5:invoke name=`, megabyte),
		"prefix-less invokes":      repeatTo(`:invoke name=`, megabyte),
		"tool_call line clauses":   "[tool_call: bash for 'x'" + repeatTo(" with k: 'v'", megabyte) + "]",
		"tool_call line quotes":    repeatTo("[tool_call: bash with k '", megabyte),
		"attr element opens":       repeatTo(`<read_file path="a.go" k="`, megabyte),
		"attr elements":            repeatTo("<read_file path=\"a.go\"/>\n", megabyte),
		"name attr tag opens":      repeatTo(`<tool_call name="bash">{"command": "`, megabyte),
		"name attr tags no gt":     repeatTo(`<tool_call name="bash" `, megabyte),
		"granite short lists":      repeatTo(`<tool_call>[{"name": "bash", "arguments": {}}`, megabyte),
		"hermes python opens":      repeatTo(`<tool_call>[read_file(path="a"), `, megabyte),
		"hermes python bodies":     repeatTo("<tool_call>read_file(path=\"a\")</tool_call>\n", megabyte),
		"hermes python unclosed":   "<tool_call>" + repeatTo(`read_file(path="a") `, megabyte) + ")",
		"continue labels":          repeatTo("TOOL_NAME: bash\nBEGIN_ARG: command\n", megabyte),
		"continue names":           repeatTo("TOOL_NAME: bash\n", megabyte),
		"continue groups":          "TOOL_NAME: bash\n" + repeatTo("BEGIN_ARG: k\nv\nEND_ARG\n", megabyte),
		"parallel wrappers":        repeatTo(`{"tool_uses": [{"recipient_name": "functions.bash", "parameters": {`, megabyte),
		"name attr param opens":    repeatTo(`<tool_call name="bash"><parameter name="command">`, megabyte),
		"glm lost openers":         repeatTo("bash\n<arg_key>command</arg_key>ls</arg_value>", megabyte),
		"glm keys one closer":      repeatTo("<arg_key>k</arg_key>v ", megabyte) + "</arg_value>",
		"bare invoke opens":        repeatTo("invoke name=\"bash\">\nparameter name=\"command\">ls", megabyte),
		"bare invoke lines":        "invoke name=\"bash\">\n" + repeatTo("parameter name=\"k\">vparameter>\n", megabyte),
		"bare invoke blocks":       repeatTo("invoke name=\"bash\">\nparameter name=\"command\">lsparameter>\ninvoke>\n", megabyte),
		"self-closing params":      `<invoke name="bash">` + repeatTo(`<parameter name="k" value="v"/>`, megabyte),
		"self-closing opens":       repeatTo(`<invoke name="bash"><invoke name="k" string="v" `, megabyte),
		"flattened values":         repeatTo("<function=bash> <parameter=command> ls </parameter> ", megabyte),
	}
}

// TestParse_HostileMegabyte checks that each hostile 1 MB reply parses in bounded time: a
// quadratic rescan of 1 MB would take many minutes, linear work takes milliseconds (under -race on a
// loaded machine the slowest one takes about 18 s, hence the generous bound).
func TestParse_HostileMegabyte(t *testing.T) {
	for name, text := range hostileReplies() {
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

// TestParse_ManyCallsAllFound checks that the linear scan does not trade away results: every
// one of thousands of calls in a long reply is found.
func TestParse_ManyCallsAllFound(t *testing.T) {
	const n = 5000
	var b strings.Builder
	for i := range n {
		b.WriteString("step\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"echo ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString("\"}}</tool_call>\n")
	}
	res := Parse(b.String(), knownOpts())
	if len(res.Calls) != n || res.Partial {
		t.Fatalf("found %d calls (partial %v), want %d", len(res.Calls), res.Partial, n)
	}
}

// mixedReply is about 1 MB of prose, code fences and calls in several formats.
func mixedReply() string {
	parts := []string{
		"Let me look at the code first. The function `read_file` returns the file's lines.\n",
		"<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>\n",
		"```go\nfunc main() { fmt.Println(\"hi\") }\n```\n",
		"<function=bash>\n<parameter=command>\ngo test ./...\n</parameter>\n</function>\n",
		"Some more prose with {braces} and (parens) and a [link](http://x).\n",
		"[TOOL_CALLS]list_dir[ARGS]{\"path\": \".\"}\n",
		"read_file(path=\"b.go\")\n",
		"<|tool_calls_section_begin|><|tool_call_begin|>functions.grep:0<|tool_call_argument_begin|>{\"pattern\": \"x\"}<|tool_call_end|><|tool_calls_section_end|>\n",
	}
	return repeatTo(strings.Join(parts, ""), megabyte)
}

// noCallReply is about 1 MB of prose and code with no call in it.
func noCallReply() string {
	return repeatTo("The parser reads the reply once. A map like {\"a\": 1} or a call like f(x) in prose is not a tool call.\n```go\nfor i := range n { sum += i }\n```\n", megabyte)
}

func BenchmarkParse_Mixed1MB(b *testing.B)  { benchParse(b, mixedReply()) }
func BenchmarkParse_NoCall1MB(b *testing.B) { benchParse(b, noCallReply()) }

func benchParse(b *testing.B, text string) {
	opt := knownOpts()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Parse(text, opt)
	}
}

func BenchmarkLooks_NoCall1MB(b *testing.B) {
	text := noCallReply()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Looks(text)
	}
}
