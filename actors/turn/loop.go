package turn

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// LoopKind names the pattern a LoopDetector found.
type LoopKind string

const (
	LoopRepeat    LoopKind = "repeat"     // the same call (name and arguments) again and again
	LoopSameError LoopKind = "same_error" // the same call failing with the same error
	LoopUndo      LoopKind = "undo"       // an edit that undoes the one before it
	LoopReread    LoopKind = "reread"     // the same unchanged file read again and again
)

// Thresholds of the detector: calls looked back at, and how often each pattern must occur.
const (
	loopWindow      = 12
	repeatThreshold = 3
	errorThreshold  = 2
	rereadThreshold = 3
	// cleanTurnsToCalm is how many turns without a loop bring the steering level back to zero.
	cleanTurnsToCalm = 3
)

// Steering levels: a note, the evidence, then a stop (a pause in chat, a failure headless).
const (
	LevelNote     = 1
	LevelEvidence = 2
	LevelStop     = 3
)

// Observation is one finished call as the detector sees it.
type Observation struct {
	Turn    int
	Name    string
	Args    string // raw JSON arguments
	Output  string
	IsError bool
	Changed []string // files the call changed
}

// Loop is what the detector found at the end of a turn, and how firmly to steer.
type Loop struct {
	Kind     LoopKind
	Level    int
	Evidence []string // the calls involved: "turn 3: bash {…}"
}

// LoopDetector watches a session's calls for loops. It is fed every call's result in call order
// and asked at each turn's end. It belongs to one session; it is not safe for concurrent use.
type LoopDetector struct {
	calls []seen
	fresh int // calls observed since the last EndTurn
	level int
	clean int
}

type seen struct {
	Observation
	key     string // name + canonical arguments
	path    string
	errLine string
	out     [32]byte
	edit    *edit
	content *[32]byte // a whole-file write's content
}

type edit struct{ old, new string }

// Observe records one finished call.
func (d *LoopDetector) Observe(o Observation) {
	parsed, args := parseArgs(o.Args)
	s := seen{Observation: o, key: o.Name + " " + args, out: sha256.Sum256([]byte(o.Output))}
	fields, _ := parsed.(map[string]any) // one parse serves the key and the fields
	s.path, _ = fields["path"].(string)
	if o.IsError {
		s.errLine = normalizeError(o.Output)
	}
	if old, ok := fields["old_string"].(string); ok {
		nw, _ := fields["new_string"].(string)
		s.edit = &edit{old: old, new: nw}
	}
	if c, ok := fields["content"].(string); ok && s.path != "" {
		sum := sha256.Sum256([]byte(c))
		s.content = &sum
	}
	d.calls = append(d.calls, s)
	if len(d.calls) > loopWindow {
		d.calls = slices.Delete(d.calls, 0, len(d.calls)-loopWindow)
	}
	d.fresh++
}

// EndTurn reports a loop that this turn's calls took part in, with the steering level it
// warrants (nil: none). Each report raises the level; clean turns lower it again.
func (d *LoopDetector) EndTurn() *Loop {
	fresh := min(d.fresh, len(d.calls))
	d.fresh = 0
	if fresh == 0 {
		return nil
	}
	var found *Loop
	for i := len(d.calls) - fresh; i < len(d.calls) && found == nil; i++ {
		found = d.loopAt(i)
	}
	if found == nil {
		d.clean++
		if d.clean >= cleanTurnsToCalm {
			d.level, d.clean = 0, 0
		}
		return nil
	}
	d.clean = 0
	d.level = min(d.level+1, LevelStop)
	found.Level = d.level
	return found
}

// loopAt looks for a loop that call i completes.
func (d *LoopDetector) loopAt(i int) *Loop {
	c := d.calls[i]
	if c.errLine != "" {
		if idx := d.matching(i, func(p seen) bool { return p.key == c.key && p.errLine == c.errLine }); len(idx) >= errorThreshold {
			return d.loop(LoopSameError, idx)
		}
	}
	if idx := d.matching(i, func(p seen) bool { return p.key == c.key }); len(idx) >= repeatThreshold {
		return d.loop(LoopRepeat, idx)
	}
	if c.path != "" && !c.IsError && len(c.Changed) == 0 {
		idx := d.unchangedReads(i)
		if len(idx) >= rereadThreshold {
			return d.loop(LoopReread, idx)
		}
	}
	if j := d.undone(i); j >= 0 {
		return d.loop(LoopUndo, []int{j, i})
	}
	return nil
}

// matching lists the calls up to i (inclusive) that match, oldest first, since the last call
// that changed a file: running the tests again after an edit is progress, not a loop.
func (d *LoopDetector) matching(i int, match func(seen) bool) []int {
	var idx []int
	from := 0
	for j := i - 1; j >= 0; j-- {
		if len(d.calls[j].Changed) > 0 {
			from = j + 1
			break
		}
	}
	for j := from; j <= i; j++ {
		if match(d.calls[j]) {
			idx = append(idx, j)
		}
	}
	return idx
}

// unchangedReads lists the reads of call i's file with the same output since the file last
// changed.
func (d *LoopDetector) unchangedReads(i int) []int {
	c := d.calls[i]
	var idx []int
	for j := i; j >= 0; j-- {
		p := d.calls[j]
		if slices.Contains(p.Changed, c.path) || (p.path == c.path && (p.edit != nil || p.content != nil)) {
			break
		}
		if p.path == c.path && p.Name == c.Name && p.out == c.out {
			idx = append([]int{j}, idx...)
		}
	}
	return idx
}

// undone returns the earlier call whose change call i reverts on the same file (A→B, then B→A),
// or -1.
func (d *LoopDetector) undone(i int) int {
	c := d.calls[i]
	if c.path == "" || c.IsError {
		return -1
	}
	writes := 0
	for j := i - 1; j >= 0; j-- {
		p := d.calls[j]
		if p.path != c.path || p.IsError || (p.edit == nil && p.content == nil) {
			continue
		}
		writes++
		switch {
		case c.edit != nil && p.edit != nil && c.edit.old == p.edit.new && c.edit.new == p.edit.old && c.edit.old != c.edit.new:
			return j
		case c.content != nil && p.content != nil && writes == 2 && *p.content == *c.content:
			return j
		}
		if writes >= 2 {
			return -1
		}
	}
	return -1
}

func (d *LoopDetector) loop(kind LoopKind, idx []int) *Loop {
	l := &Loop{Kind: kind}
	for _, j := range idx {
		c := d.calls[j]
		l.Evidence = append(l.Evidence, fmt.Sprintf("turn %d: %s", c.Turn, Preview(c.key, 120)))
	}
	return l
}

// Note is what the model is told about the loop, more firmly at each level.
func (l *Loop) Note() string {
	var what string
	switch l.Kind {
	case LoopRepeat:
		what = "You are repeating the same tool call with the same arguments; it will give the same result."
	case LoopSameError:
		what = "The same call failed with the same error again; running it once more will fail the same way."
	case LoopUndo:
		what = "Your last change undid the change before it on the same file; you are going back and forth."
	case LoopReread:
		what = "You read the same file again and it has not changed; its content is already above."
	}
	note := what + " Step back: use what you already know, try a different approach, or give your final answer."
	if l.Level >= LevelEvidence {
		note += "\nThe calls:\n- " + strings.Join(l.Evidence, "\n- ") +
			"\nIf this goes on, the run stops."
	}
	return note
}

// Summary is the loop in one line for people.
func (l *Loop) Summary() string {
	return fmt.Sprintf("the model is stuck in a loop (%s): %s", l.Kind, strings.Join(l.Evidence, "; "))
}

// canonicalArgs is the arguments re-encoded with sorted keys, so that spacing and key order do
// not hide a repeat.
func canonicalArgs(raw string) string {
	_, args := parseArgs(raw)
	return args
}

// parseArgs decodes a call's JSON arguments (nil when they are not JSON) and returns them with
// their canonical form (canonicalArgs).
func parseArgs(raw string) (any, string) {
	var v any
	if json.Unmarshal([]byte(raw), &v) != nil {
		return nil, strings.TrimSpace(raw)
	}
	b, _ := json.Marshal(v)
	return v, string(b)
}

// normalizeError is the first non-empty line of an error output, which names the error
// without the varying detail below it.
func normalizeError(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return "(empty)"
}
