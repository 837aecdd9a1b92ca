package openai

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrTooLarge is returned when one line or one event of a stream passes the reader's limit: a
// server that sends a 100 MB line is broken, and reading it whole would only cost memory.
var ErrTooLarge = errors.New("a stream event passed the size limit")

// SSEEvent is one dispatched Server-Sent Event. Data is valid until the next call to Next.
type SSEEvent struct {
	Type string // the event field; "" when the stream set none
	ID   string // the last event id seen, as the spec carries it from event to event
	Data []byte // the data lines joined with "\n"
}

// SSEReader reads text/event-stream as the HTML Living Standard describes it (section 9.2):
// lines end in CRLF, LF or a lone CR; a line starting with ':' is a comment; "field:value"
// drops one space after the colon and a field without a colon has an empty value; several
// data lines join with "\n"; an empty line dispatches the event. It is strict about size and
// lenient about the end: a last event whose lines all ended but which lacks its blank line is
// still dispatched, while a line cut off by the end of the body is not.
type SSEReader struct {
	br     *bufio.Reader
	limit  int
	skipLF bool // the previous line ended in CR: a following LF belongs to it
	line   []byte
	typ    []byte
	data   []byte
	id     string
}

// NewSSEReader reads events from r; a line or event over limit bytes fails with ErrTooLarge.
func NewSSEReader(r io.Reader, limit int) *SSEReader {
	return &SSEReader{br: bufio.NewReaderSize(r, 16<<10), limit: limit}
}

// Next returns the next event, io.EOF at the end of the body, or io.ErrUnexpectedEOF when the
// body ends inside a line.
func (r *SSEReader) Next() (SSEEvent, error) {
	for {
		line, err := r.readLine()
		if err == io.EOF {
			if len(r.data) > 0 {
				return r.dispatch(), nil
			}
			return SSEEvent{}, io.EOF
		}
		if err != nil {
			return SSEEvent{}, err
		}
		if len(line) == 0 {
			if len(r.data) == 0 {
				r.typ = r.typ[:0]
				continue
			}
			return r.dispatch(), nil
		}
		if line[0] == ':' {
			continue
		}
		name, value, found := bytes.Cut(line, []byte(":"))
		if found && len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		switch string(name) {
		case "data":
			if len(r.data)+len(value)+1 > r.limit {
				return SSEEvent{}, fmt.Errorf("%w (%d bytes)", ErrTooLarge, r.limit)
			}
			r.data = append(append(r.data, value...), '\n')
		case "event":
			r.typ = append(r.typ[:0], value...)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				r.id = string(value)
			}
		}
	}
}

// dispatch hands out the buffered event and starts the next one.
func (r *SSEReader) dispatch() SSEEvent {
	ev := SSEEvent{Type: string(r.typ), ID: r.id, Data: bytes.TrimSuffix(r.data, []byte("\n"))}
	r.data = r.data[:0]
	r.typ = r.typ[:0]
	return ev
}

// readLine returns the next line without its terminator. The slice is valid until the next
// call.
func (r *SSEReader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	for {
		if _, err := r.br.Peek(1); err != nil {
			if err == io.EOF && len(r.line) > 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		buf, _ := r.br.Peek(r.br.Buffered())
		if r.skipLF {
			r.skipLF = false
			if buf[0] == '\n' {
				r.br.Discard(1)
				continue
			}
		}
		i := bytes.IndexAny(buf, "\r\n")
		if i < 0 {
			if len(r.line)+len(buf) > r.limit {
				return nil, fmt.Errorf("%w (a line over %d bytes)", ErrTooLarge, r.limit)
			}
			r.line = append(r.line, buf...)
			r.br.Discard(len(buf))
			continue
		}
		if len(r.line)+i > r.limit {
			return nil, fmt.Errorf("%w (a line over %d bytes)", ErrTooLarge, r.limit)
		}
		r.line = append(r.line, buf[:i]...)
		r.skipLF = buf[i] == '\r'
		r.br.Discard(i + 1)
		return r.line, nil
	}
}
