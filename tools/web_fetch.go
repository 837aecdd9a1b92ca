package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
)

// web_fetch contract:
//   - Fetches one http(s) URL and returns it as text the model reads: HTML as markdown (a
//     maintained converter, html-to-markdown), JSON indented, a PDF's text with a marker
//     per page (web_fetch_pdf.go), other text as it is; anything else is one line giving its
//     type and size.
//   - Bounded: at most webFetchMaxBytes of body are read (the rest is dropped and the result
//     says so; a PDF may be up to webFetchMaxPDFBytes, as its index is at its end), webFetchTimeout for the whole fetch, webFetchMaxRedirects redirects, each
//     checked again. The lifecycle bounds the text and keeps the whole as an artifact.
//   - Never reaches the machine's own network by accident: every address a host resolves to
//     is checked when the connection is dialled (so a DNS answer cannot change between check
//     and use), and loopback, private, link-local (cloud metadata), CGNAT, multicast and
//     unspecified addresses are refused, unless the URL's host is in the allowed list
//     (config [web] allow_hosts). No proxy from the environment is used: it would dial for us.
//   - Risk network: ask mode asks before a fetch; failures are results.

const (
	webFetchMaxBytes     = 5 << 20
	webFetchMaxPDFBytes  = 20 << 20
	webFetchTimeout      = 30 * time.Second
	webFetchMaxRedirects = 5
)

type webFetch struct {
	allow    []string // hosts whose private addresses may be fetched
	client   *http.Client
	timeout  time.Duration
	maxBytes int
}

// WebFetch is the web_fetch tool; allowHosts are hosts (as written in a URL, without the
// port) whose loopback or private addresses may still be fetched.
func WebFetch(allowHosts []string) Tool {
	w := &webFetch{allow: allowHosts, timeout: webFetchTimeout, maxBytes: webFetchMaxBytes}
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	w.client = &http.Client{
		Transport: &http.Transport{
			Proxy:                 nil,
			DialContext:           w.dialChecked(dialer),
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: 20 * time.Second,
			MaxIdleConns:          4,
			IdleConnTimeout:       30 * time.Second,
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > webFetchMaxRedirects {
				return fmt.Errorf("more than %d redirects (a redirect loop?)", webFetchMaxRedirects)
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return fmt.Errorf("a redirect to %q: only http and https are fetched", req.URL.Scheme)
			}
			return nil
		},
	}
	return w
}

func (w *webFetch) Spec() Spec {
	return Spec{
		Name: "web_fetch",
		Description: "Fetch a web page or file over http(s) and read it as markdown (HTML), indented JSON, a PDF's text or plain text. " +
			"Large pages are cut; the whole is kept for read_artifact. Addresses on this machine's own network are refused.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"url":{"type":"string","description":"the http or https URL to fetch"}},` +
			`"required":["url"],"additionalProperties":false}`),
		Risk:           RiskNetwork,
		MaxResultBytes: 48 << 10,
	}
}

type webFetchArgs struct {
	URL string `json:"url"`
}

func (w *webFetch) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a webFetchArgs
	if bad := decodeArgs("web_fetch", raw, &a); bad != nil {
		return *bad
	}
	u, err := url.Parse(strings.TrimSpace(a.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errorResult(fmt.Sprintf("web_fetch: %q is not an http or https URL; send a whole URL such as https://example.com/page", a.URL))
	}
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return errorResult(fmt.Sprintf("web_fetch %s: %v", a.URL, err))
	}
	req.Header.Set("User-Agent", "troupe-web-fetch/1")
	req.Header.Set("Accept", "text/html, text/markdown, text/plain, application/json;q=0.9, application/pdf;q=0.8, */*;q=0.5")
	resp, err := w.client.Do(req)
	if err != nil {
		return errorResult(fmt.Sprintf("web_fetch %s: %v", a.URL, w.fetchError(err)))
	}
	defer resp.Body.Close()
	limit := w.maxBytes
	if isPDF(resp.Header.Get("Content-Type")) {
		limit = max(limit, webFetchMaxPDFBytes)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	cut := len(body) > limit
	if cut {
		body = body[:limit]
	}
	if err != nil && !cut {
		return errorResult(fmt.Sprintf("web_fetch %s: reading the body (%d bytes so far): %v", a.URL, len(body), w.fetchError(err)))
	}
	text, kind := readable(ctx, resp.Header.Get("Content-Type"), body, resp.Request.URL, cut)
	head := fmt.Sprintf("%s %s (%s, %d bytes", resp.Request.URL, resp.Status, kind, len(body))
	if cut {
		head += fmt.Sprintf("; cut at %d bytes", limit)
	}
	head += ")\n\n"
	return Result{Output: head + text, IsError: resp.StatusCode >= 400}
}

// fetchError says what went wrong without the client's wrapping.
func (w *webFetch) fetchError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("no whole answer within %s", w.timeout)
	}
	return err
}

// isPDF says whether a Content-Type header names a PDF.
func isPDF(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt == "application/pdf" || mt == "application/x-pdf"
}

// readable turns a body into text by its content type, saying which kind it was; cut says
// the body is only the start of what was sent.
func readable(ctx context.Context, contentType string, body []byte, page *url.URL, cut bool) (text, kind string) {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt == "" {
		mt = http.DetectContentType(body)
		mt, _, _ = mime.ParseMediaType(mt)
	}
	if mt == "application/octet-stream" && bytes.HasPrefix(body, []byte("%PDF-")) {
		mt = "application/pdf" // a server that does not name what it serves
	}
	switch {
	case mt == "application/pdf" || mt == "application/x-pdf":
		return pdfText(ctx, body, cut)
	case mt == "text/html" || mt == "application/xhtml+xml":
		md, err := htmltomarkdown.ConvertString(string(body), converter.WithDomain(page.Scheme+"://"+page.Host))
		if err != nil {
			return string(body), "html (not converted: " + err.Error() + ")"
		}
		return md, "html as markdown"
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		var buf strings.Builder
		var v any
		if json.Unmarshal(body, &v) == nil {
			if b, err := json.MarshalIndent(v, "", "  "); err == nil {
				buf.Write(b)
				return buf.String(), "json"
			}
		}
		return string(body), "json (not valid)"
	case strings.HasPrefix(mt, "text/") || mt == "application/xml" || mt == "application/javascript":
		return string(body), mt
	}
	return fmt.Sprintf("[%s content, %d bytes: not text, so not shown]", mt, len(body)), mt
}

// dialChecked resolves the host itself and dials only an address it has checked, so the
// address used is the address allowed (no rebinding between a check and the dial).
func (w *webFetch) dialChecked(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", host, err)
		}
		allowed := slices.Contains(w.allow, host)
		var lastErr error
		for _, ip := range ips {
			if why := refusedAddr(ip.IP); why != "" && !allowed {
				lastErr = fmt.Errorf("%s resolves to %s, a %s address: refused (to allow it, add %q to [web] allow_hosts in your config)", host, ip.IP, why, host)
				continue
			}
			conn, err := d.DialContext(ctx, network, net.JoinHostPort(ip.IP.String(), port))
			if err == nil {
				return conn, nil
			}
			lastErr = err
		}
		if lastErr == nil {
			lastErr = fmt.Errorf("%s has no address", host)
		}
		return nil, lastErr
	}
}

var cgnat = &net.IPNet{IP: net.IPv4(100, 64, 0, 0), Mask: net.CIDRMask(10, 32)}

// refusedAddr says which kind of non-public address ip is, or "".
func refusedAddr(ip net.IP) string {
	switch {
	case ip.IsLoopback():
		return "loopback"
	case ip.IsPrivate():
		return "private"
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
		return "link-local (cloud metadata)"
	case ip.IsUnspecified():
		return "unspecified"
	case ip.IsMulticast(), ip.IsInterfaceLocalMulticast():
		return "multicast"
	case cgnat.Contains(ip):
		return "shared (CGNAT)"
	}
	return ""
}
