package tools

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// pdfDoc writes a small but real PDF: objs are the bodies of objects 1…n (object 1 is the
// catalog), streams maps an object number to its stream data (Flate-compressed when its
// dictionary says so), and trailerExtra goes into the trailer dictionary.
func pdfDoc(objs []string, streams map[int][]byte, trailerExtra string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs)+1)
	for i, body := range objs {
		n := i + 1
		offsets[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", n)
		if data, ok := streams[n]; ok {
			if strings.Contains(body, "/FlateDecode") {
				var z bytes.Buffer
				w := zlib.NewWriter(&z)
				w.Write(data)
				w.Close()
				data = z.Bytes()
			}
			fmt.Fprintf(&b, "<< %s /Length %d >>\nstream\n", body, len(data))
			b.Write(data)
			b.WriteString("\nendstream\nendobj\n")
			continue
		}
		fmt.Fprintf(&b, "%s\nendobj\n", body)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets[1:] {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailerExtra, xref)
	return b.Bytes()
}

// textPDF is a PDF of len(pages) pages, each showing its lines in Helvetica, the second
// page's content compressed.
func textPDF(pages ...[]string) []byte {
	kids := make([]string, len(pages))
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"}
	streams := map[int][]byte{}
	for i, lines := range pages {
		page, content := len(objs)+1, len(objs)+2
		kids[i] = fmt.Sprintf("%d 0 R", page)
		objs = append(objs, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", content))
		var c strings.Builder
		c.WriteString("BT /F1 12 Tf 72 720 Td\n")
		for j, line := range lines {
			if j > 0 {
				c.WriteString("0 -14 Td\n")
			}
			fmt.Fprintf(&c, "(%s) Tj\n", line)
		}
		c.WriteString("ET\n")
		objs = append(objs, "")
		if i == 1 {
			objs[content-1] = "/Filter /FlateDecode"
		}
		streams[content] = []byte(c.String())
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages))
	return pdfDoc(objs, streams, "")
}

// TestWebFetchReadsPDFText: a PDF served over HTTP comes back as its text, page by page,
// whether the server names it application/pdf or only octet-stream.
func TestWebFetchReadsPDFText(t *testing.T) {
	doc := textPDF([]string{"Quarterly report", "Revenue grew by 12 percent."}, []string{"Second page: outlook", "More to come."})
	mux := http.NewServeMux()
	mux.HandleFunc("/report.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(doc)
	})
	mux.HandleFunc("/download", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(doc)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	w := WebFetch([]string{"127.0.0.1"}).(*webFetch)

	for _, path := range []string{"/report.pdf", "/download"} {
		res := fetch(t, w, srv.URL+path)
		want := "--- page 1 of 2 ---\nQuarterly report\nRevenue grew by 12 percent.\n\n--- page 2 of 2 ---\nSecond page: outlook\nMore to come."
		if res.IsError || !strings.Contains(res.Output, "(pdf text, 2 pages,") || !strings.Contains(res.Output, want) {
			t.Errorf("%s: %+v", path, res)
		}
	}
}

// TestPDFTextSaysWhyThereIsNone: a scan (an image-only page), an encrypted PDF needing a
// password, a PDF cut short and a file that is not a PDF each get one line saying so.
func TestPDFTextSaysWhyThereIsNone(t *testing.T) {
	scan := pdfDoc([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>",
		"",
		"/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8",
	}, map[int][]byte{4: []byte("q 612 0 0 792 0 0 cm /Im1 Do Q\n"), 5: {0, 255, 255, 0}}, "")
	doc := textPDF([]string{"secret"})
	encrypted := bytes.Replace(doc, []byte("/Root 1 0 R"), []byte("/Root 1 0 R /Encrypt << /Filter /Standard /V 2 /R 3 /Length 128 /P -4 /O <"+
		strings.Repeat("ab", 32)+"> /U <"+strings.Repeat("cd", 32)+"> >> /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]"), 1)
	aes256 := bytes.Replace(doc, []byte("/Root 1 0 R"), []byte("/Root 1 0 R /Encrypt << /Filter /Standard /V 5 /R 6 /Length 256 /P -4 >>"), 1)
	for _, c := range []struct {
		name string
		body []byte
		cut  bool
		want string
	}{
		{"scan", scan, false, "[PDF, 1 page: no text layer; 1 of 1 pages hold only images, so it is probably a scan"},
		{"encrypted", encrypted, false, "encrypted, and its text needs a password"},
		{"aes-256", aes256, false, "encrypted, and its text needs a password"},
		{"cut", doc[:len(doc)/2], true, "its text cannot be read, as a PDF's index is at its end"},
		{"not a pdf", []byte("%PDF-1.4\nhello"), false, "not readable: not a PDF file"},
	} {
		text, kind := pdfText(context.Background(), c.body, c.cut)
		if !strings.Contains(text, c.want) || !strings.HasPrefix(kind, "pdf") {
			t.Errorf("%s: %q (%s), want %q", c.name, text, kind, c.want)
		}
	}
}

// TestPDFTextIsBoundedOnHostileInput: a megabyte of garbage between a PDF's header and its
// end, a page tree whose kids point back at their parent, a page whose Parent is itself and
// a decompression bomb of text all end promptly with a line, never a panic or a hang, and
// the text gathered stays within pdfMaxText.
func TestPDFTextIsBoundedOnHostileInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	garbage := make([]byte, 1<<20)
	for i := range garbage {
		garbage[i] = byte(rng.UintN(256))
	}
	withEnds := append(append([]byte("%PDF-1.7\n"), garbage...), []byte("\nstartxref\n9\n%%EOF\n")...)
	loop := pdfDoc([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [2 0 R 2 0 R 3 0 R] /Count 3 >>",
		"<< /Type /Page /Parent 3 0 R /Contents 4 0 R >>",
		"",
	}, map[int][]byte{4: []byte("BT (x) Tj ET")}, "")
	var bomb bytes.Buffer
	for bomb.Len() < 40<<20 {
		bomb.WriteString("BT (all work and no play) Tj ET\n")
	}
	bombDoc := pdfDoc([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>",
		"/Filter /FlateDecode",
	}, map[int][]byte{4: bomb.Bytes()}, "")
	for _, c := range []struct {
		name string
		body []byte
		want string
	}{
		{"garbage", garbage, "[PDF, 1048576 bytes: not readable"},
		{"garbage between ends", withEnds, "not readable"},
		{"cycles", loop, "--- page 3 of 3 ---\nx"},
		{"bomb", bombDoc, "[text cut at 1048576 bytes]"},
	} {
		start := time.Now()
		text, _ := pdfText(context.Background(), c.body, false)
		if !strings.Contains(text, c.want) || len(text) > pdfMaxText+200 {
			t.Errorf("%s: %d bytes %q, want %q", c.name, len(text), clipForLog(text), c.want)
		}
		if took := time.Since(start); took > testwait.Scale(pdfTimeBudget) {
			t.Errorf("%s took %s", c.name, took)
		}
	}

	// A deadline stops a parse that would run on: the answer comes when it passes.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	<-ctx.Done()
	if text, kind := pdfText(ctx, textPDF([]string{"late"}), false); kind == "pdf text, 1 page" || !strings.Contains(text, "could not be read") && !strings.Contains(text, "not readable") {
		t.Errorf("past its deadline: %q (%s)", text, kind)
	}
}

func clipForLog(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// FuzzPDFText: whatever the bytes, pdfText answers with text and never panics.
func FuzzPDFText(f *testing.F) {
	doc := textPDF([]string{"Hello", "world"}, []string{"again"})
	f.Add(doc)
	f.Add(doc[:len(doc)-40])
	f.Add(bytes.Replace(doc, []byte("/Count 2"), []byte("/Count 99999999"), 1))
	f.Add([]byte("%PDF-1.4\n%%EOF\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		start := time.Now()
		text, kind := pdfText(context.Background(), body, false)
		if took := time.Since(start); took > testwait.Scale(pdfTimeBudget) {
			t.Fatalf("took %s", took)
		}
		if text == "" || !strings.HasPrefix(kind, "pdf") {
			t.Fatalf("empty answer: %q %q", text, kind)
		}
	})
}
