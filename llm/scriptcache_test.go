package llm

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestScriptCacheParsesAFileOncePerVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	write := func(body string, mod time.Time) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	write(`{"turns": [{"text": "one"}]}`, t0)
	var c ScriptCache
	a, err := c.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatal("an unchanged file was parsed again")
	}
	for _, tc := range []struct {
		name, body string
		mod        time.Time
		want       string
	}{
		{"same size, newer", `{"turns": [{"text": "two"}]}`, t0.Add(time.Second), "two"},
		{"other size, same time", `{"turns": [{"text": "three!"}]}`, t0.Add(time.Second), "three!"},
	} {
		write(tc.body, tc.mod)
		s, err := c.Load(path)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := s.Turns[0].Text; got != tc.want {
			t.Fatalf("%s: got %q, want %q (a changed file must be parsed again)", tc.name, got, tc.want)
		}
	}
	write(`{"turns": []}`, t0.Add(2*time.Second))
	if _, err := c.Load(path); err == nil {
		t.Fatal("a bad script was accepted")
	}
	if _, err := c.Load(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("a missing script was accepted")
	}
}

func TestOpenSharesACachedScriptButNotFailures(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(path, []byte(`{"turns": [{"fail": [{"status": 429}], "text": "ok"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var c ScriptCache
	for i := range 2 { // each provider plays its own failure: the counts are not shared
		p, _, err := Open("scripted:"+path, Options{Scripts: &c})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Stream(t.Context(), &Request{}, func(Event) {}); err == nil {
			t.Fatalf("provider %d: its scripted failure was not played", i)
		}
	}
}
