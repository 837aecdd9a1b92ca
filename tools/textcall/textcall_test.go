package textcall

import (
	"slices"
	"testing"
)

func names(calls []Call) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.Name)
	}
	return out
}

func TestParse_NilKnownRecoversOnlyMarkedCalls(t *testing.T) {
	bare := `{"name": "read_file", "arguments": {"path": "a.go"}}`
	if res := Parse(bare, Options{}); len(res.Calls) != 0 || res.Prose != bare {
		t.Fatalf("bare JSON with no Known became %v, prose %q", names(res.Calls), res.Prose)
	}
	marked := "<tool_call>" + bare + "</tool_call>"
	if res := Parse(marked, Options{}); !slices.Equal(names(res.Calls), []string{"read_file"}) {
		t.Fatalf("Hermes call with no Known: got %v", names(res.Calls))
	}
}

func TestParse_UnknownNameStaysProse(t *testing.T) {
	for _, text := range []string{
		`{"name": "delete_everything", "arguments": {}}`,
		"delete_everything(path=\"/\")",
		"I will use read_file to look at it.",
		"Call read_file(path=\"a.go\") and then stop.",
	} {
		if res := Parse(text, knownOpts()); len(res.Calls) != 0 || res.Partial {
			t.Errorf("%q became calls %v (partial %v)", text, names(res.Calls), res.Partial)
		}
	}
}

func TestParse_CallsInTextOrderAcrossFormats(t *testing.T) {
	text := "one [TOOL_CALLS]list_dir[ARGS]{\"path\": \".\"}\n" +
		"<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}</tool_call>\n" +
		"read_file(path=\"b.go\")\n" +
		"<|tool_call_begin|>functions.bash:0<|tool_call_argument_begin|>{\"command\": \"ls\"}<|tool_call_end|> two"
	res := Parse(text, knownOpts())
	if got, want := names(res.Calls), []string{"list_dir", "read_file", "read_file", "bash"}; !slices.Equal(got, want) {
		t.Fatalf("calls %v, want %v", got, want)
	}
	if res.Prose != "one \n\ntwo" && res.Prose != "one \n\n two" {
		t.Fatalf("prose %q", res.Prose)
	}
}

func TestParse_PartialKeepsTheCompleteCalls(t *testing.T) {
	text := "<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}</tool_call>\n" +
		"<tool_call>{\"name\": \"write_file\", \"arguments\": {\"path\": \"b.go\", \"content\": \"pack"
	res := Parse(text, knownOpts())
	if !res.Partial || !slices.Equal(names(res.Calls), []string{"read_file"}) {
		t.Fatalf("partial %v calls %v, want partial with read_file only", res.Partial, names(res.Calls))
	}
}

func TestParse_PreferKeepsMarkersFirst(t *testing.T) {
	text := "<tool_call>{\"name\": \"read_file\", \"arguments\": {}}</tool_call>"
	res := Parse(text, Options{Known: knownOpts().Known, Prefer: []Format{FormatJSON, FormatPython}})
	if len(res.Calls) != 1 || res.Calls[0].Format != FormatHermes || res.Prose != "" {
		t.Fatalf("got %+v", res)
	}
}

func TestParse_PreferOrdersMarkerFormats(t *testing.T) {
	// A Qwen3-Coder block with a Hermes JSON body inside its parameter: whichever scanner runs
	// first owns the text.
	text := "<function=bash><parameter=command>echo '<tool_call>{\"name\": \"x\"}</tool_call>'</parameter></function>"
	res := Parse(text, Options{Prefer: []Format{FormatQwen3Coder}})
	if len(res.Calls) != 1 || res.Calls[0].Name != "bash" {
		t.Fatalf("with Qwen3-Coder preferred got %v", names(res.Calls))
	}
	if res := Parse(text, Options{}); len(res.Calls) != 1 || res.Calls[0].Name != "x" {
		t.Fatalf("in default order (Hermes first) got %v", names(res.Calls))
	}
}

func TestParse_ArgsThatCannotBeJSONKeepRaw(t *testing.T) {
	res := Parse("<tool_call>{\"name\": \"bash\", \"arguments\": \"ls -la\"}</tool_call>", Options{})
	if len(res.Calls) != 1 || res.Calls[0].Args != nil || res.Calls[0].Raw != "ls -la" {
		t.Fatalf("got %+v", res.Calls)
	}
}

func TestLooks(t *testing.T) {
	attempts := []string{
		"<tool_call>garbage", "x </tool_call>", "<function=read_file>", "[TOOL_CALLS] oops",
		"<｜tool▁calls▁begin｜>", "<|python_tag|>", "```tool_code\nfoo(\n```", `{"name": "x"`,
		"{ \"function\" : {}", `{"tool_calls": [`, "<|channel|>commentary to=functions.x <|message|>",
		`<invoke name="x">`, "<|tool_call>call:x{", "<start_function_call>call:x",
	}
	for _, text := range attempts {
		if !Looks(text) {
			t.Errorf("Looks(%q) = false, want true", text)
		}
	}
	finals := []string{
		"", "All tests pass.", "I will use read_file next.", "A map {\"a\": 1} and f(x).",
		"The name field: \"name\" is required", "```go\nfunc f() {}\n```",
	}
	for _, text := range finals {
		if Looks(text) {
			t.Errorf("Looks(%q) = true, want false", text)
		}
	}
}

// A Gemma 4 string left open in a terminated block ends at the object's '}'; in a block the
// reply cuts off, the same text is a call cut short, never run.
func TestParse_GemmaOpenStringEndsAtTheBlock(t *testing.T) {
	q := `<|"|>`
	res := Parse("<|tool_call>call:read_file{path:"+q+"a.go}<tool_call|>", knownOpts())
	if len(res.Calls) != 1 || res.Calls[0].Name != "read_file" || !sameJSON(res.Calls[0].Args, `{"path":"a.go"}`) {
		t.Fatalf("terminated block: %+v", res)
	}
	res = Parse("<|tool_call>call:write_file{path:"+q+"a.go"+q+",content:"+q+"func main() {}", knownOpts())
	if len(res.Calls) != 0 || !res.Partial {
		t.Fatalf("cut-off block read as %d calls, partial %v", len(res.Calls), res.Partial)
	}
}

// An argument tag whose body is prose around a child tag holds no arguments: the tag pair is
// not read (the grammar scanners' part; what the salvage pass reads is its own).
func TestParse_TagPairArgsOfProseAreNotChildTags(t *testing.T) {
	text := "<tool>bash</tool> <args>see <command>ls</command> below</args>"
	if spans := scanTagPairs(text, scanCtx{opt: knownOpts()}); len(spans) != 0 {
		t.Fatalf("read %d spans: %+v", len(spans), spans)
	}
	if res := Parse(text, knownOpts()); len(res.Calls) != 0 {
		t.Fatalf("read as %d calls: %+v", len(res.Calls), res.Calls)
	}
}
