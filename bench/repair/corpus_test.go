package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/tools"
)

// Every case of the replay corpus names its source and model, and every expected call is one
// troupe would run exactly as written (a well-formed call to a real tool with valid
// arguments): an expectation the registry itself rejects would measure nothing.
func TestCorpusExpectationsAreValidCalls(t *testing.T) {
	cases, err := loadCorpus("corpus")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 60 {
		t.Errorf("the corpus has %d cases, the issue asks for at least 60", len(cases))
	}
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	env := &tools.Env{Root: "/"}
	for _, c := range cases {
		if !strings.HasPrefix(c.Source, "https://github.com/") {
			t.Errorf("%s: source %q is not a GitHub thread", c.ID, c.Source)
		}
		if c.Excluded != "" && len(c.Expect) > 0 {
			t.Errorf("%s: excluded cases carry no expectation", c.ID)
		}
		for i, want := range c.Expect {
			args, _ := json.Marshal(want.Args)
			a := reg.Admit(env, tools.Call{ID: "x", Name: want.Name, Args: string(args)})
			if a.Refusal != "" || len(a.Repairs) > 0 || !sameArgs(a.Args, want.Args) {
				t.Errorf("%s: expected call %d (%s %s) is not a valid call as written: %q %v", c.ID, i+1, want.Name, args, a.Refusal, a.Repairs)
			}
		}
	}
}
