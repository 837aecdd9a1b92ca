package memory

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/troupe-dev/troupe/internal/textfmt"
)

// edit applies op to entries: the next entries and what happened, or an error saying why
// nothing changes (unchanged when the memory already says it).
func edit(entries []string, op Op) ([]string, string, error) {
	title, limit := op.Target.Title(), op.Target.Cap()
	switch op.Action {
	case Add:
		if i := indexOfSame(entries, op.Content, -1); i >= 0 {
			return nil, "", unchanged{fmt.Sprintf("the %s already holds this (entry %d); nothing changed", title, i+1)}
		}
		next := append(slices.Clone(entries), op.Content)
		if err := fits(entries, next, op); err != nil {
			return nil, "", err
		}
		return next, fmt.Sprintf("saved to the %s (%s). It reaches the model from the next session", title, usage(next, limit)), nil
	case Replace, Remove:
		i, err := find(entries, op.OldText, title)
		if err != nil {
			return nil, "", err
		}
		next := slices.Clone(entries)
		if op.Action == Remove {
			next = slices.Delete(next, i, i+1)
			return next, fmt.Sprintf("removed from the %s: %q (%s)", title, preview(entries[i]), usage(next, limit)), nil
		}
		if entries[i] == op.Content {
			return nil, "", unchanged{fmt.Sprintf("entry %d of the %s already says this; nothing changed", i+1, title)}
		}
		note := ""
		if j := indexOfSame(entries, op.Content, i); j >= 0 {
			next = slices.Delete(next, i, i+1) // entry j already says it: the two become one
			note = fmt.Sprintf("; it said what entry %d says, so the two are one now", j+1)
		} else {
			next[i] = op.Content
		}
		if err := fits(entries, next, op); err != nil {
			return nil, "", err
		}
		return next, fmt.Sprintf("replaced entry %d of the %s%s (%s). It reaches the model from the next session", i+1, title, note, usage(next, limit)), nil
	}
	return nil, "", fmt.Errorf("memory action %q: want add, replace or remove", op.Action)
}

// fits refuses next when it is over the target's cap, listing the entries by size so the
// caller can choose what to remove or shorten.
func fits(before, next []string, op Op) error {
	limit := op.Target.Cap()
	if Used(next) <= limit {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "refused: the %s would hold %d of its %d characters (this entry has %d); nothing was saved. "+
		"Make room first: remove entries that are stale or easy to rediscover, or shorten them (action remove or replace, "+
		"old_text = a unique part of the entry). The entries, largest first:",
		op.Target.Title(), Used(next), limit, utf8.RuneCountInString(op.Content))
	writeBySize(&b, before)
	return errors.New(b.String())
}

// find is the one entry holding old: as written, or failing that ignoring case and spacing.
func find(entries []string, old, title string) (int, error) {
	match := func(fold bool) []int {
		var at []int
		for i, e := range entries {
			if strings.Contains(e, old) || (fold && strings.Contains(sameKey(e), sameKey(old))) {
				at = append(at, i)
			}
		}
		return at
	}
	at := match(false)
	if len(at) == 0 {
		at = match(true)
	}
	switch {
	case len(entries) == 0:
		return 0, fmt.Errorf("the %s is empty: there is nothing to change", title)
	case len(at) == 0:
		var b strings.Builder
		fmt.Fprintf(&b, "no entry of the %s holds %q; nothing changed. The entries:", title, preview(old))
		writeInOrder(&b, entries)
		return 0, errors.New(b.String())
	case len(at) > 1:
		var b strings.Builder
		fmt.Fprintf(&b, "%q is in %d entries of the %s; nothing changed. Give old_text a longer part of the one you mean:", preview(old), len(at), title)
		for _, i := range at {
			fmt.Fprintf(&b, "\n  %d. %s", i+1, preview(entries[i]))
		}
		return 0, errors.New(b.String())
	}
	return at[0], nil
}

// indexOfSame is the entry other than skip that says the same as s, ignoring case, spacing and
// a final full stop; -1 when none does.
func indexOfSame(entries []string, s string, skip int) int {
	key := sameKey(s)
	for i, e := range entries {
		if i != skip && sameKey(e) == key {
			return i
		}
	}
	return -1
}

func sameKey(s string) string {
	return strings.TrimRight(strings.ToLower(Clean(s)), ".!;")
}

func usage(entries []string, limit int) string {
	return fmt.Sprintf("%d/%d characters used", Used(entries), limit)
}

func preview(s string) string { return textfmt.Clip(s, 70) }

func writeInOrder(b *strings.Builder, entries []string) {
	for i, e := range entries {
		fmt.Fprintf(b, "\n  %d. [%d chars] %s", i+1, utf8.RuneCountInString(e), preview(e))
	}
}

func writeBySize(b *strings.Builder, entries []string) {
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		return utf8.RuneCountInString(entries[y]) - utf8.RuneCountInString(entries[x])
	})
	for _, i := range order {
		fmt.Fprintf(b, "\n  %d. [%d chars] %s", i+1, utf8.RuneCountInString(entries[i]), preview(entries[i]))
	}
}
