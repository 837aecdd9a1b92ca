package tools

import "testing"

// TestFitCall checks the salvage pass's fit: the name and the argument keys resolve through
// the alias layer, every key must be placed, and a lone string fits a one-argument tool.
func TestFitCall(t *testing.T) {
	reg, err := NewRegistry(Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, args string
		placed     int
		ok         bool
	}{
		{"read_file", `{"path": "a.go"}`, 1, true},
		{"Read", `{"file_path": "a.go", "offset": 1, "limit": 2}`, 3, true},
		{"bash", `{"cmd": "ls"}`, 1, true},
		{"bash", `"ls -la"`, 1, true},
		{"read_file", `{"path": "a.go", "colour": "red"}`, 0, false},
		{"bash", `{"timeout": 5}`, 0, false},
		{"no_such_tool", `{"path": "a.go"}`, 0, false},
		{"read_file", `{"path": "/outside/the/workspace.go"}`, 1, true}, // the path policy is the run's, not the fit's
	} {
		placed, ok := reg.FitCall(tc.name, tc.args)
		if placed != tc.placed || ok != tc.ok {
			t.Errorf("FitCall(%s, %s) = %d, %v; want %d, %v", tc.name, tc.args, placed, ok, tc.placed, tc.ok)
		}
	}
}
