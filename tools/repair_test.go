package tools

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		raw      string
		want     string // the object, compacted; "" means a parse error
		repaired bool
	}{
		{`{"a":1}`, `{"a":1}`, false},
		{`  `, `{}`, false},
		{`null`, `{}`, false},
		{`{"a":1,}`, `{"a":1}`, true},
		{`{a: 'x'}`, `{"a":"x"}`, true},
		{`{"a": [1, 2`, `{"a":[1,2]}`, true},
		{"```\n{\"a\":1}\n```", `{"a":1}`, true},
		{`"{\"a\":1}"`, `{"a":1}`, true},
		{`"\"{\\\"a\\\":1}\""`, `{"a":1}`, true},
		{`"just text"`, "", false},
		{`42`, "", false},
		{`[1]`, "", false},
		{`{"a":1} {"b":2}`, "", false},
	}
	for _, tc := range tests {
		args, repaired, err := parseArgs(tc.raw)
		if tc.want == "" {
			if err == nil {
				t.Errorf("parseArgs(%q) = %s, want an error", tc.raw, args)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseArgs(%q): %v", tc.raw, err)
			continue
		}
		var v any
		if err := json.Unmarshal(args, &v); err != nil {
			t.Errorf("parseArgs(%q) gave invalid JSON %s", tc.raw, args)
		}
		compact, _ := json.Marshal(v)
		if string(compact) != tc.want || repaired != tc.repaired {
			t.Errorf("parseArgs(%q) = %s repaired=%v, want %s repaired=%v", tc.raw, compact, repaired, tc.want, tc.repaired)
		}
	}
}

func FuzzRepairArgs(f *testing.F) {
	for _, seed := range []string{`{"path":"a"}`, `{'a':1,}`, "```json\n{a:1}\n```", `"{\"a\":1}"`, `{"a":"b`, `{{{{`, `"`, "\x00{", `[{"a":1}]`, `{"a":1}}}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		args, _, err := parseArgs(raw)
		if err != nil {
			if err.Error() == "" || args != nil {
				t.Fatalf("error with args: %v %s", err, args)
			}
			return
		}
		var obj map[string]any
		if err := json.Unmarshal(args, &obj); err != nil {
			t.Fatalf("parseArgs(%q) returned non-object %q: %v", raw, args, err)
		}
	})
}

func TestBoundText(t *testing.T) {
	var lines strings.Builder
	for range 1000 {
		lines.WriteString("0123456789\n")
	}
	tests := []struct {
		name   string
		in     string
		budget int
	}{
		{"lines", lines.String(), 1000},
		{"one long line", strings.Repeat("x", 5000), 1000},
		{"multibyte", strings.Repeat("é€😀", 1000), 777},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, cut := boundText(tc.in, tc.budget)
			if !cut || len(got) > tc.budget {
				t.Fatalf("cut=%v len=%d, want cut within %d", cut, len(got), tc.budget)
			}
			if !utf8.ValidString(got) {
				t.Errorf("bounded text is not valid UTF-8")
			}
			if !strings.Contains(got, "lines dropped") {
				t.Errorf("no drop marker: %q", got)
			}
			if got[:10] != tc.in[:10] || got[len(got)-10:] != tc.in[len(tc.in)-10:] {
				t.Errorf("head or tail lost")
			}
		})
	}
	if got, cut := boundText("short", 100); cut || got != "short" {
		t.Errorf("text within budget changed: %q", got)
	}
}
