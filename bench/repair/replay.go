package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/troupe-dev/troupe/actors/turn"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// The replay (issue 9's "before 9%, goal 95%"): every case of the corpus goes through the
// path a session takes, with repair on and off: the reply classifier with the family's
// text-call parser (actors/turn) → tool-name repair → argument repair → schema validation
// and path policy against the real built-in registry (tools.Registry.Admit). Nothing runs.
// The workspace root is "/": the path policy of the reporter's own project is not what is
// measured, and a path inside it must not count as a failure.

// replayOutcome is one case under one setting.
type replayOutcome struct {
	ok  bool
	why string // why it failed
}

// replayCase runs c with repair on or off and compares what would run with c.Expect.
func replayCase(c Case, repair bool) (replayOutcome, error) {
	return replayWith(c, repair, false)
}

// replayWith is replayCase; salvageOnly turns every format's grammar (and the bare-arguments
// inference) off and leaves the grammar-free salvage pass alone: the design's own reach.
func replayWith(c Case, repair, salvageOnly bool) (replayOutcome, error) {
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		return replayOutcome{}, err
	}
	d := classifyWith(c, repair, salvageOnly, reg)
	calls := d.Calls
	if len(calls) == 0 && d.Class == messages.ReplyMalformed && strings.HasPrefix(d.Note, bareArgumentsNote) {
		meant, _, _ := strings.Cut(strings.TrimPrefix(d.Note, bareArgumentsNote), ", without")
		return replayOutcome{why: "steered, not executed: only arguments, the note names " + meant}, nil
	}
	if len(calls) == 0 {
		return replayOutcome{why: "no call recovered (the reply reads as text)"}, nil
	}
	if len(calls) != len(c.Expect) {
		return replayOutcome{why: fmt.Sprintf("%d calls recovered, %d expected: %s", len(calls), len(c.Expect), names(calls))}, nil
	}
	env := &tools.Env{Root: "/", NoRepair: !repair}
	for i, call := range calls {
		a := reg.Admit(env, tools.Call{ID: call.ID, Name: call.Name, Args: call.Args})
		want := c.Expect[i]
		switch {
		case a.Refusal != "":
			return replayOutcome{why: fmt.Sprintf("call %d (%s) refused: %s", i+1, call.Name, firstLine(a.Refusal))}, nil
		case a.Name != want.Name || !sameArgs(a.Args, want.Args):
			return replayOutcome{why: fmt.Sprintf("call %d became %s %s, expected %s %s", i+1, a.Name, a.Args, want.Name, compact(want.Args))}, nil
		}
	}
	return replayOutcome{ok: true}, nil
}

// bareArgumentsNote opens the note for a reply that is only arguments with no tool name that
// fit a tool without the margin to run them: the session steers it, so the replay counts it as
// steered, not recovered. (With the margin it is an inferred call, replayed like any other.)
const bareArgumentsNote = "Your last reply is only the arguments for "

// classify is the session's reply classifier for c's model, as the session builds it.
func classify(c Case, repair bool, reg *tools.Registry) turn.Decision {
	return classifyWith(c, repair, false, reg)
}

// classifyWith is classify; salvageOnly leaves the salvage pass alone (replayWith).
func classifyWith(c Case, repair, salvageOnly bool, reg *tools.Registry) turn.Decision {
	steer := turn.NewSteering(repair, turn.Textcall(llm.QuirksFor(c.Model).TextFormat), reg.Knows)
	steer.Classifier.FitArgs = reg.ToolFittingArgs
	if repair {
		steer.Classifier.Split = reg.Split
		steer.Classifier.Salvage = turn.NewSalvager(reg.Knows, reg.FitCall)
	}
	if repair && salvageOnly {
		steer.Classifier.Parse = func(text string, _ func(string) bool) turn.Parsed { return turn.Parsed{Prose: text} }
		steer.Classifier.FitArgs = nil
	}
	reply := &llm.Reply{Text: c.Text, Reasoning: c.Reasoning, Stop: llm.StopEnd}
	for i, q := range c.Calls {
		reply.ToolCalls = append(reply.ToolCalls, llm.ToolCall{ID: fmt.Sprintf("q%d", i+1), Name: q.Name, Args: q.Args})
		reply.Stop = llm.StopToolCalls
	}
	return steer.Classifier.Classify(reply, 1)
}

// readsForeign checks an excluded case's text parsing only: with the foreign tool names known
// (as they were in the reporter's harness), does the parser read the calls the model meant?
// ok is false with no reason when the case has nothing to check (no foreign calls, no text).
func readsForeign(c Case) (ok bool, checked bool, why string) {
	if len(c.Foreign) == 0 || len(c.Calls) > 0 {
		return false, false, ""
	}
	known := func(n string) bool {
		for _, f := range c.Foreign {
			if f.Name == n {
				return true
			}
		}
		return false
	}
	parse := turn.Textcall(llm.QuirksFor(c.Model).TextFormat)
	text := c.Text
	if text == "" {
		text = c.Reasoning
	}
	p := parse(text, known)
	if len(p.Calls) != len(c.Foreign) {
		return false, true, fmt.Sprintf("%d calls read, %d meant", len(p.Calls), len(c.Foreign))
	}
	for i, got := range p.Calls {
		if got.Name != c.Foreign[i].Name || !sameArgs(got.Args, c.Foreign[i].Args) {
			return false, true, fmt.Sprintf("call %d read as %s %s", i+1, got.Name, got.Args)
		}
	}
	return true, true, ""
}

// replayTally is one family's (or the whole set's) count: cases in scope, recovered with
// repair on and with it off.
type replayTally struct{ total, on, off, salvage int }

// replaySummary is one set replayed: the tallies by family, the excluded cases and what the
// parser read of them, and every case not recovered with repair on, with its reason.
type replaySummary struct {
	cases          int
	byFamily       map[string]*replayTally
	excluded       int
	foreignChecked int
	foreignRead    int
	foreignMisses  []string
	failures       []string
}

// replaySet replays every case of a set with repair on and off.
func replaySet(cases []Case) (replaySummary, error) {
	s := replaySummary{cases: len(cases), byFamily: map[string]*replayTally{}}
	for _, c := range cases {
		if c.Excluded != "" {
			s.excluded++
			if ok, checked, why := readsForeign(c); checked {
				s.foreignChecked++
				if ok {
					s.foreignRead++
				} else {
					s.foreignMisses = append(s.foreignMisses, fmt.Sprintf("  %s (%s): %s", c.ID, c.Source, why))
				}
			}
			continue
		}
		fam := llm.QuirksFor(c.Model).Family
		t := s.byFamily[fam]
		if t == nil {
			t = &replayTally{}
			s.byFamily[fam] = t
		}
		t.total++
		on, err := replayCase(c, true)
		if err != nil {
			return s, err
		}
		off, err := replayCase(c, false)
		if err != nil {
			return s, err
		}
		if on.ok {
			t.on++
		} else {
			s.failures = append(s.failures, fmt.Sprintf("  %s [%s] (%s): %s", c.ID, c.Model, c.Source, on.why))
		}
		if off.ok {
			t.off++
		}
		alone, err := replayWith(c, true, true)
		if err != nil {
			return s, err
		}
		if alone.ok {
			t.salvage++
		}
	}
	return s, nil
}

// overall sums the families.
func (s replaySummary) overall() replayTally {
	var all replayTally
	for _, t := range s.byFamily {
		all.total, all.on, all.off, all.salvage = all.total+t.total, all.on+t.on, all.off+t.off, all.salvage+t.salvage
	}
	return all
}

// printSummary prints recovered / total per family and overall, with repair on and off, and
// the excluded cases counted apart. With detail it also names every miss; without it (the
// held-out set) it prints aggregates only, so nobody writing parsers reads its cases.
func printSummary(w io.Writer, title string, s replaySummary, detail bool) {
	families := make([]string, 0, len(s.byFamily))
	for f := range s.byFamily {
		families = append(families, f)
	}
	sort.Strings(families)
	fmt.Fprintf(w, "%s: %d real malformed calls, %d in scope, %d excluded\n\n", title, s.cases, s.cases-s.excluded, s.excluded)
	row := func(a, b, c, d string) { fmt.Fprintf(w, "%-16s %-7s %-16s %s\n", a, b, c, d) }
	row("family", "cases", "repair on", "repair off")
	for _, f := range families {
		t := s.byFamily[f]
		row(f, fmt.Sprint(t.total), fmt.Sprintf("%d / %d", t.on, t.total), fmt.Sprintf("%d / %d", t.off, t.total))
	}
	all := s.overall()
	pct := func(n int) string {
		return fmt.Sprintf("%d / %d (%.0f%%)", n, all.total, 100*float64(n)/float64(max(all.total, 1)))
	}
	row("overall", fmt.Sprint(all.total), pct(all.on), pct(all.off))
	fmt.Fprintf(w, "\nsalvage pass alone (every grammar off, repair on): %s\n", pct(all.salvage))
	fmt.Fprintf(w, "\nexcluded (no troupe tool for what the model meant, or the report elided the call): %d\n", s.excluded)
	fmt.Fprintf(w, "  of those, text calls read as the model meant them (parser only, foreign names known): %d / %d\n", s.foreignRead, s.foreignChecked)
	if !detail {
		return
	}
	for _, m := range s.foreignMisses {
		fmt.Fprintln(w, m)
	}
	if len(s.failures) > 0 {
		fmt.Fprintln(w, "\nnot recovered with repair on:")
		for _, f := range s.failures {
			fmt.Fprintln(w, f)
		}
	}
}

// replayReport replays the development set with every miss named, then the held-out set with
// aggregates only (unless showHeldout), and how many held-out cases share a source thread
// with the development set (a shared thread is not unseen evidence).
func replayReport(w io.Writer, dev, heldout []Case, devDir, heldoutDir string, showHeldout bool) error {
	d, err := replaySet(dev)
	if err != nil {
		return err
	}
	printSummary(w, "development set ("+devDir+")", d, true)
	fmt.Fprintln(w)
	if len(heldout) == 0 {
		fmt.Fprintf(w, "held-out set (%s): no cases yet\n", heldoutDir)
		return nil
	}
	h, err := replaySet(heldout)
	if err != nil {
		return err
	}
	printSummary(w, "held-out set ("+heldoutDir+", frozen by "+sumsFile+")", h, showHeldout)
	shared, sharedRepo := sharedSources(dev, heldout)
	fmt.Fprintf(w, "  held-out cases whose source thread the development set also quotes: %d\n", shared)
	fmt.Fprintf(w, "  held-out cases quoting a committed file of an owner whose committed files the development set quotes: %d\n", sharedRepo)
	fmt.Fprintf(w, "  held-out cases whose quoted reply the development set also holds: %d\n", sharedReplies(dev, heldout))
	return nil
}

// sharedSources counts the held-out cases that are not unseen evidence: those citing a thread or
// file the development set cites, and those citing a committed file (a transcript, a benchmark's
// outputs, a fixture) of a GitHub owner whose committed files the development set also cites —
// one author's repositories share their harness, prompt and model (a loop run over many
// projects), so a rule written from one fits the others. Issue and pull-request threads are
// counted by thread only: one tracker holds unrelated reports.
func sharedSources(dev, heldout []Case) (thread, repo int) {
	devSources := map[string]bool{}
	devRepos := map[string]bool{}
	for _, c := range dev {
		devSources[c.Source] = true
		if r, ok := fileOwner(c.Source); ok {
			devRepos[r] = true
		}
	}
	for _, c := range heldout {
		if devSources[c.Source] {
			thread++
			continue
		}
		if r, ok := fileOwner(c.Source); ok && devRepos[r] {
			repo++
		}
	}
	return thread, repo
}

// sharedReplies counts the held-out cases whose quoted reply (text, reasoning and structured
// calls, blanks at the ends aside) a development case also quotes: two threads can paste one
// reply, and a reply the parsers were written from is not unseen, whatever thread cites it.
func sharedReplies(dev, heldout []Case) int {
	seen := make(map[string]bool, len(dev))
	for _, c := range dev {
		seen[replyKey(c)] = true
	}
	n := 0
	for _, c := range heldout {
		if seen[replyKey(c)] {
			n++
		}
	}
	return n
}

// replyKey is what a case quotes the model sending, as one comparable string.
func replyKey(c Case) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(c.Text))
	b.WriteString("\x00")
	b.WriteString(strings.TrimSpace(c.Reasoning))
	for _, q := range c.Calls {
		b.WriteString("\x00" + q.Name + "\x00" + q.Args)
	}
	return b.String()
}

// fileOwner returns the owner for a GitHub URL naming a committed file or tree
// (…/blob/…, …/tree/…, …/commit/…, …/raw/…), and false for threads and anything else.
func fileOwner(source string) (string, bool) {
	rest, ok := strings.CutPrefix(source, "https://github.com/")
	if !ok {
		return "", false
	}
	parts := strings.SplitN(rest, "/", 4)
	if len(parts) < 4 {
		return "", false
	}
	switch parts[2] {
	case "blob", "tree", "commit", "raw":
		return strings.ToLower(parts[0]), true
	}
	return "", false
}

// replayDevOnly replays the development set alone, every miss named; the held-out set is not
// read, so whoever writes parsers can measure without seeing it.
func replayDevOnly(w io.Writer, dev []Case, devDir string) error {
	d, err := replaySet(dev)
	if err != nil {
		return err
	}
	printSummary(w, "development set ("+devDir+")", d, true)
	fmt.Fprintln(w, "\nheld-out set: not read (-dev-only)")
	return nil
}

func names(calls []llm.ToolCall) string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.Name
	}
	return strings.Join(out, ", ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(line) > 160 {
		line = line[:160] + "…"
	}
	return line
}
