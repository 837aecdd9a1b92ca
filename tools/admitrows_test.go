package tools

import "testing"

// admitRow is one call to admit and what admission must make of it: want is the admitted
// arguments as JSON, or "" when the call must be refused.
type admitRow struct{ tool, args, want string }

// checkAdmits admits each row's call in env and reports every row admission got wrong.
func checkAdmits(t *testing.T, reg *Registry, env *Env, rows []admitRow) {
	t.Helper()
	for _, tc := range rows {
		a := reg.Admit(env, Call{ID: "1", Name: tc.tool, Args: tc.args})
		switch {
		case tc.want == "" && a.Refusal == "":
			t.Errorf("%s %q: admitted as %s, want refused", tc.tool, tc.args, a.Args)
		case tc.want != "" && (a.Refusal != "" || string(a.Args) != tc.want):
			t.Errorf("%s %q: got %s (refusal %q), want %s", tc.tool, tc.args, a.Args, a.Refusal, tc.want)
		}
	}
}
