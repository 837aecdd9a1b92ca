package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func fetch(t *testing.T, w *webFetch, url string) Result {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"url": url})
	return w.Run(context.Background(), &Env{Root: t.TempDir()}, args)
}

// TestWebFetchReadsByContentType: HTML becomes markdown, JSON is indented, text stays, and
// other content is one line; 127.0.0.1 is fetched only because the test allows it.
func TestWebFetchReadsByContentType(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>T</title></head><body><h1>Hello</h1><p>Some <b>bold</b> <a href="/next">link</a>.</p></body></html>`)
	})
	mux.HandleFunc("/data", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"a":[1,2],"b":"x"}`)
	})
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "just text\n")
	})
	mux.HandleFunc("/bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write([]byte{0, 1, 2, 3})
	})
	mux.HandleFunc("/missing", http.NotFound)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	w := WebFetch([]string{"127.0.0.1"}).(*webFetch)

	res := fetch(t, w, srv.URL+"/page")
	if res.IsError || !strings.Contains(res.Output, "# Hello") || !strings.Contains(res.Output, "**bold**") ||
		!strings.Contains(res.Output, "[link]("+srv.URL+"/next)") {
		t.Errorf("html: %+v", res)
	}
	if res := fetch(t, w, srv.URL+"/data"); !strings.Contains(res.Output, "\"a\": [\n    1,") {
		t.Errorf("json: %q", res.Output)
	}
	if res := fetch(t, w, srv.URL+"/plain"); !strings.HasSuffix(res.Output, "just text\n") {
		t.Errorf("text: %q", res.Output)
	}
	if res := fetch(t, w, srv.URL+"/bin"); !strings.Contains(res.Output, "[application/octet-stream content, 4 bytes: not text") {
		t.Errorf("binary: %q", res.Output)
	}
	if res := fetch(t, w, srv.URL+"/missing"); !res.IsError || !strings.Contains(res.Output, "404") {
		t.Errorf("404: %+v", res)
	}
	if res := fetch(t, w, "file:///etc/passwd"); !res.IsError || !strings.Contains(res.Output, "not an http or https URL") {
		t.Errorf("file URL: %+v", res)
	}
}

// TestWebFetchRefusesThisMachinesNetwork: loopback, private and metadata addresses are refused
// after resolution, including where a redirect from an allowed host leads there.
func TestWebFetchRefusesThisMachinesNetwork(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/to-localhost" {
			_, port, _ := net.SplitHostPort(r.Host)
			http.Redirect(w, r, "http://localhost:"+port+"/secret", http.StatusFound)
			return
		}
		fmt.Fprint(w, "secret")
	}))
	defer srv.Close()
	closed := WebFetch(nil).(*webFetch)
	res := fetch(t, closed, srv.URL+"/secret")
	if !res.IsError || !strings.Contains(res.Output, "a loopback address: refused") || !strings.Contains(res.Output, "allow_hosts") {
		t.Errorf("loopback: %+v", res)
	}
	closed.timeout = 2 * time.Second
	for _, u := range []string{"http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://[::1]/"} {
		if res := fetch(t, closed, u); !res.IsError || !strings.Contains(res.Output, "refused") {
			t.Errorf("%s: %+v", u, res)
		}
	}
	open := WebFetch([]string{"127.0.0.1"}).(*webFetch)
	if res := fetch(t, open, srv.URL+"/to-localhost"); !res.IsError || !strings.Contains(res.Output, "localhost resolves to") {
		t.Errorf("a redirect to a host not allowed: %+v", res)
	}
}

// TestWebFetchBounds: a redirect loop, a body that never ends and a page that never finishes
// are results that say so, in bounded time and memory.
func TestWebFetchBounds(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		chunk := []byte(strings.Repeat("y", 64<<10))
		for i := 0; i < (2<<30)/len(chunk); i++ { // 2 GB, if anyone read it
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	stall := make(chan struct{})
	defer close(stall)
	mux.HandleFunc("/stall", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "begun")
		w.(http.Flusher).Flush()
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	w := WebFetch([]string{"127.0.0.1"}).(*webFetch)
	if res := fetch(t, w, srv.URL+"/loop"); !res.IsError || !strings.Contains(res.Output, "redirects") {
		t.Errorf("loop: %+v", res)
	}
	res := fetch(t, w, srv.URL+"/huge")
	if res.IsError || !strings.Contains(res.Output, fmt.Sprintf("cut at %d bytes", webFetchMaxBytes)) || len(res.Output) > webFetchMaxBytes+1024 {
		t.Errorf("huge: error %v, %d bytes: %.200s", res.IsError, len(res.Output), res.Output)
	}
	w.timeout = 500 * time.Millisecond
	if res := fetch(t, w, srv.URL+"/stall"); !res.IsError || !strings.Contains(res.Output, "no whole answer within 500ms") {
		t.Errorf("stall: %+v", res)
	}
}
