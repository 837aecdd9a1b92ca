package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ledongthuc/pdf"

	"github.com/troupe-dev/troupe/internal/textfmt"
)

// PDF text for web_fetch (docs/ARCHITECTURE.md "Permissions and the web tools"). The parser
// is github.com/ledongthuc/pdf (a maintained fork of rsc.io/pdf, pure Go); the page walk and
// the text gathering are ours, so both are bounded:
//   - the page tree is walked with a depth and a node budget (a tree whose kids point back
//     at their parent cannot loop);
//   - every read of the file's bytes checks the deadline, and the text gathered is capped,
//     so a decompression bomb or a cycle between objects stops instead of running on;
//   - a panic from the parser on malformed input becomes a one-line result;
//   - an encrypted PDF whose text needs a password, and a PDF with no text layer (a scan),
//     each get a line saying so.

const (
	pdfMaxText    = 1 << 20 // bytes of text gathered; the lifecycle bounds what the model sees
	pdfMaxNodes   = 50_000  // page-tree nodes visited
	pdfMaxDepth   = 64      // page-tree depth
	pdfTimeBudget = 15 * time.Second
)

// pdfStop is the panic a guard raises to stop the parser. It is a runtime.Error so the
// parser's own recover of parse errors (which re-panics runtime errors) does not swallow it.
type pdfStop struct{ why string }

func (s pdfStop) Error() string { return s.why }
func (pdfStop) RuntimeError()   {}

// pdfGuard is the file as the parser reads it: each read first checks the deadline.
type pdfGuard struct {
	ctx context.Context
	r   *bytes.Reader
}

func (g pdfGuard) ReadAt(p []byte, off int64) (int, error) {
	if g.ctx.Err() != nil {
		panic(pdfStop{fmt.Sprintf("reading took more than %s (a hostile or broken file?)", pdfTimeBudget)})
	}
	return g.r.ReadAt(p, off)
}

// pdfText reads body as a PDF: its text with a marker before each page, and the kind for
// web_fetch's head line. Failures are text saying what happened, never a panic or a hang:
// the parse runs in a goroutine this call owns, stopped by its guard's deadline.
func pdfText(ctx context.Context, body []byte, cut bool) (text, kind string) {
	if cut {
		return fmt.Sprintf("[PDF cut at %d bytes: its text cannot be read, as a PDF's index is at its end]", len(body)), "pdf (cut)"
	}
	ctx, cancel := context.WithTimeout(ctx, pdfTimeBudget)
	defer cancel()
	type answer struct{ text, kind string }
	done := make(chan answer, 1)
	go func() {
		t, k := pdfExtract(ctx, body)
		done <- answer{t, k}
	}()
	select {
	case a := <-done:
		return a.text, a.kind
	case <-ctx.Done():
		// The guard stops the parse at its next read; its answer is dropped into the buffer.
		return fmt.Sprintf("[PDF, %d bytes: its text could not be read within %s]", len(body), pdfTimeBudget), "pdf (not read)"
	}
}

// pdfExtract does the reading; any panic from the parser is caught here.
func pdfExtract(ctx context.Context, body []byte) (text, kind string) {
	defer func() {
		if x := recover(); x != nil {
			text, kind = fmt.Sprintf("[PDF, %d bytes: not readable: %s]", len(body), pdfPanicLine(x)), "pdf (not readable)"
		}
	}()
	r, err := pdf.NewReader(pdfGuard{ctx, bytes.NewReader(body)}, int64(len(body)))
	if err != nil {
		return pdfOpenError(err, len(body))
	}
	pages := pdfPages(r)
	x := &pdfTextBuilder{}
	withImages := 0
	for i, p := range pages {
		fmt.Fprintf(&x.b, "\n--- page %d of %d ---\n", i+1, len(pages))
		n := x.b.Len()
		if x.full {
			break
		}
		x.page(p)
		if strings.TrimSpace(x.b.String()[n:]) == "" && pdfInherited(p.V, "Resources").Key("XObject").Kind() == pdf.Dict {
			withImages++
		}
	}
	if len(pages) == 0 {
		return fmt.Sprintf("[PDF, %d bytes: no pages found]", len(body)), "pdf (no pages)"
	}
	if x.chars == 0 {
		why := "no text layer"
		if withImages > 0 {
			why = fmt.Sprintf("no text layer; %d of %d pages hold only images, so it is probably a scan (no OCR is done)", withImages, len(pages))
		}
		return fmt.Sprintf("[PDF, %s: %s]", textfmt.Count(len(pages), "page"), why), "pdf (no text)"
	}
	out := strings.TrimLeft(x.b.String(), "\n")
	if x.full {
		out += fmt.Sprintf("\n[text cut at %d bytes]", pdfMaxText)
	}
	return out, "pdf text, " + textfmt.Count(len(pages), "page")
}

// pdfOpenError is the line for a PDF the parser would not open.
func pdfOpenError(err error, size int) (text, kind string) {
	msg := err.Error()
	if errors.Is(err, pdf.ErrInvalidPassword) || strings.Contains(msg, "encryption") {
		return fmt.Sprintf("[PDF, %d bytes: encrypted, and its text needs a password (%s); not readable here]", size, msg), "pdf (encrypted)"
	}
	return fmt.Sprintf("[PDF, %d bytes: not readable: %s]", size, msg), "pdf (not readable)"
}

func pdfPanicLine(x any) string {
	if e, ok := x.(error); ok {
		return e.Error()
	}
	return fmt.Sprint(x)
}

// pdfPages walks the page tree in order within the depth and node budgets, and stops at the
// count the tree declares (so kids that point back at their parent add no pages).
func pdfPages(r *pdf.Reader) []pdf.Page {
	var pages []pdf.Page
	root := r.Trailer().Key("Root").Key("Pages")
	declared := int(root.Key("Count").Int64())
	if declared <= 0 || declared > pdfMaxNodes {
		declared = pdfMaxNodes
	}
	nodes := 0
	var walk func(v pdf.Value, depth int)
	walk = func(v pdf.Value, depth int) {
		nodes++
		if nodes > pdfMaxNodes || depth > pdfMaxDepth || len(pages) >= declared || v.Kind() != pdf.Dict {
			return
		}
		kids := v.Key("Kids")
		if v.Key("Type").Name() == "Page" || kids.Kind() != pdf.Array {
			pages = append(pages, pdf.Page{V: v})
			return
		}
		for i := 0; i < kids.Len() && nodes <= pdfMaxNodes; i++ {
			walk(kids.Index(i), depth+1)
		}
	}
	walk(root, 0)
	return pages
}

// pdfInherited is a page's key or the nearest ancestor's, looking up at most pdfMaxDepth
// parents (the parser's own lookup follows a Parent cycle for ever).
func pdfInherited(v pdf.Value, key string) pdf.Value {
	for range pdfMaxDepth {
		if v.IsNull() {
			break
		}
		if r := v.Key(key); !r.IsNull() {
			return r
		}
		v = v.Key("Parent")
	}
	return pdf.Value{}
}

// pdfTextBuilder gathers a page's shown text, breaking lines where the text moves down and
// spacing words where a TJ array kerns far apart, up to pdfMaxText bytes.
type pdfTextBuilder struct {
	b     strings.Builder
	chars int
	full  bool
}

func (x *pdfTextBuilder) write(s string) {
	if x.full {
		panic(pdfStop{"text budget reached"})
	}
	if x.b.Len()+len(s) > pdfMaxText {
		x.full = true
		return
	}
	x.b.WriteString(s)
	x.chars += len(strings.TrimSpace(s))
}

// newline ends the current line unless it is already ended.
func (x *pdfTextBuilder) newline() {
	if s := x.b.String(); len(s) > 0 && s[len(s)-1] != '\n' {
		x.write("\n")
	}
}

// page adds one page's text; a page the parser cannot read adds a line saying so.
func (x *pdfTextBuilder) page(p pdf.Page) {
	defer func() {
		r := recover()
		switch _, stop := r.(pdfStop); {
		case r == nil:
		case stop && x.full: // the text budget: this page ends here, and the document with it
		case stop:
			panic(r) // the deadline: stop the whole document
		case !x.full:
			x.newline()
			x.write(fmt.Sprintf("[this page could not be read: %s]\n", pdfPanicLine(r)))
		}
	}()
	content := p.V.Key("Contents")
	if content.IsNull() {
		return
	}
	fonts := map[string]*pdf.Font{}
	dict := pdfInherited(p.V, "Resources").Key("Font")
	for _, name := range dict.Keys() {
		fonts[name] = &pdf.Font{V: dict.Key(name)}
	}
	var enc pdf.TextEncoding = nopText{}
	show := func(s string) { x.write(enc.Decode(s)) }
	pdf.Interpret(content, func(stk *pdf.Stack, op string) {
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		switch op {
		case "BT", "T*":
			x.newline()
		case "Td", "TD":
			if len(args) == 2 && args[1].Float64() != 0 {
				x.newline()
			} else {
				x.write(" ")
			}
		case "Tf":
			enc = nopText{}
			if len(args) == 2 {
				if f, ok := fonts[args[0].Name()]; ok {
					enc = f.Encoder()
				}
			}
		case "'", "\"":
			x.newline()
			if len(args) > 0 {
				show(args[len(args)-1].RawString())
			}
		case "Tj":
			if len(args) == 1 {
				show(args[0].RawString())
			}
		case "TJ":
			if len(args) != 1 {
				return
			}
			for i := 0; i < args[0].Len(); i++ {
				switch v := args[0].Index(i); v.Kind() {
				case pdf.String:
					show(v.RawString())
				case pdf.Integer, pdf.Real:
					if v.Float64() < -200 { // a gap wider than a fifth of an em: a word break
						x.write(" ")
					}
				}
			}
		}
	})
	x.newline()
}

// nopText reads codes as they are, for text shown before any font is chosen.
type nopText struct{}

func (nopText) Decode(raw string) string { return raw }
