package tools

import "testing"

// Resolved names the tool a call will run as and its repaired arguments, from the call alone;
// a name that maps to nothing is not resolved.
func TestResolvedNamesWhatRuns(t *testing.T) {
	reg := builtinRegistry(t)
	cases := []struct{ name, args, tool, want string }{
		{"read_file", `{"path": "a.go"}`, "read_file", `{"path": "a.go"}`}, // unchanged: the call's own text
		{"developer__shell", `{"command": "ls"}`, "bash", `{"command":"ls"}`},
		{"Bash", `{"command": "ls", "timeout": 120000, "description": "list"}`, "bash", `{"command":"ls","timeout_s":120}`},
		{"read_file", `{"file_path": "a.go", "limit": "20"}`, "read_file", `{"path":"a.go","limit":20}`},
		{"bash", `ls -R`, "bash", `{"command":"ls -R"}`},
		{"Write", `{'file_path': 'a.txt', 'content': 'x',}`, "write_file", `{"path":"a.txt","content":"x"}`},
		{"read_file", `{"path": `, "read_file", `{"path": `}, // unreadable: the call's own, refused later
	}
	for _, tc := range cases {
		tool, args, ok := reg.Resolved(tc.name, tc.args)
		if !ok || tool != tc.tool || args != tc.want && (tc.want[len(tc.want)-1] != '}' || !sameJSON(t, args, tc.want)) {
			t.Errorf("Resolved(%s, %s) = %s %s %v; want %s %s", tc.name, tc.args, tool, args, ok, tc.tool, tc.want)
		}
	}
	if tool, _, ok := reg.Resolved("teleport", `{}`); ok {
		t.Errorf("teleport resolved to %s", tool)
	}
}
