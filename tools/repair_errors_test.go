package tools

import (
	"context"
	"strings"
	"testing"
)

// TestPreciseArgsError: an unrepairable call says what is wrong and where, the shape of the
// arguments and one example; the same failure again gets a shorter, firmer note instead.
func TestPreciseArgsError(t *testing.T) {
	reg := builtinRegistry(t)
	env := newEnv(t)
	run := func(name, args string) Result {
		return reg.Execute(context.Background(), env, Call{ID: "1", Name: name, Args: args})
	}
	first := run("edit_file", `{"path":"a.go","old_string":"x"}`)
	mustContain(t, first.Output, "invalid arguments for edit_file: missing required property 'new_string'",
		"expected arguments: {path: string, old_string: string, new_string: string, replace_all?: boolean}",
		`example: edit_file {"path":"src/main.go","old_string":"exact old text","new_string":"new text"}`)
	if !first.IsError || !first.Rejected {
		t.Fatalf("want a rejected error: %+v", first)
	}
	second := run("edit_file", `{"path":"a.go","old_string":"x"}`)
	mustContain(t, second.Output, "again", "missing required property 'new_string'", "Do not resend", "Nearest tools:")
	if strings.Contains(second.Output, "expected arguments") || len(second.Output) >= len(first.Output)+40 {
		t.Errorf("the repeat repeats the schema:\n%s", second.Output)
	}
	// A different error on the same tool is new again.
	third := run("edit_file", `{"path":"a.go","new_string":"x"}`)
	mustContain(t, third.Output, "missing required property 'old_string'", "expected arguments:")

	// Broken JSON names the offset and a snippet.
	bad := run("bash", `{"command": "ls" "x" 1 2 ]]]`)
	mustContain(t, bad.Output, "invalid arguments for bash", "offset", "⟨here⟩", `example: bash {"command":"go test ./..."}`)

	// Another session does not share the memory.
	other := reg.Execute(context.Background(), newEnv(t), Call{ID: "1", Name: "edit_file", Args: `{"path":"a.go","old_string":"x"}`})
	mustContain(t, other.Output, "expected arguments:")
}

func TestUnknownToolRepeat(t *testing.T) {
	reg := builtinRegistry(t)
	env := newEnv(t)
	first := reg.Execute(context.Background(), env, Call{Name: "teleport", Args: `{}`})
	mustContain(t, first.Output, `unknown tool "teleport"`, "Available tools:")
	second := reg.Execute(context.Background(), env, Call{Name: "teleport", Args: `{}`})
	mustContain(t, second.Output, `unknown tool "teleport" again`, "Do not call it again")
	if strings.Contains(second.Output, "Available tools") {
		t.Errorf("the repeat lists every tool again: %s", second.Output)
	}
	// Without a session (nil Env) nothing is remembered and nothing panics.
	for range 2 {
		res := reg.Execute(context.Background(), nil, Call{Name: "teleport", Args: `{}`})
		mustContain(t, res.Output, "Available tools:")
	}
}

func TestExampleCall(t *testing.T) {
	reg, err := NewRegistry(argsTool{name: "t", schema: `{"type":"object","properties":{"n":{"type":"integer"},` +
		`"on":{"type":"boolean"},"xs":{"type":"array"},"o":{"type":"object"},"s":{"type":"string"}}}`})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := reg.byName["t"].schema.example, `{"n":1,"on":true,"xs":[],"o":{},"s":"..."}`; got != want {
		t.Errorf("example = %s, want %s", got, want)
	}
}
