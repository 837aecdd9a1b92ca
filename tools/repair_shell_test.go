package tools

import (
	"slices"
	"testing"
)

// A bash call in Codex's or Claude Code's shell form (an argv array, a timeout in
// milliseconds) runs as the command line and the seconds it meant; a call in our own form is
// left alone, and with repair off the shell form is refused.
func TestShellFormRepairs(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []struct {
		args, want string // want "" = refused
		repaired   bool
	}{
		{`{"command":["bash","-lc","ls -1a"]}`, `{"command":"ls -1a"}`, true},
		{`{"cmd":["git","commit","-m","a b"]}`, `{"command":"git commit -m 'a b'"}`, true},
		{`{"command":"ls","timeout":10000}`, `{"command":"ls","timeout_s":10}`, true},
		{`{"command":"ls","timeout":120001}`, `{"command":"ls","timeout_s":121}`, true},
		{`{"command":"ls","timeout":30}`, `{"command":"ls","timeout_s":30}`, false}, // seconds: an alias only
		{`{"command":"ls","timeout_s":30}`, `{"command":"ls","timeout_s":30}`, false},
		// a login flag apart from -c, a shell by its path (Codex's argv as models vary it)
		{`{"command":["bash","-l","-c","ls -1a"]}`, `{"command":"ls -1a"}`, true},
		{`{"command":["/bin/bash","--login","-c","ls -1a"]}`, `{"command":"ls -1a"}`, true},
		{`{"command":["/usr/bin/zsh","-lc","ls"]}`, `{"command":"ls"}`, true},
		// not one script: quoted as words
		{`{"command":["bash","-c","echo $0","x"]}`, `{"command":"bash -c 'echo $0' x"}`, true},
		{`{"command":["bash","-x","-c","ls"]}`, `{"command":"bash -x -c ls"}`, true},
		{`{"command":["ls", 3]}`, "", false}, // not an argv
	}
	for _, tc := range cases {
		a := reg.Admit(env, Call{ID: "1", Name: "bash", Args: tc.args})
		switch {
		case tc.want == "" && a.Refusal == "":
			t.Errorf("%s: admitted as %s, want refused", tc.args, a.Args)
		case tc.want != "" && (a.Refusal != "" || string(a.Args) != tc.want):
			t.Errorf("%s: got %s (refusal %q), want %s", tc.args, a.Args, a.Refusal, tc.want)
		}
		shell := slices.ContainsFunc(a.Repairs, func(r Repair) bool { return r.Kind == RepairShellForm })
		if shell != tc.repaired {
			t.Errorf("%s: repairs %+v, shell_form repair %v, want %v", tc.args, a.Repairs, shell, tc.repaired)
		}
	}
	off := reg.Admit(&Env{Root: env.Root, NoRepair: true}, Call{ID: "1", Name: "bash", Args: `{"command":["bash","-lc","ls"]}`})
	if off.Refusal == "" {
		t.Errorf("with repair off the argv form must be refused, got %+v", off)
	}
}
