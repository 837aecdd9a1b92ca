package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/textcall"
)

// The grammar-free salvage pass (textcall.Salvage): shapes that no format's grammar reads, each
// in several spellings, recovered through the session's path with repair on and again by the
// salvage pass alone (every grammar off); and the prose it must leave alone.

// runSalvageVariants checks each variant through the whole session path and through the
// salvage pass alone.
func runSalvageVariants(t *testing.T, vs []variant) {
	t.Helper()
	runVariants(t, vs)
	for _, v := range vs {
		got, err := replayWith(Case{ID: "variant", Model: v.model, Text: v.text, Expect: v.want}, true, true)
		if err != nil {
			t.Fatal(err)
		}
		if !got.ok {
			t.Errorf("%s, salvage alone: %s\n%s", v.doc, got.why, clip(v.text))
		}
	}
}

// A harmony recipient (to=functions.NAME) with the channel's words mangled into stray tokens
// (translated or spam tokens between the recipient and the JSON, the header's own words glued
// to it), as gpt-oss and gpt-5 leak it into text.
func TestVariantsSalvageRecipient(t *testing.T) {
	m := "gpt-oss-20b"
	runSalvageVariants(t, []variant{
		{"recipient, words then json", m, `Checking.analysis to=functions.read commentary json {"path":"a.go"}`, nil, calls(readA)},
		{"recipient, json on the next line", m, "Texte à traduire assistant to=functions.read in commentary  彩票 json\n{\"path\":\"a.go\"}", nil, calls(readA)},
		{"recipient, glued code{", m, `assistantanalysis to=repo_browser.open_file code{"path":"a.go"}`, nil, calls(readA)},
		{"recipient, key= before the object", m, `翻译 analysis to=functions.bash  input={"command":"ls -la"} code`, nil, calls(lsla)},
		{"two recipients on one line", m, `变更analysis to=functions.read json {"path":"a.go"}/Subassistant to=functions.read json {"path":"b.go"}`, nil, calls(readA, call("read_file", "path", "b.go"))},
	})
}

// A known name with its arguments in parentheses, spelled loosely: key: value as well as
// key=value, bare or escaped or typographic quotes, a closing tag invented or cut off, the
// call in brackets with prose glued after it (small models' renderings of the Python form).
func TestVariantsSalvageParens(t *testing.T) {
	m := "gemma3:1b"
	runSalvageVariants(t, []variant{
		{"colon keyword", m, `<tool_call>read_file(path: "a.go")</tool_call>`, nil, calls(readA)},
		{"colon keyword, invented closer", m, `<tool_call>read_file(path: "a.go")</tool_xyz>`, nil, calls(readA)},
		{"colon keyword, closer cut off", m, "<tool_call>read_file(path: \"a.go\")</tool_\n", nil, calls(readA)},
		{"no opening tag", m, `read_file(path: "a.go")</tool_call>`, nil, calls(readA)},
		{"bare value", m, `<tool_call>read_file(path: a.go)</tool_call>`, nil, calls(readA)},
		{"bare value with spaces, key=", "llama-4-maverick", "Let's look first.\n\n[bash(cmd=ls -la)]", nil, calls(lsla)},
		{"escaped quotes", m, `<tool_call>read_file(path: \"a.go\")</tool_call>`, nil, calls(readA)},
		{"typographic quotes round the call", m, `<tool_call>“read_file(path: a.go)”</tool_call>`, nil, calls(readA)},
		{"bracketed, prose glued after", "lfm2.5:1.2b", `[read_file(path="a.go")]I am reading the file to see what it does.`, nil, calls(readA)},
		{"positional string", m, "<tool_call>bash(\"ls -la\")</tool_xyz>", nil, calls(lsla)},
	})
}

// Attributes, tags and a lone string after a known name, and a {"name": …} wrapper with the
// arguments flat beside the name or the wrapper's last brace lost.
func TestVariantsSalvageOtherPayloads(t *testing.T) {
	m := "some-local-model"
	grepCmd := call("bash", "command", `grep -n "TODO" a.go | head -5`)
	runSalvageVariants(t, []variant{
		{"attribute with unescaped quotes, markup around", "glm-5.1", `</think><tool_call>bash command="grep -n "TODO" a.go | head -5"</think>`, nil, calls(grepCmd)},
		{"attribute on its own line", m, "Searching.\nbash command=\"grep -n \"TODO\" a.go | head -5\"", nil, calls(grepCmd)},
		{"tags after the name", m, "<tool_call>read_file\n<path>a.go</path>", nil, calls(readA)},
		{"parameter tags after the name", m, "<tool_call>read_file <parameter=path>a.go</parameter>", nil, calls(readA)},
		{"one quoted string after markup", m, "<tool_call>bash \"ls -la\"</tool_call>", nil, calls(lsla)},
		{"one quoted string after a token", m, "<|tool_call|>bash 'ls -la'", nil, calls(lsla)},
		{"flat wrapper, unclosed tag", "bitnet-2B-4T", `<tool_call>{"name": "read_file", "path": "a.go"}`, nil, calls(readA)},
		{"flat wrapper in a fence", m, "```tool_call\n{\"name\": \"bash\", \"command\": \"ls -la\"}\n```\n", nil, calls(lsla)},
		{"name attribute, parameter tags under a mangled prefix", "deepseek-v4", "<|DSML|tool_calls>\n<|DSML|invoke name=\"bash\">\n<|DSML|parameter name=\"command\" string=\"true\">ls -la</|DSML|parameter>\n</|DSML|invoke>", nil, calls(lsla)},
		{"name attribute, a stray word before the tag", m, "court\n<invoke name=\"Bash\">\n<parameter name=\"command\">ls -la</parameter>\n</invoke>", nil, calls(lsla)},
		{"key and value tags after the name", "glm-4.6", "glob\n<arg_key>pattern</arg_key>\n<arg_value>*.go</arg_value>", nil, calls(call("glob", "pattern", "*.go"))},
		{"call index after a namespaced name", "kimi-k2", "<|tool_call_begin|>functions.bash:3<|tool_call_argument_begin|>{\"command\": \"ls -la\"}", nil, calls(lsla)},
		{"tag named after the tool, one string", m, "Let me list it.\n\n<execute_command> ls -la </execute_command>", nil, calls(lsla)},
		{"wrapper missing its last brace", m, "Writing it.\n\n```action\n{\"tool\": \"write_file\", \"args\": {\"path\": \"a.txt\", \"content\": \"hi\\n\"}\n```", nil,
			calls(call("write_file", "path", "a.txt", "content", "hi\n"))},
	})
}

// Prose that names a tool, examples in an answer, and code samples stay text.
func TestSalvageProseStays(t *testing.T) {
	for _, text := range []string{
		`For example, call read_file with {"path": "a.go"}.`,
		`I'll use read_file(path="a.go") next, then bash.`,
		"Run bash \"make test\" to check the build.",
		"- read_file {\"path\": \"a.go\"}\n- bash {\"command\": \"ls\"}",
		"```python\nimport glob\nfiles = glob.glob(\"*.py\")\nopen(\"a.txt\").read()\n```",
		"| tool | example |\n|---|---|\n| read_file | {\"path\": \"a.go\"} |",
		"The read tool takes {\"path\": \"...\"} and returns the file.",
		"read_file(path=\"a.go\") is what I would run, but you asked me not to.",
		`{"command": "ls -la", "timeout": 5}`,
		"Use `read_file(path=\"a.go\")` to see it.",
		"read_file path=\"a.go\" and then bash",
		"I ran the grep tool (pattern: \"TODO\") and found nothing.",
		"To see it yourself:\n\ncat \"notes.txt\"\n\nThat prints the notes.",
	} {
		if got := salvaged(text); len(got) > 0 {
			t.Errorf("prose read as a call: %q\n→ %v", text, got)
		}
	}
}

var salvageProse = flag.String("salvage-prose", "", "extra files of prose (comma-separated globs) for TestSalvageNegativeSet")

// TestSalvageNegativeSet runs the salvage pass over the project's own prose: the docs, the
// README, the tools' descriptions, and every textcall golden reply that holds no call; each
// file whole and each of its sections as a reply of its own. It reads no call there.
func TestSalvageNegativeSet(t *testing.T) {
	texts := map[string]string{}
	globs := []string{"../../docs/*.md", "../../README.md", "../../tools/textcall/testdata/golden/*.txt"}
	if *salvageProse != "" {
		globs = append(globs, strings.Split(*salvageProse, ",")...)
	}
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, ".txt") && strings.Contains(f, "golden") && !goldenHasNoCall(t, f) {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			texts[f] = string(b)
		}
	}
	for _, tool := range tools.Builtins() {
		texts["description of "+tool.Spec().Name] = tool.Spec().Description
	}
	replies, wrong := 0, 0
	for name, text := range texts {
		for i, part := range append([]string{text}, sections(text)...) {
			replies++
			for _, c := range salvaged(part) {
				wrong++
				t.Errorf("%s (part %d): read %s %s from %q", name, i, c.Name, c.Args, clip(c.Raw))
			}
		}
	}
	t.Logf("negative set: %d texts, %d replies, %d calls read", len(texts), replies, wrong)
}

// salvaged is what the salvage pass alone reads in text, with the built-in tools.
func salvaged(text string) []textcall.Call {
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		panic(err)
	}
	return textcall.Salvage(text, textcall.SalvageOptions{Known: reg.Knows, Fit: reg.FitCall}).Calls
}

// sections splits a markdown text at its headings.
func sections(text string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(line, "#") && cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
		cur.WriteString(line)
	}
	if len(out) == 0 {
		return nil
	}
	return append(out, cur.String())
}

// goldenHasNoCall reports whether a textcall golden reply's expected result holds no call.
func goldenHasNoCall(t *testing.T, txt string) bool {
	b, err := os.ReadFile(strings.TrimSuffix(txt, ".txt") + ".json")
	if err != nil {
		return false
	}
	var want struct {
		Calls   []json.RawMessage `json:"calls"`
		Partial bool              `json:"partial"`
	}
	if json.Unmarshal(b, &want) != nil {
		t.Fatalf("%s: unreadable golden", txt)
	}
	return len(want.Calls) == 0 && !want.Partial
}
