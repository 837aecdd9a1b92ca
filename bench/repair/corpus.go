package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
)

// Case is one real malformed tool call, quoted from a public report against another harness.
// Text (and Reasoning) are the reply as the reporter quoted it; Calls are structured calls
// whose name or arguments were broken, as quoted. Expect is the call (or calls) a careful
// reader of the report would make with troupe's own tools; it is written from the report,
// never from what the parser returns.
type Case struct {
	ID        string       `json:"id"`
	Model     string       `json:"model"`
	Harness   string       `json:"harness"`
	Source    string       `json:"source"` // the report: repository and issue number
	Text      string       `json:"text,omitempty"`
	Reasoning string       `json:"reasoning,omitempty"`
	Calls     []QuotedCall `json:"calls,omitempty"`
	Expect    []Expected   `json:"expect,omitempty"`
	// Excluded says why the case cannot count: the tool it meant has no troupe equivalent,
	// or the report elided part of the call. Foreign is then the call as the model meant it,
	// in its own harness's names, so the text parser can still be checked on it.
	Excluded string     `json:"excluded,omitempty"`
	Foreign  []Expected `json:"foreign,omitempty"`
	Note     string     `json:"note,omitempty"`
}

// QuotedCall is a structured call as the report quoted it (Args is the raw argument text).
type QuotedCall struct {
	Name string `json:"name"`
	Args string `json:"args"`
}

// Expected is a call with its arguments as a JSON object.
type Expected struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// loadCorpus reads every *.json file of dir (each an array of cases), sorted by file name.
func loadCorpus(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no corpus files in %s (run from the repository root)", dir)
	}
	return readCaseFiles(files, false)
}

// readCaseFiles reads the case files in name order and checks each case (ids unique across
// them). A held-out set's errors name a case by its position, never by its id or contents, so
// that an error shows nothing of a case to whoever writes the parsers.
func readCaseFiles(files []string, byPosition bool) ([]Case, error) {
	sort.Strings(files)
	var all []Case
	seen := map[string]bool{}
	for _, f := range files {
		cases, err := readCases(f)
		if err != nil {
			return nil, err
		}
		for i, c := range cases {
			if why := caseProblem(c, seen); why != "" {
				if byPosition {
					return nil, fmt.Errorf("%s: case %d of the file %s", f, i+1, why)
				}
				return nil, fmt.Errorf("%s: case %q %s", f, c.ID, why)
			}
			seen[c.ID] = true
			all = append(all, c)
		}
	}
	return all, nil
}

// readCases reads one case file: a JSON array of cases.
func readCases(path string) ([]Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cases []Case
	if err := json.Unmarshal(data, &cases); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cases, nil
}

// caseProblem says what makes c unusable ("" when nothing does); seen holds the ids so far.
func caseProblem(c Case, seen map[string]bool) string {
	switch {
	case c.ID == "" || c.Source == "" || c.Model == "":
		return "needs id, source and model"
	case seen[c.ID]:
		return "has an id used before"
	case c.Excluded == "" && len(c.Expect) == 0:
		return "has neither expect nor excluded"
	case c.Text == "" && c.Reasoning == "" && len(c.Calls) == 0:
		return "quotes no reply"
	}
	return ""
}

// sameArgs compares an admitted call's JSON arguments with the expected object.
func sameArgs(got json.RawMessage, want map[string]any) bool {
	var g any
	if json.Unmarshal(got, &g) != nil {
		return false
	}
	w, _ := json.Marshal(want)
	var wv any
	_ = json.Unmarshal(w, &wv)
	if wv == nil {
		wv = map[string]any{}
	}
	return reflect.DeepEqual(g, wv)
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
