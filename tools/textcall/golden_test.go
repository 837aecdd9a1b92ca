package textcall

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.json from the parser's output")

// knownTools is the tool set the golden replies are parsed against.
var knownTools = []string{"execute_command", "replace_in_file", "write_to_file", "Read", "read_file", "write_file", "edit_file", "list_dir", "bash", "exec", "terminal", "grep", "get_weather", "list_agents", "brave_search.call"}

func knownOpts() Options {
	return Options{Known: func(name string) bool { return slices.Contains(knownTools, name) }}
}

// goldenCall is a Call as it is written in a golden file.
type goldenCall struct {
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Raw    string          `json:"raw,omitempty"`
	Format Format          `json:"format"`
}

type goldenResult struct {
	Calls   []goldenCall `json:"calls"`
	Prose   string       `json:"prose"`
	Partial bool         `json:"partial"`
	Looks   bool         `json:"looks"`
}

func toGolden(text string, r Result) goldenResult {
	g := goldenResult{Calls: []goldenCall{}, Prose: r.Prose, Partial: r.Partial, Looks: Looks(text)}
	for _, c := range r.Calls {
		gc := goldenCall{Name: c.Name, Args: c.Args, Raw: c.Raw, Format: c.Format}
		if c.Args == nil {
			gc.Args = json.RawMessage("null")
		}
		g.Calls = append(g.Calls, gc)
	}
	return g
}

// TestParse_Golden parses every testdata/golden/*.txt reply (built from the formats' chat
// templates and parser docs) and compares with the reviewed .json beside it.
func TestParse_Golden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/golden/*.txt")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".txt")
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false) // keep the markers readable in the golden files
			if err := enc.Encode(toGolden(string(text), Parse(string(text), knownOpts()))); err != nil {
				t.Fatal(err)
			}
			got := buf.Bytes()
			want := strings.TrimSuffix(in, ".txt") + ".json"
			if *update {
				if err := os.WriteFile(want, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			exp, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run go test -run TestParse_Golden -update and review the file)", err)
			}
			if string(exp) != string(got) {
				t.Errorf("parse of %s:\ngot  %s\nwant %s", in, got, exp)
			}
		})
	}
}
