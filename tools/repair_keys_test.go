package tools

import "testing"

// A chat-template tag leaked into an argument name (GLM via vLLM: {"path</arg_key>": …},
// vllm#54971) is stripped, before the aliases run; a key that would collide stays as sent.
func TestLeakedKeyTagsAreStripped(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []admitRow{
		{"list_dir", `{"path</arg_key>":"src"}`, `{"path":"src"}`},
		{"read_file", `{"<arg_key>file_path</arg_key>":"a.go"}`, `{"path":"a.go"}`},
		{"list_dir", `{"path":"src","path</arg_key>":"lib"}`, ""}, // both: refused, not guessed
	}
	checkAdmits(t, reg, env, cases)
}

// GitHub Copilot's agent-mode tools map to ours (ollama#11470: Devstral's file_search).
func TestCopilotToolNames(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []struct{ name, args, tool, want string }{
		{"file_search", `{"query":"**/*.go"}`, "glob", `{"pattern":"**/*.go"}`},
		{"run_in_terminal", `{"command":"make","explanation":"build it","isBackground":false}`, "bash", `{"command":"make"}`},
		{"run_in_terminal", `{"command":"make","explanation":"build it","isBackground":true}`, "bash", `{"background":true,"command":"make"}`},
		{"replace_string_in_file", `{"filePath":"a.go","oldString":"x","newString":"y","explanation":"fix"}`, "edit_file", `{"new_string":"y","old_string":"x","path":"a.go"}`},
	}
	for _, tc := range cases {
		a := reg.Admit(env, Call{ID: "1", Name: tc.name, Args: tc.args})
		if a.Name != tc.tool || string(a.Args) != tc.want {
			t.Errorf("%s %s: got %s %s (refusal %q), want %s %s", tc.name, tc.args, a.Name, a.Args, a.Refusal, tc.tool, tc.want)
		}
	}
}
