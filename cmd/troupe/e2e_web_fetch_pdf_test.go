package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWebFetchReadsAPDF: the model's web_fetch of a PDF (a two-page fixture served by
// httptest, reachable because the user's config allows 127.0.0.1) comes back as the PDF's
// text with a marker per page, and the model reads it in the next request.
func TestWebFetchReadsAPDF(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("testdata", "report.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(doc)
	}))
	defer srv.Close()
	repo := newRepo(t, nil)
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".config", "troupe"), 0o755)
	os.WriteFile(filepath.Join(home, ".config", "troupe", "config.toml"), []byte("[web]\nallow_hosts = [\"127.0.0.1\"]\n"), 0o644)
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "web_fetch", "args": {"url": "`+srv.URL+`/report.pdf"}}]},
		{"expect": "PDF-TEXT-OK", "text": "The report says PDF-TEXT-OK."}]}`)
	r := troupe(t, repo, append(testEnv(t), "HOME="+home), "run", "--json", "--mode", "yolo", "--model", model, "read the report")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	res := toolResults(t, envelopes(t, r.stdout))
	want := "--- page 1 of 2 ---\nTroupe field report\nFetched through web_fetch.\n\n--- page 2 of 2 ---\nPage two says PDF-TEXT-OK."
	if len(res) != 1 || res[0].IsError || !strings.Contains(res[0].Output, "(pdf text, 2 pages,") || !strings.Contains(res[0].Output, want) {
		t.Fatalf("results: %+v", res)
	}
}
