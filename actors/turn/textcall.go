package turn

import (
	"encoding/json"
	"strings"

	"github.com/troupe-dev/troupe/tools/textcall"
)

// Textcall is the text-call parser of every model family's format (tools/textcall), trying the
// family's own format first (prefer, from llm.QuirksFor; "" for none).
//
// A call whose arguments textcall could not turn into JSON keeps its raw argument text: the
// tool layer repairs or refuses it with a precise error. A reply with no call but an attempt at
// one (a call token, a {"name": … object) next to one of the session's tool names is Partial,
// i.e. malformed; an attempt with no tool named is left as prose (a package.json in an answer
// is not a call).
func Textcall(prefer string) TextParser {
	var formats []textcall.Format
	if prefer != "" {
		formats = []textcall.Format{textcall.Format(prefer)}
	}
	return func(text string, known func(name string) bool) Parsed {
		r := textcall.Parse(text, textcall.Options{Known: known, Prefer: formats})
		out := Parsed{Prose: r.Prose, Partial: r.Partial}
		for _, c := range r.Calls {
			args := c.Args
			if args == nil {
				args = json.RawMessage(strings.TrimSpace(c.Raw))
			}
			if len(args) == 0 {
				args = json.RawMessage("{}")
			}
			out.Calls = append(out.Calls, TextCall{Name: c.Name, Args: args, Format: string(c.Format),
				Raw: string(c.Format) + ": " + c.Name + " " + c.Raw})
		}
		if len(out.Calls) == 0 && !out.Partial && textcall.Looks(text) && namesATool(text, known) {
			out.Partial = true
		}
		return out
	}
}

// namesATool says whether some word of text is one of the session's tools.
func namesATool(text string, known func(string) bool) bool {
	if known == nil {
		return false
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		if len(w) >= 2 && len(w) <= 64 && known(strings.Trim(w, ".-")) {
			return true
		}
	}
	return false
}
