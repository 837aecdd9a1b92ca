package textcall

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// salvageSchemas stand in for the registry's schemas: each tool's required and optional keys.
var salvageSchemas = map[string][2][]string{
	"read_file": {{"path"}, {"offset", "limit"}},
	"bash":      {{"command"}, {"timeout_s"}},
	"glob":      {{"pattern"}, {"path"}},
}

// salvageOpts knows the schemas' tools (and functions.NAME) and fits arguments to them the way
// the registry does: required keys present, no key the schema does not take, a lone JSON
// string for a tool with one required argument.
func salvageOpts() SalvageOptions {
	tool := func(name string) string { return strings.TrimPrefix(name, "functions.") }
	return SalvageOptions{
		Known: func(name string) bool { _, ok := salvageSchemas[tool(name)]; return ok },
		Fit: func(name, args string) (int, bool) {
			s, ok := salvageSchemas[tool(name)]
			if !ok {
				return 0, false
			}
			var str string
			if json.Unmarshal([]byte(args), &str) == nil {
				return 1, len(s[0]) == 1
			}
			var obj map[string]any
			if json.Unmarshal(argsFromText(args), &obj) != nil { // repaired, as tools/ does
				return 0, false
			}
			for _, k := range s[0] {
				if _, ok := obj[k]; !ok {
					return 0, false
				}
			}
			for k := range obj {
				if !slices.Contains(s[0], k) && !slices.Contains(s[1], k) {
					return 0, false
				}
			}
			return len(obj), true
		},
	}
}

// TestSalvage_Rules checks what stands as a call and what stays prose, rule by rule.
func TestSalvage_Rules(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string // NAME ARGS of each call read
	}{
		// where a name stands
		{"line start", `read_file {"path": "a.go"}`, []string{`read_file {"path":"a.go"}`}},
		{"after brackets", `[read_file(path="a.go")]`, []string{`read_file {"path":"a.go"}`}},
		{"after call markup", `Let me see.<tool_call>read_file(path: "a.go")</tool_call>`, []string{`read_file {"path":"a.go"}`}},
		{"glued recipient", `检查analysis to=functions.read_file json {"path":"a.go"}`, []string{`functions.read_file {"path":"a.go"}`}},
		{"recipient in a sentence", `Send it to=functions.read_file json {"path":"a.go"}`, nil},
		{"recipient key", `<function=read_file> {"path":"a.go"}`, []string{`read_file {"path":"a.go"}`}},
		{"other key", `input=read_file {"path":"a.go"}`, nil},
		{"a sentence after a recipient", `assistant to=functions.read_file and then the body holds {"path":"a.go"}`, nil},
		{"mid-sentence", `Now call read_file {"path": "a.go"}`, nil},
		{"after inline html", `See <code>read_file(path="a.go")</code> here`, nil},
		{"after a bullet", `- read_file {"path": "a.go"}`, nil},
		{"quoted name is a value", `"read_file": {"path": "a.go"}`, nil},
		// what may stand between a name and its payload
		{"stray tokens", `read_file ▁ 的 {"path": "a.go"}`, []string{`read_file {"path":"a.go"}`}},
		{"one line break", "read_file\n{\"path\": \"a.go\"}", []string{`read_file {"path":"a.go"}`}},
		{"two line breaks", "read_file\n\n{\"path\": \"a.go\"}", nil},
		{"words after a line-start name", `read_file the file {"path": "a.go"}`, nil},
		{"words after markup", `<|start|>read_file commentary json {"path": "a.go"}`, []string{`read_file {"path":"a.go"}`}},
		{"another name first", `<tool_call>bash read_file {"path": "a.go"}`, nil},
		// what may follow it
		{"prose after on the line", `read_file {"path": "a.go"} and then I will edit it`, nil},
		{"one word after a line-start call", `read_file {"path": "a.go"} first`, nil},
		{"one word after a marked call", `assistant to=functions.read_file {"path": "a.go"} code`, []string{`functions.read_file {"path":"a.go"}`}},
		{"prose after the closing bracket", `[glob(pattern="*.go")]I am listing the Go files.`, []string{`glob {"pattern":"*.go"}`}},
		{"prose after a closing backtick", "`glob(pattern=\"*.go\")` lists them", nil},
		{"a sentence after the closing bracket", `[glob(pattern="*.go")] is the call to send.`, nil},
		{"closing tags", "<tool_call>bash(command=\"ls\")</tool_call>\n", []string{`bash {"command":"ls"}`}},
		// payloads
		{"colon kwargs, bare value", `<tool_call>glob(pattern: *.go)</tool_call>`, []string{`glob {"pattern":"*.go"}`}},
		{"positional string", `<tool_call>bash("ls -la")</tool_call>`, []string{`bash "ls -la"`}},
		{"bare positional is not a value", "bash(rm -rf *) deny", nil},
		{"a variable is not a value", "[read_file(path=file_path)]", nil},
		{"an attribute is not a value", "[read_file(path=self.path)]", nil},
		{"a signature", "read_file(path: str)", nil},
		{"bare words cut off", "read_file(path=the whole file", nil},
		{"quoted value, closer lost", "read_file(path=\"a.go\"\n", []string{`read_file {"path":"a.go"}`}},
		{"lone quoted string after markup", `<tool_call>bash "ls -la"</tool_call>`, []string{`bash "ls -la"`}},
		{"lone quoted string on its own line", `bash "ls -la"`, nil},
		{"lone quoted string then a word", `<tool_call>bash "ls -la" now`, nil},
		{"attributes with inner quotes", `<tool_call>bash command="grep "x" a | wc"</tool_call>`, []string{`bash {"command":"grep \"x\" a | wc"}`}},
		{"attribute then prose", `read_file path="a.go" and then bash`, nil},
		{"tags", "<tool_call>read_file\n<path>a.go</path>\n</tool_call>", []string{`read_file {"path":"a.go"}`}},
		{"flat wrapper", `<tool_call>{"name": "glob", "pattern": "*.go"}`, []string{`glob {"pattern":"*.go"}`}},
		{"wrapper with arguments", "```json\n{\"tool\": \"read_file\", \"args\": {\"path\": \"a.go\"}}\n```", []string{`read_file {"path":"a.go"}`}},
		{"wrapper mid-sentence", `I would send {"name": "read_file", "path": "a.go"} now`, nil},
		{"cut-off object kept raw", `read_file {"path": "a.go`, []string{`read_file {"path": "a.go`}},
		{"call index after the name", "<|tool_call_begin|>functions.bash:3<|tool_call_argument_begin|>{\"command\": \"ls\"}", []string{`functions.bash {"command":"ls"}`}},
		{"name attribute, parameter tags", "<invoke name=\"read_file\">\n<parameter name=\"path\">a.go</parameter>\n</invoke>", []string{`read_file {"path":"a.go"}`}},
		{"name attribute, prefixed tags", `<｜DSML｜invoke name="bash"><｜DSML｜parameter name="command" string="true">ls</｜DSML｜parameter></｜DSML｜invoke>`, []string{`bash {"command":"ls"}`}},
		{"name attribute in prose", `She said name="bash" loudly.`, nil},
		{"key and value tags", `<tool_call>bash<arg_key>command</arg_key><arg_value>ls</arg_value></tool_call>`, []string{`bash {"command":"ls"}`}},
		{"tag named after the tool", "Listing.\n<bash> ls -la </bash>", []string{`bash "ls -la"`}},
		{"tag named after the tool in a sentence", "Use <bash>ls</bash> to list the files.", nil},
		{"tag named after the tool, attributes", `<read_file path="a.go" />`, []string{`read_file {"path":"a.go"}`}},
		{"tag named after the tool, attributes left unread", `<read_file path="a.go" onclick=x>`, nil},
		{"tag named after the tool, argument tags", "<read_file>\n<path>a.go</path>\n</read_file>", []string{`read_file {"path":"a.go"}`}},
		{"a list of calls", `[bash(command='ls a'), bash(command='ls b')]`, []string{`bash {"command":"ls a"}`, `bash {"command":"ls b"}`}},
		{"a Python dict wrapper", `{'name': 'read_file', 'input': {'path': 'a.go'}}`, []string{`read_file {"path":"a.go"}`}},
		// fit and margin
		{"unknown key", `read_file {"path": "a.go", "colour": "red"}`, nil},
		{"required key missing", `bash {"timeout_s": 5}`, nil},
		{"elided value", `bash(command="...")`, nil},
		{"a payload beyond another name", `<tool_call>read_file glob {"pattern": "*.go"}`, nil},
		// fences
		{"call-only fence", "```tool_call\nread_file(path: \"a.go\")\n```", []string{`read_file {"path":"a.go"}`}},
		{"fence with code around", "```\nx = 1\nread_file(path=\"a.go\")\n```", nil},
		{"code fence", "```python\nread_file(path=\"a.go\")\n```", nil},
		{"two calls", "bash(command=\"ls\")\nread_file(path=\"a.go\")", []string{`bash {"command":"ls"}`, `read_file {"path":"a.go"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Salvage(tc.text, salvageOpts())
			var got []string
			for _, c := range res.Calls {
				args := string(c.Args)
				if c.Args == nil {
					args = c.Raw
				}
				got = append(got, c.Name+" "+args)
				checkCall(t, c)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("Salvage(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

// TestSalvage_ProseKeepsTheRest checks the calls' regions leave the words around them.
func TestSalvage_ProseKeepsTheRest(t *testing.T) {
	res := Salvage("Reading it now.\n<tool_call>read_file(path: \"a.go\")</tool_call>", salvageOpts())
	if len(res.Calls) != 1 || res.Prose != "Reading it now." {
		t.Fatalf("got %d calls, prose %q", len(res.Calls), res.Prose)
	}
}

// TestSalvage_HostileMegabyte checks the pass is bounded on 1 MB of hostile input: the parsers'
// hostile replies and salvage's own bait (known names before payloads that never close).
func TestSalvage_HostileMegabyte(t *testing.T) {
	replies := hostileReplies()
	for name, unit := range map[string]string{
		"names and open objects":   "read_file {\"path\": \"",
		"names and open parens":    "\nread_file(path=\"",
		"recipients and words":     "to=functions.bash commentary json ",
		"names and open tags":      "<tool_call>read_file\n<path>",
		"names and attributes":     "\nbash command=\"x \" y \"",
		"wrappers never closed":    "\n{\"name\": \"bash\", \"command\": \"",
		"wrapper names only":       `"name": "bash", `,
		"fences and calls":         "```\nbash(\"ls\")\nx\n",
		"many standing calls":      "bash(command=\"ls\")\n",
		"distinct unknown words":   "w",
		"names between positions":  "bash ▁ ",
		"name attributes unclosed": `<invoke name="bash"><parameter name="command">`,
		"key tags without values":  "bash<arg_key>command</arg_key>",
		"tags named, never closed": "<bash> ls ",
		"call indexes":             "functions.bash:1 <|x|>{",
	} {
		replies["salvage: "+name] = repeatTo(unit, megabyte)
	}
	var words strings.Builder
	for i := 0; words.Len() < megabyte; i++ {
		words.WriteString("word")
		words.WriteString(strings.Repeat("x", i%50))
		words.WriteString(string(rune('a'+i%26)) + " ")
	}
	replies["salvage: many distinct words"] = words.String()
	for name, text := range replies {
		t.Run(name, func(t *testing.T) {
			var res Result
			testwait.Returns(t, 90*time.Second, func() { res = Salvage(text, salvageOpts()) }, "Salvage of a hostile 1 MB reply")
			if len(res.Calls) > salvageCallsMax {
				t.Fatalf("%d calls, more than the bound %d", len(res.Calls), salvageCallsMax)
			}
			for _, c := range res.Calls {
				checkCall(t, c)
			}
		})
	}
}

func FuzzSalvage(f *testing.F) {
	seedGoldens(f, "")
	for _, s := range []string{`<tool_call>read_file(path: "a.go")</tool_call>`, `x to=functions.bash json {"command":"ls"}`,
		`bash command="a "b" c"`, "read_file\n<path>a</path>", `{"name": "glob", "pattern": "*"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		res := Salvage(text, salvageOpts())
		for _, c := range res.Calls {
			checkCall(t, c)
		}
		if len(res.Prose) > len(text) {
			t.Fatalf("prose longer than the text: %d > %d", len(res.Prose), len(text))
		}
		again := Salvage(text, salvageOpts())
		if len(again.Calls) != len(res.Calls) || again.Prose != res.Prose {
			t.Fatalf("Salvage is not deterministic")
		}
	})
}
