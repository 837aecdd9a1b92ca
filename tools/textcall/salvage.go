package textcall

import (
	"encoding/json"
	"sort"
	"strings"
)

// Salvage is the grammar-free last resort (docs/ARCHITECTURE.md, "Text calls"): when no
// scanner read a call, it finds each word of the reply that names a tool the session knows
// (SalvageOptions.Known: our tools and every alias of them), and looks just after it — or,
// for a {"name": N, …} wrapper, around it — for the nearest payload a loose reader can read as
// arguments: a JSON object (repaired), parenthesised key=value / key: value arguments, one
// quoted string, key="value" attributes, or <key>value</key> tags. Stray tokens, markup and
// punctuation between the name and its payload are skipped within a small bound.
//
// A candidate counts only when
//   - it stands on its own: the name opens its line (after brackets or quotes), or follows
//     call markup (<tool_call>, <|…|>, [TOKEN]) or a glued recipient (to=NAME, function=NAME);
//     a name mid-sentence is a mention, never a call;
//   - between the name and the payload stand no ASCII words, unless markup or a recipient
//     introduced the name (harmony's "to=functions.read commentary json {…}");
//   - nothing but closers and markup follow it on its line, at most one stray word, or the
//     bracket opened before the name closes right after it ([read_file(path="a")] then prose);
//   - inside a fenced block, every line of the block is a call (a code sample is not);
//   - SalvageOptions.Fit admits the arguments for the name (the alias layer's mapping, then
//     the tool's schema: required keys present, no key it cannot place), and no value is an
//     ellipsis (an example's elided "…"). The margin is the name's: the tool is the one the
//     reply names, each key must be placed (FitArgs asks only half of them, having no name),
//     and a payload belongs to the nearest name before it, never to a name beyond another.
//
// Calls found here have Format FormatSalvage; the session runs them as inferred calls (outside
// yolo mode the gate asks before anything but a read). Work is bounded: each byte is read a
// bounded number of times (workBudget), and Fit is asked at most salvageFitsMax times.

// FormatSalvage marks a call read by Salvage rather than by a format's scanner.
const FormatSalvage Format = "salvage"

// SalvageOptions are what Salvage needs from the session. Both are required.
type SalvageOptions struct {
	// Known reports whether a word names (or repairs to) one of the session's tools.
	Known func(name string) bool
	// Fit reports whether args make a call of name the session would admit: args is a JSON
	// object, or a JSON string for a tool with one required string argument. placed is the
	// number of arguments the tool would receive.
	Fit func(name, args string) (placed int, ok bool)
}

const (
	salvageFitsMax  = 64   // Fit calls per reply
	salvageWordsMax = 4096 // distinct words looked up with Known per reply
	salvageLeadMax  = 512  // bytes of a line read back from a name
	salvageGapMax   = 160  // bytes between a name and its payload
	salvageCallsMax = 32   // calls per reply
)

// occurrence is a known tool name at text[start:end].
type occurrence struct{ start, end int }

// salvager holds one reply's search state.
type salvager struct {
	text   string
	opt    SalvageOptions
	known  map[string]bool
	fences []fenceBlock // the reply's fenced blocks
	fits   int
	budget int // bytes the payload readers may still examine
}

// Salvage reads the calls in text that no grammar read (see above). The prose is the text
// without them.
func Salvage(text string, opt SalvageOptions) Result {
	if opt.Known == nil || opt.Fit == nil {
		return assemble(text, nil)
	}
	if strings.Contains(text, "<|reserved_") {
		text = blankPlaceholders(text)
	}
	s := &salvager{text: text, opt: opt, known: map[string]bool{}, budget: workBudget(text)}
	if strings.Contains(text, "```") {
		s.fences = fenceBlocks(text)
	}
	return assemble(text, s.run())
}

// run finds the calls, in text order, without overlaps.
func (s *salvager) run() []span {
	occs := s.names()
	var out []span
	for k, o := range occs {
		if len(out) > 0 && o.start < out[len(out)-1].end {
			continue
		}
		if len(out) >= salvageCallsMax || s.fits >= salvageFitsMax || s.budget <= 0 {
			break
		}
		prev := -1
		if len(out) > 0 {
			prev = out[len(out)-1].end
		}
		if sp, ok := s.at(o, occs[k+1:], prev); ok {
			if len(out) > 0 {
				sp.start = max(sp.start, out[len(out)-1].end) // markup the last call's region took
			}
			out = append(out, sp)
		}
	}
	return wholeFences(s.text, s.fences, out)
}

// names lists the occurrences of known tool names: maximal runs of name bytes, trimmed of
// the dots, colons and dashes that end a sentence or a label.
func (s *salvager) names() []occurrence {
	var out []occurrence
	t := s.text
	for i := 0; i < len(t); {
		if !isNameByte(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && isNameByte(t[j]) {
			j++
		}
		a, b := i, j
		for a < b && strings.IndexByte(".:-", t[a]) >= 0 {
			a++
		}
		for b > a && strings.IndexByte(".:-", t[b-1]) >= 0 {
			b--
		}
		if b-a >= 2 && b-a <= pyNameMax && s.isKnown(t[a:b]) {
			out = append(out, occurrence{a, b})
		} else if c := strings.LastIndexByte(t[a:b], ':'); c > 1 && onlyRunes(t[a+c+1:b], "0123456789") && s.isKnown(t[a:a+c]) {
			out = append(out, occurrence{a, a + c}) // Kimi's call index: functions.bash:3
		}
		i = j
	}
	return out
}

// isKnown asks Known once per distinct word, and no more than salvageWordsMax words.
func (s *salvager) isKnown(w string) bool {
	if k, seen := s.known[w]; seen {
		return k
	}
	if len(s.known) >= salvageWordsMax || !hasLetter(w) {
		return false
	}
	k := s.opt.Known(w)
	s.known[w] = k
	return k
}

func hasLetter(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}

// candidate is one reading of a name's arguments.
type candidate struct {
	start, end int    // the region the call takes
	args       string // a JSON object, or a JSON string for a one-argument tool
	raw        string // the payload as written
	placed     int
}

// at reads the call at occurrence o, if one stands there. rest are the occurrences after it;
// prev is where the last call read ends (-1 for none).
// A quoted name is read only as a wrapper's ({"name": "read_file", …}); any other only with
// the payload after it.
func (s *salvager) at(o occurrence, rest []occurrence, prev int) (span, bool) {
	name := s.text[o.start:o.end]
	next := nextAfter(s.text, rest, o.end)
	c, ok := s.wrapped(o, rest)
	switch {
	case ok || inCodeFence(s.fences, o.start):
	case quotedMention(s.text, o):
		if start, named := namedInAttribute(s.text, o); named {
			c, ok = s.after(name, o.end+1, lead{kind: leadMarker, start: start}, next, rest)
		}
	default:
		if c, ok = s.tagNamed(o, rest); ok {
			break
		}
		l := leadOf(s.text, o.start)
		if l.kind == leadProse && listed(s.text, prev, o.start) {
			l = lead{kind: leadMarker, start: o.start}
		}
		if l.kind != leadProse {
			c, ok = s.after(name, o.end, l, next, rest)
		}
	}
	if !ok {
		return span{}, false
	}
	if elided(c.args) {
		return span{}, false // an example with its values left out, not a call
	}
	call := Call{Name: name, Raw: c.raw, Format: FormatSalvage}
	if strings.HasPrefix(c.args, "{") && json.Valid([]byte(c.args)) {
		call.Args = compactJSON(json.RawMessage(c.args))
	} else {
		call.Raw = c.args // one string argument, or an object cut off: tools/ wraps or repairs it
	}
	return span{start: c.start, end: c.end, calls: []Call{call}}, true
}

// fit asks Fit about a reading, within the per-reply bound.
func (s *salvager) fit(name string, c candidate) (candidate, bool) {
	if s.fits >= salvageFitsMax {
		return c, false
	}
	s.fits++
	n, ok := s.opt.Fit(name, c.args)
	c.placed = n
	return c, ok
}

// quotedMention is a name written as a quoted string ("read_file"): a value or a key, read
// only as a wrapper's name.
func quotedMention(text string, o occurrence) bool {
	return o.start > 0 && o.end < len(text) && (text[o.start-1] == '"' || text[o.start-1] == '\'') && text[o.end] == text[o.start-1]
}

// nextAfter returns the start of the first occurrence at or after i, or len(text).
func nextAfter(text string, rest []occurrence, i int) int {
	k := sort.Search(len(rest), func(k int) bool { return rest[k].start >= i })
	if k < len(rest) {
		return rest[k].start
	}
	return len(text)
}

// elided reports whether an arguments object has a value that is only an ellipsis
// (write_file(path="a", content="…")): documentation shows a call's shape that way.
func elided(args string) bool {
	var obj map[string]any
	if json.Unmarshal([]byte(args), &obj) != nil {
		return false
	}
	for _, v := range obj {
		if s, ok := v.(string); ok {
			switch strings.TrimSpace(s) {
			case "…", "...", "<...>", "[...]":
				return true
			}
		}
	}
	return false
}

// listed reports whether a name at text[at] continues a list of calls: only a comma or a
// semicolon and blanks stand between it and the call before ([bash(cmd='ls a'), bash(…)]).
func listed(text string, prev, at int) bool {
	return prev >= 0 && at-prev <= 8 && onlyRunes(text[prev:at], ",; \t\n") && strings.ContainsAny(text[prev:at], ",;")
}
