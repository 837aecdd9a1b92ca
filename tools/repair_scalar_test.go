package tools

import (
	"strings"
	"testing"
)

// A tool with one required string argument takes a bare value as that argument: Cline's
// <read_file> a.py </read_file> (cline#4839) and a positional read_file("a.py") reach the
// registry as plain text or a JSON string. Anything that is not one bare value, or a tool
// whose required arguments are several, still gets the schema error; so does repair off.
func TestBareValueFillsTheOneRequiredArgument(t *testing.T) {
	reg := builtinRegistry(t)
	env := &Env{Root: t.TempDir()}
	cases := []admitRow{ // want "" = refused
		{"read_file", `rdt_engine.py`, `{"path":"rdt_engine.py"}`},
		{"read_file", `"gradle.properties"`, `{"path":"gradle.properties"}`},
		{"bash", `ls -la`, `{"command":"ls -la"}`},
		{"grep", `TODO`, `{"pattern":"TODO"}`},
		{"write_file", `a.txt`, ""},     // path and content are both required
		{"read_file", "a.go\nb.go", ""}, // two lines are not one value
		{"read_file", `["a.go"]`, ""},   // an array is not a bare value
	}
	checkAdmits(t, reg, env, cases)
	off := reg.Admit(&Env{Root: env.Root, NoRepair: true}, Call{ID: "1", Name: "read_file", Args: `a.go`})
	if off.Refusal == "" || !strings.Contains(off.Refusal, "read_file") {
		t.Errorf("with repair off a bare value must be refused, got %+v", off)
	}
}
