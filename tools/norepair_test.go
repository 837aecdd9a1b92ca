package tools

import "testing"

// With repair off (the repair bench's baseline) only broken JSON is repaired, as before issue
// 9: an aliased argument or another harness's tool name is refused and nothing is reported as
// repaired.
func TestNoRepairRefusesWhatWouldBeRepaired(t *testing.T) {
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{"a.txt": "alpha\n"})
	if res := call(t, env, "read_file", `{"file_path": "a.txt"}`); res.IsError || len(res.Repairs) == 0 {
		t.Fatalf("repair on: %+v", res)
	}
	env.NoRepair = true
	for _, c := range []struct{ name, args string }{
		{"read_file", `{"file_path": "a.txt"}`},
		{"Read", `{"file_path": "a.txt"}`},
	} {
		res := call(t, env, c.name, c.args)
		if !res.IsError || !res.Rejected || len(res.Repairs) != 0 {
			t.Errorf("%s %s with repair off: %+v", c.name, c.args, res)
		}
	}
	if res := call(t, env, "read_file", `{"path": "a.txt",}`); res.IsError {
		t.Errorf("broken JSON is still repaired with repair off: %+v", res)
	}
}
