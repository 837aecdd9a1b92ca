package tools

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// TestWebFetchAsksOncePerHost: in ask mode the first fetch of a host asks; approving it
// (once) covers later fetches of that host, on any path, for the session; another host asks
// again; a deny pattern for a host wins over an approval.
func TestWebFetchAsksOncePerHost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "page %s", r.URL.Path)
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':'):]
	env := newEnv(t)
	asker := &askRecorder{answers: []Answer{AnswerAllow, AnswerAllow, AnswerAllow}}
	gate := NewGate(Policy{Mode: messages.ModeAsk, Deny: []string{"web_fetch(domain:a.localhost)"}}, asker.ask, "rerun with --yes")
	reg, err := NewRegistry(WebFetch([]string{"127.0.0.1", "localhost", "a.localhost"}))
	if err != nil {
		t.Fatal(err)
	}
	reg.AddCheck(gate.Check())
	fetch := func(id, url string) Result {
		return reg.Execute(context.Background(), env, Call{ID: id, Name: "web_fetch", Args: `{"url":"` + url + `"}`})
	}

	mustContain(t, mustOK(t, fetch("c1", "http://127.0.0.1"+port+"/one")).Output, "page /one")
	mustContain(t, mustOK(t, fetch("c2", "http://127.0.0.1"+port+"/two?x=1")).Output, "page /two")
	if strings.Join(asker.callIDs, ",") != "c1" {
		t.Fatalf("asked for %v; want only the first fetch of the host", asker.callIDs)
	}
	if got := gate.SessionAllowlist(); len(got) != 1 || got[0] != "web_fetch(domain:127.0.0.1)" {
		t.Fatalf("session allowlist %v", got)
	}
	mustContain(t, mustOK(t, fetch("c3", "http://localhost"+port+"/three")).Output, "page /three")
	if strings.Join(asker.callIDs, ",") != "c1,c3" {
		t.Fatalf("another host did not ask: %v", asker.callIDs)
	}
	// The deny pattern refuses a.localhost without asking, and still does once the host is in
	// the session allowlist.
	mustFail(t, fetch("c4", "http://a.localhost"+port+"/"), "permission denied", "web_fetch(domain:a.localhost)")
	gate.AllowForSession("web_fetch(domain:a.localhost)")
	mustFail(t, fetch("c5", "http://a.localhost"+port+"/again"), "permission denied")
	if len(asker.callIDs) != 2 {
		t.Fatalf("a denied fetch asked: %v", asker.callIDs)
	}
}

func TestDomainPatterns(t *testing.T) {
	for _, tc := range []struct {
		pat, url string
		want     bool
	}{
		{"web_fetch(domain:example.com)", "https://example.com/a", true},
		{"web_fetch(domain:example.com)", "https://EXAMPLE.com:8443/a", true},
		{"web_fetch(domain:example.com)", "https://www.example.com/", false},
		{"web_fetch(domain:*.example.com)", "https://www.example.com/", true},
		{"web_fetch(domain:*.example.com)", "https://example.com/", true},
		{"web_fetch(domain:*.example.com)", "https://badexample.com/", false},
		{"web_fetch(domain:example.com)", "not a url", false},
	} {
		p, err := parsePattern(tc.pat)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.matchesHost(tc.url); got != tc.want {
			t.Errorf("%s on %s: %v, want %v", tc.pat, tc.url, got, tc.want)
		}
	}
	for _, bad := range []string{"web_fetch(domain:)", "web_fetch(domain:https://x.com)"} {
		if _, err := parsePattern(bad); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}
