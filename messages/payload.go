package messages

import (
	"encoding/json"
	"fmt"

	"github.com/troupe-dev/troupe/internal/textfmt"
)

// Large payloads go by reference on the bus (issue 10 item 7): the bus refuses a message over
// its limit, so one that is larger than MaxInline is stored whole as an artifact and what
// travels is its reference. Actor messages become a PayloadRef the receiving bridge resolves;
// an event keeps its envelope (seq, type, session) with a shortened Data and DataRef naming the
// artifact that holds the full Data.

// MaxInline is the largest message or event payload sent inline, well under the bus's 8 MiB
// limit so an envelope around it always fits.
const MaxInline = 1 << 20

// PayloadRef stands on the bus for an actor message stored as an artifact: the wire encoding
// of the message (Encode) is the artifact's content.
type PayloadRef struct {
	Ref   string `json:"ref"`
	Bytes int    `json:"bytes"`
}

// previewString is how much of each long string a shortened event payload keeps.
const previewString = 4 << 10

// ShortenJSON returns raw with every string longer than previewString cut to a preview that
// says how long it was and where the whole is (where: "artifact sha256:…", "object …"), so the
// result still decodes into the same struct. It is how an oversized event keeps a readable Data.
func ShortenJSON(raw json.RawMessage, where string) (json.RawMessage, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("shorten payload: %w", err)
	}
	out, err := json.Marshal(shortenValue(v, where))
	if err != nil {
		return nil, fmt.Errorf("shorten payload: %w", err)
	}
	return out, nil
}

func shortenValue(v any, where string) any {
	switch x := v.(type) {
	case string:
		if len(x) <= previewString {
			return x
		}
		return Preview(x, previewString, where)
	case []any:
		for i := range x {
			x[i] = shortenValue(x[i], where)
		}
	case map[string]any:
		for k := range x {
			x[k] = shortenValue(x[k], where)
		}
	}
	return v
}

// Preview cuts s to at most n bytes (whole runes) followed by a note of its whole length and
// where the whole is; a string of at most n bytes is returned as it is.
func Preview(s string, n int, where string) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("%s…[%d bytes in all: the whole payload is %s]", textfmt.Head(s, n), len(s), where)
}
