package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/internal/imagefit"
	"github.com/troupe-dev/troupe/tools"
)

// benchWebFetch times web_fetch of a 1 MB HTML page (headings, paragraphs, links, a table,
// code) served on 127.0.0.1, through the tool lifecycle with the artifact overflow, and
// prints the bytes the model gets.
func benchWebFetch(n int, dir string) {
	page := bigPage(1 << 20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	defer srv.Close()
	reg, err := tools.NewRegistry(tools.WebFetch([]string{"127.0.0.1"}))
	if err != nil {
		fail(err)
	}
	arts := &memArtifacts{m: map[string][]byte{}}
	reg.SetOverflow(tools.ArtifactOverflow(arts))
	env := &tools.Env{Root: dir, Artifacts: arts}
	call := tools.Call{ID: "c", Name: "web_fetch", Args: `{"url":"` + srv.URL + `/page"}`}
	var res tools.Result
	times := make([]time.Duration, n)
	for i := range n {
		began := time.Now()
		res = reg.Execute(context.Background(), env, call)
		times[i] = time.Since(began)
		if res.IsError {
			fail(fmt.Errorf("web_fetch: %s", res.Output))
		}
	}
	slices.Sort(times)
	fmt.Printf("\nweb_fetch of a %d-byte HTML page from 127.0.0.1 (median of %d)\n", len(page), n)
	fmt.Printf("  time %s; the model gets %d bytes; the whole markdown is kept as an artifact (%d bytes)\n",
		times[n/2].Round(time.Microsecond), len(res.Output), arts.largest())
}

// bigPage is an HTML document of about size bytes.
func bigPage(size int) []byte {
	var b bytes.Buffer
	b.WriteString("<!doctype html><html><head><title>Bench page</title><style>p{margin:0}</style></head><body><nav><a href='/'>home</a></nav>")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "<h2>Section %d</h2><p>Paragraph %d with <a href='/doc/%d'>a link</a>, <em>emphasis</em> and <code>code()</code>. %s</p>", i, i, i, strings.Repeat("Words of text. ", 20))
		if i%10 == 0 {
			fmt.Fprintf(&b, "<table><tr><th>k</th><th>v</th></tr><tr><td>%d</td><td>%d</td></tr></table><pre><code>func f%d() {}\n</code></pre>", i, i*i, i)
		}
	}
	b.WriteString("</body></html>")
	return b.Bytes()
}

// benchImages times fitting an image a tool returns (read_file of a screenshot or a photo) to
// the providers' limits, and prints the bytes that go on the wire (base64).
func benchImages(n int) {
	fmt.Printf("\nImages: fitting to the providers' limits (median of %d)\n", n)
	for _, tc := range []struct {
		name string
		w, h int
		enc  func(*bytes.Buffer, image.Image) error
	}{
		{"small PNG icon 64×64", 64, 64, func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) }},
		{"PNG screenshot 2880×1800", 2880, 1800, func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) }},
		{"JPEG photo 4000×3000", 4000, 3000, func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, &jpeg.Options{Quality: 90}) }},
	} {
		var in bytes.Buffer
		if err := tc.enc(&in, photo(tc.w, tc.h)); err != nil {
			fail(err)
		}
		var img *imagefit.Image
		times := make([]time.Duration, n)
		for i := range n {
			began := time.Now()
			var err error
			if img, err = imagefit.Fit(in.Bytes()); err != nil {
				fail(err)
			}
			times[i] = time.Since(began)
		}
		slices.Sort(times)
		fmt.Printf("  %-26s %9d bytes → %s %d×%d, %d bytes (%d base64 on the wire) in %s\n", tc.name, in.Len(),
			img.MediaType, img.Width, img.Height, len(img.Data), base64.StdEncoding.EncodedLen(len(img.Data)), times[n/2].Round(time.Microsecond))
	}
}

// photo is a w×h image with gradients and noise: it compresses like a photo or a busy
// screenshot, not like a flat test card.
func photo(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewSource(7))
	for y := range h {
		for x := range w {
			noise := uint8(r.Intn(24))
			img.SetRGBA(x, y, color.RGBA{uint8(x*255/w) + noise, uint8(y*255/h) + noise, uint8((x + y) % 256), 255})
		}
	}
	return img
}

// memArtifacts is an in-memory tools.ArtifactStore.
type memArtifacts struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (a *memArtifacts) PutArtifact(data []byte) (string, error) {
	sum := sha256.Sum256(data)
	ref := "sha256:" + hex.EncodeToString(sum[:])
	a.mu.Lock()
	defer a.mu.Unlock()
	a.m[ref] = append([]byte(nil), data...)
	return ref, nil
}

func (a *memArtifacts) Artifact(ref string) ([]byte, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if d, ok := a.m[ref]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("artifact %s: not found", ref)
}

func (a *memArtifacts) largest() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, d := range a.m {
		n = max(n, len(d))
	}
	return n
}
