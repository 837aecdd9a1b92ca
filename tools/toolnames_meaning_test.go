package tools

import (
	"slices"
	"testing"
)

// An invented name whose words mean one of our tools is that tool when its arguments fit it
// (opilot#149's fetch_file_content); a name with a word the table does not know, a meaning no
// tool has, or arguments the tool does not take is never guessed at.
func TestResolveByMeaning(t *testing.T) {
	reg := builtinRegistry(t)
	tests := []struct{ name, args, want string }{
		{"fetch_file_content", `{"filePath":"/my/code/AGENTS.md"}`, "read_file"},
		{"getFileContents", `{"path":"a.go"}`, "read_file"},
		{"view_the_file", `{"file":"a.go"}`, "read_file"},
		{"create_new_file", `{"path":"a.go","content":"x"}`, "write_file"},
		{"modify_file", `{"path":"a.go","old_string":"a","new_string":"b"}`, "edit_file"},
		{"list_files", `{"path":"."}`, "list_dir"},
		{"run_shell_command_tool", `{"command":"ls"}`, "bash"},
		// a bare command line as the arguments (Cursor's run_terminal_cmd)
		{"run_terminal_cmd", `git status`, "bash"},
		{"run_terminal_cmd", "git status\ngit log", ""},         // several lines are not one value
		{"execute_command_line", `{"command":"ls"}`, ""},        // "line" is not in the table
		{"fetch_file_content", `{"url":"https://x.dev/a"}`, ""}, // read_file needs a path
		{"get_weather", `{"city":"Oslo"}`, ""},
		{"create_folder", `{"path":"src"}`, ""},        // write + dir: no tool means that
		{"create_directory", `{"path":"src"}`, "bash"}, // the MCP filesystem server's: mkdir -p (aliases_fsops.go)
		{"fetch_file_content", `{"filePath":"a","encoding":"utf8"}`, "read_file"},
		// names made only of the shell's words, or a verb that sends to it
		{"terminal_command", `{"command":"ls"}`, "bash"},
		{"bash_commands", `{"command":["bash","-lc","ls"]}`, "bash"},
		{"send_command_to_shell", `{"command":"ls"}`, "bash"},
		{"shell_command_output", `{"command":"ls"}`, ""}, // "output" is not in the table
		{"terminal_command", `{"path":"a.go"}`, ""},      // arguments bash does not take
	}
	for _, tc := range tests {
		got, _, ok := reg.Resolve(tc.name, tc.args)
		switch {
		case tc.want == "" && ok:
			t.Errorf("%s %s: resolved to %s, want no guess", tc.name, tc.args, got)
		case tc.want != "" && (!ok || got != tc.want):
			t.Errorf("%s %s: got %q ok=%v, want %s", tc.name, tc.args, got, ok, tc.want)
		}
	}
	if !reg.Knows("fetch_file_content") || reg.Knows("get_weather") {
		t.Errorf("Knows: fetch_file_content %v (want true), get_weather %v (want false)", reg.Knows("fetch_file_content"), reg.Knows("get_weather"))
	}
	a := reg.Admit(&Env{Root: t.TempDir()}, Call{ID: "1", Name: "fetch_file_content", Args: `{"filePath":"a.go"}`})
	if a.Name != "read_file" || !slices.ContainsFunc(a.Repairs, func(r Repair) bool { return r.Kind == RepairToolName && r.Before == "fetch_file_content" }) {
		t.Errorf("admitted %+v, want read_file with a tool_name repair from fetch_file_content", a)
	}
}

func TestNameWords(t *testing.T) {
	for in, want := range map[string][]string{
		"fetch_file_content": {"fetch", "file", "content"},
		"fetchFileContent":   {"fetch", "file", "content"},
		"HTTPGetFile":        {"http", "get", "file"},
		"run-shell.cmd":      {"run", "shell", "cmd"},
	} {
		if got := nameWords(in); !slices.Equal(got, want) {
			t.Errorf("nameWords(%q) = %v, want %v", in, got, want)
		}
	}
}
