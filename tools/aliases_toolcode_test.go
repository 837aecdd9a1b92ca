package tools

import "testing"

// Gemma's tool_code block sent as a tool call: its Python calls are the calls; code that holds
// anything else is refused, never guessed at.
func TestToolCodeCall(t *testing.T) {
	reg := builtinRegistry(t)
	cases := []struct {
		args  string
		want  []Piece
		split bool
	}{
		{`{"code": "print(default_api.read_file(path='a.go'))"}`, []Piece{{"read_file", `{"path":"a.go"}`}}, true},
		{`{"code": "read_file(path=\"a.go\")\nbash(command=\"ls\")"}`, []Piece{{"read_file", `{"path":"a.go"}`}, {"bash", `{"command":"ls"}`}}, true},
		{`{"code": "print('The user has not said what to do.')"}`, nil, false},
		{`{"code": "import os\nprint(os.listdir('.'))"}`, nil, false},
		{`{"code": "tool_code(code=\"read_file(path='a.go')\")"}`, nil, false},
	}
	for _, tc := range cases {
		pieces, ok := reg.Split("tool_code", tc.args)
		if ok != tc.split || len(pieces) != len(tc.want) {
			t.Errorf("%s: split %v %v, want %v %v", tc.args, ok, pieces, tc.split, tc.want)
			continue
		}
		for i, p := range pieces {
			if p.Name != tc.want[i].Name || !sameJSON(t, p.Args, tc.want[i].Args) {
				t.Errorf("%s: piece %d = %v, want %v", tc.args, i, p, tc.want[i])
			}
		}
		if !tc.split {
			if a := reg.Admit(&Env{Root: t.TempDir()}, Call{ID: "1", Name: "tool_code", Args: tc.args}); a.Refusal == "" {
				t.Errorf("%s: admitted as %s %s, want refused", tc.args, a.Name, a.Args)
			}
		}
	}
}
