package tools

import "testing"

// Issue 20's argument shapes, through the whole admission: broken JSON arguments of another
// harness's tool are repaired first and mapped second; a non-JSON argument string is a
// terminal tool's one required argument; a mangled -c in an argv still means bash -c.
func TestArgumentRepairBeforeMapping(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []struct {
		name, args, tool, want string // want "" = refused
	}{
		// a literal backslash-n between tokens (the two characters), to Claude Code's Grep
		{"Grep", `{"pattern": "TODO",\n"path": "src",\n"output_mode": "content"}`, "grep", `{"pattern":"TODO","path":"src"}`},
		// tokens after the object: an end-of-turn token, a closing tag, a stray brace
		{"Read", `{"file_path": "a.go"}<|im_end|>`, "read_file", `{"path":"a.go"}`},
		{"run_shell_command", `{"command": "ls", "description": "list"}</parameter>`, "bash", `{"command":"ls"}`},
		{"str_replace_editor", `{"command": "view", "path": "a.go"}}`, "read_file", `{"path":"a.go"}`},
		// a literal \n inside a string stays the string's own escape
		{"Write", `{"file_path": "a.txt",\n"content": "x\ny"}`, "write_file", `{"path":"a.txt","content":"x\ny"}`},
		// the bare command line as a terminal tool's arguments, quotes and all
		{"run_shell_command", `grep -rn "TODO" .`, "bash", `{"command":"grep -rn \"TODO\" ."}`},
		{"bash", `ls -R`, "bash", `{"command":"ls -R"}`},
		// shell operators written as XML entities (cline#10064), decoded only when the whole
		// command was escaped
		{"execute_command", `{"command": "git status --porcelain=v1 &amp;&amp; git diff --stat"}`, "bash", `{"command":"git status --porcelain=v1 && git diff --stat"}`},
		{"bash", `{"command": "make 2&gt;&amp;1 | tail"}`, "bash", `{"command":"make 2>&1 | tail"}`},
		{"bash", `{"command": "echo '&amp;' && ls"}`, "bash", `{"command":"echo '&amp;' && ls"}`},
		// argv with a mangled -c
		{"shell", `{"command": ["bash", "lc", "ls -la"]}`, "bash", `{"command":"ls -la"}`},
		{"bash", `{"command": ["bash", "—lc", "ls"]}`, "bash", `{"command":"ls"}`},
		// nothing safe to cut: a second object after the first is not stray
		{"Read", `{"file_path": "a.go"} {"file_path": "b.go"}`, "", ""},
		// text that opens JSON is never a bare argument
		{"bash", `[1, 2]`, "", ""},
		{"bash", `"`, "", ""},
	}
	for _, tc := range cases {
		a := reg.Admit(env, Call{ID: "1", Name: tc.name, Args: tc.args})
		switch {
		case tc.want == "" && a.Refusal == "":
			t.Errorf("%s %s: admitted as %s %s, want refused", tc.name, tc.args, a.Name, a.Args)
		case tc.want != "" && (a.Refusal != "" || a.Name != tc.tool || !sameJSON(t, string(a.Args), tc.want)):
			t.Errorf("%s %s: got %s %s (refusal %q), want %s %s", tc.name, tc.args, a.Name, a.Args, a.Refusal, tc.tool, tc.want)
		}
	}
}

func TestLiteralEscapesStayInStrings(t *testing.T) {
	cases := map[string]string{
		`{\n"a": 1}`:           `{ "a": 1}`,
		`{"a": "x\ny"}`:        `{"a": "x\ny"}`,
		`{"a": "q\"\n"}\t`:     `{"a": "q\"\n"} `,
		`{"a": "\\"}\r\n`:      `{"a": "\\"}  `,
		`\`:                    `\`,
		`{"a": "unterminated\`: `{"a": "unterminated\`,
	}
	for in, want := range cases {
		if got, _ := literalEscapesBetweenTokens(in); got != want {
			t.Errorf("literalEscapesBetweenTokens(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnwrapDoubledBraces(t *testing.T) {
	for in, want := range map[string]string{
		`{{"a": 1}}`:           `{"a": 1}`,
		`{{{"a": {"b": 2}}}}`:  `{"a": {"b": 2}}`,
		`{{}}`:                 `{}`,
		`{"a": {"b": 1}}`:      "",           // valid already: only the top decides
		`{{"a": 1}`:            "",           // unbalanced
		`{{"a": 1}, {"b": 2}}`: "",           // two objects, not one doubled
		`{{{{{{"a": 1}}}}}}`:   "",           // more layers than any template makes
		`{{`:                   "", `}}`: "", // no object
	} {
		got, ok := unwrapDoubledBraces(in)
		if want == "" && ok || want != "" && (!ok || got != want) {
			t.Errorf("unwrapDoubledBraces(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestDropCutCopy(t *testing.T) {
	for in, want := range map[string]string{
		`{"command": "ls", "timeout": 5{"command": "ls", "timeout": 5}`: `{"command": "ls", "timeout": 5}`,
		`{"path": "a.g{"path": "a.go"}`:                                 `{"path": "a.go"}`,
		"{\"a\":1,\n\"b\":2{\"a\": 1, \"b\": 2}":                        `{"a": 1, "b": 2}`,
		`{"a": 1, "b": {"a": 1, "b": 2}`:                                "", // where a value belongs: a nested object
		`{"command": "rm -rf x"{"command": "ls"}`:                       "", // the copies differ: two calls, not one
		`{"command": "ls"}`:                                             "", // nothing repeated
		`{"a": {"a": 1}`:                                                "", // a nested key of the same name, unclosed
		`[{"a": 1}{"a": 1}]`:                                            "",
	} {
		got, ok := dropCutCopy(in)
		if want == "" && ok || want != "" && (!ok || got != want) {
			t.Errorf("dropCutCopy(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestGLMPairsInJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{"command": "ls</arg_value>\n<arg_key>description</arg_key>\n<arg_value>List</arg_value>\n`: `{"command":"ls","description":"List"}`,
		`{"path": "a\"b.go</arg_value><arg_key>limit</arg_key>:<arg_value>5</arg_value>"}`:           `{"limit":"5","path":"a\"b.go"}`,
		`{"command": "ls</arg_value> and then <arg_key>x</arg_key><arg_value>y</arg_value>`:          "", // prose between the pairs
		`{"command": "ls</arg_value><arg_key>x</arg_key>`:                                            "", // a key without its value
		`{"command": "ls"}`: "", // no GLM markup
	} {
		got, ok := glmPairsInJSON(in)
		if want == "" && ok || want != "" && (!ok || got != want) {
			t.Errorf("glmPairsInJSON(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
