package tools

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"

	"github.com/troupe-dev/troupe/internal/imagefit"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
)

const (
	readDefaultLimit = 2000
	readMaxLineBytes = 2000
	readSniffBytes   = 8 << 10
	// readOutputBudget stops a read before the result budget would cut it, so a partial read
	// is always a clean range the model can continue from.
	readOutputBudget = 60 << 10
)

type readFile struct{}

func (readFile) Spec() Spec {
	return Spec{
		Name:        "read_file",
		Description: "Read a text file. Lines are numbered like cat -n. Reads up to 2000 lines from offset; partial reads say how to continue. PNG, JPEG, GIF and WebP images are shown to models that accept images; other binary files give size and type only; a directory gives its listing.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"path":{"type":"string","description":"file path, relative to the workspace root"},` +
			`"offset":{"type":"integer","minimum":1,"description":"first line, 1-based (default 1)"},` +
			`"limit":{"type":"integer","minimum":1,"description":"number of lines (default 2000)"}},` +
			`"required":["path"],"additionalProperties":false}`),
		Risk:           RiskRead,
		PathArgs:       []string{"path"},
		MaxResultBytes: readOutputBudget + 4<<10,
	}
}

type readFileArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

func (t readFile) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a readFileArgs
	if bad := decodeArgs("read_file", raw, &a); bad != nil {
		return *bad
	}
	abs, rel, err := env.resolve(a.Path)
	if err != nil {
		return errorResult(err.Error())
	}
	if refused := refuseTroupeState(a.Path, rel); refused != nil {
		return *refused
	}
	ws, err := env.openRoot()
	if err != nil {
		return errorResult(fmt.Sprintf("read_file %s: %v", rel, err))
	}
	defer ws.Close()
	// Opened beneath the workspace handle: what is read is what the policy allowed, even if a
	// directory along the path is swapped for a symlink meanwhile.
	f, err := ws.OpenFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		root, _ := env.root()
		return errorResult(missingPath(root, rel))
	}
	if err != nil {
		return errorResult(openFailure("read_file", a.Path, rel, err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return errorResult(fmt.Sprintf("read_file %s: %v", rel, err))
	}
	if info.IsDir() {
		return directoryListing(ctx, env, rel)
	}
	if !info.Mode().IsRegular() {
		return errorResult(fmt.Sprintf("%s is not a regular file (%s)", rel, info.Mode().Type()))
	}
	offset, limit := max(a.Offset, 1), orDefault(a.Limit, readDefaultLimit)
	if env.Files != nil {
		if note, ok := env.Files.unchangedNote(rel, abs, offset, limit); ok {
			return Result{Output: note}
		}
	}
	// The whole file streams through the hash and the bounded baseline while its lines are
	// numbered: one pass gives the text and the file-state record.
	hash, baseline := sha256.New(), &baselineCapture{}
	br := bufio.NewReaderSize(io.TeeReader(f, io.MultiWriter(hash, baseline)), 64<<10)
	head, _ := br.Peek(readSniffBytes)
	if kind := imagefit.Sniff(head); kind != "" {
		return readImage(env, br, rel, kind, info.Size())
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return Result{Output: fmt.Sprintf("%s: binary file, %d bytes, mime %s (contents not shown)", rel, info.Size(), http.DetectContentType(head))}
	}
	out := readLines(ctx, br, rel, offset, limit)
	if env.Files != nil && !out.IsError {
		fp := fingerprint{sha: hex.EncodeToString(hash.Sum(nil)), size: info.Size(), modTime: info.ModTime()}
		if after, err := f.Stat(); err == nil {
			fp.size, fp.modTime = after.Size(), after.ModTime()
		}
		env.Files.recordRead(rel, fp, baseline.content(), out.span, env.Turn)
	}
	return out.Result
}

// readImage answers a read of an image file (recognised by its content): the image is
// attached to the result, whose text says what it is. A file too large to look at, or one that
// starts like an image but does not decode, is described and not attached.
func readImage(env *Env, r io.Reader, rel, kind string, size int64) Result {
	if size > imagefit.MaxInputBytes {
		return Result{Output: fmt.Sprintf("%s: %s file of %d bytes, too large to attach (the limit is %d MB); contents not shown", rel, kind, size, imagefit.MaxInputBytes>>20)}
	}
	data, err := io.ReadAll(io.LimitReader(r, imagefit.MaxInputBytes+1))
	if err != nil {
		return errorResult(fmt.Sprintf("read_file %s: %v", rel, err))
	}
	img, line, err := attachImage(env, data)
	switch {
	case line == "":
		return errorResult(fmt.Sprintf("%s has the signature of %s but is not a usable image (%d bytes): %v", rel, kind, len(data), err))
	case err != nil:
		return Result{Output: fmt.Sprintf("%s: %s; not attached: %v", rel, line, err)}
	}
	return Result{Output: fmt.Sprintf("%s: %s; the image is attached for you to look at", rel, line), Images: []messages.Image{img}}
}

// directoryListing answers a read of a directory with what list_dir gives for it (its default
// depth and bounds): the model meant to look inside, and an error would only cost a turn. A
// listing is not a read of a file, so no file-state record is made.
func directoryListing(ctx context.Context, env *Env, rel string) Result {
	args, err := json.Marshal(map[string]string{"path": rel})
	if err != nil {
		return errorResult(fmt.Sprintf("read_file %s: %v", rel, err))
	}
	listing := listDir{}.Run(ctx, env, args)
	if listing.IsError {
		return listing
	}
	name := rel
	if rel == "." {
		name = "the workspace root"
	}
	listing.Output = fmt.Sprintf("%s is a directory, not a file; its listing, as list_dir gives it:\n", name) + listing.Output
	return listing
}

// readOutcome is a read's result and the lines it covered.
type readOutcome struct {
	Result
	span readSpan
}

// orDefault returns v, or def when v is zero.
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// readLines numbers the lines [offset, offset+limit) of r and counts the rest.
func readLines(ctx context.Context, r *bufio.Reader, rel string, offset, limit int) readOutcome {
	var out strings.Builder
	lineNo, last := 0, 0
	stoppedForSize, linesCut := false, false
	fail := func(msg string) readOutcome { return readOutcome{Result: errorResult(msg)} }
	for {
		if lineNo%4096 == 0 && ctx.Err() != nil {
			return fail(fmt.Sprintf("read_file %s: %v", rel, ctx.Err()))
		}
		line, full, err := readLine(r, readMaxLineBytes)
		if err == io.EOF && full == 0 {
			break
		}
		if err != nil && err != io.EOF {
			return fail(fmt.Sprintf("read_file %s: %v", rel, err))
		}
		lineNo++
		if lineNo >= offset && lineNo < offset+limit && !stoppedForSize {
			if out.Len()+len(line) > readOutputBudget && last >= offset {
				stoppedForSize = true
			} else {
				fmt.Fprintf(&out, "%6d\t%s", lineNo, line)
				if full > len(line) {
					fmt.Fprintf(&out, "… [line cut: %d bytes]", full)
					linesCut = true
				}
				out.WriteByte('\n')
				last = lineNo
			}
		}
		if err == io.EOF {
			break
		}
	}
	total := lineNo
	span := readSpan{start: offset, end: last, total: total, linesCut: linesCut}
	switch {
	case total == 0:
		return readOutcome{Result: Result{Output: fmt.Sprintf("%s is empty (0 lines)", rel)}, span: readSpan{start: 1}}
	case offset > total:
		return fail(fmt.Sprintf("offset %d is past the end of %s (%s)", offset, rel, textfmt.Count(total, "line")))
	case offset > 1 || last < total:
		fmt.Fprintf(&out, "(lines %d–%d of %d", offset, last, total)
		if last < total {
			fmt.Fprintf(&out, "; call again with offset=%d for more", last+1)
		}
		out.WriteString(")\n")
	}
	return readOutcome{Result: Result{Output: out.String()}, span: span}
}

// readLine returns the next line without its newline (a trailing \r kept off too), keeping at
// most maxBytes of it (cut at a rune boundary); full is the line's whole length. At the end
// of input err is io.EOF, with the last unterminated line if there is one.
func readLine(r *bufio.Reader, maxBytes int) (line string, full int, err error) {
	var kept []byte
	for {
		chunk, err := r.ReadSlice('\n')
		full += len(chunk)
		if room := maxBytes + 1 - len(kept); room > 0 {
			kept = append(kept, chunk[:min(room, len(chunk))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		kept = bytes.TrimSuffix(kept, []byte("\n"))
		kept = bytes.TrimSuffix(kept, []byte("\r"))
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			full--
			if len(chunk) > 1 && chunk[len(chunk)-2] == '\r' {
				full--
			}
		}
		if len(kept) > maxBytes {
			kept = textfmt.TrimPartialRune(kept[:maxBytes])
		}
		return string(kept), full, err
	}
}
