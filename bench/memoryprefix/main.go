// Command memoryprefix prints what the cross-session memory costs (docs/ARCHITECTURE.md,
// "Memory"): the bytes it adds to the stable prefix with both memories filled to their caps,
// the bytes of the memory tool's schema, and how long a session start takes to read it and a
// write takes under the lock (medians over repeated runs on a real file and a real store).
// Nothing is asserted. Usage: go run ./bench/memoryprefix
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/troupe-dev/troupe/internal/memory"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// facts are entries of the sizes the tool's description asks for (one fact, a sentence).
var facts = []string{
	"Prefers short answers: the change first, then one line on how it was verified.",
	"Works in Go and TypeScript; reads diffs in unified format, not side by side.",
	"Tests run with make check (it runs go vet, the race tests and the linters); never go test alone.",
	"Release builds use make dist; the version comes from git describe, not a constant.",
	"Corrected me twice: do not reformat files you did not otherwise change.",
	"Database migrations live in db/migrations and are never edited once merged; add a new one.",
	"The API returns errors as {code, message}; never leak internal error text to clients.",
	"Use pnpm in web/, not npm; the lockfile is pnpm-lock.yaml.",
}

// fill adds entries cycling through pool until the next would pass the cap.
func fill(t memory.Target, pool []string) []string {
	var out []string
	for i := 0; ; i++ {
		e := fmt.Sprintf("%s (%d)", pool[i%len(pool)], i)
		if memory.Used(append(out, e)) > t.Cap() {
			return out
		}
		out = append(out, e)
	}
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

func main() {
	row := func(k, v string) { fmt.Printf("%-58s %s\n", k, v) }
	fmt.Printf("memory prefix bench · caps: user %d, project %d, entry %d characters\n\n", memory.UserCap, memory.ProjectCap, memory.EntryCap)

	cjk := []string{"コードの変更は最小限にし、検証方法を一行で書くこと。テストは make check で実行する。"}
	for _, c := range []struct {
		name string
		pool []string
	}{{"English facts", facts}, {"Japanese facts (3 bytes a character)", cjk}} {
		user, project := fill(memory.User, c.pool), fill(memory.Project, c.pool)
		text := memory.Render([]memory.Book{{Target: memory.User, Entries: user}, {Target: memory.Project, Entries: project}})
		row("prefix bytes at the caps, "+c.name, fmt.Sprintf("%d bytes (%d entries, %d characters; about %d tokens at 4 bytes a token)",
			len(text)+2, len(user)+len(project), memory.Used(user)+memory.Used(project), (len(text)+2)/4))
	}
	one := memory.Render([]memory.Book{{Target: memory.Project, Entries: []string{facts[2]}}})
	row("prefix bytes with one fact", fmt.Sprintf("%d bytes (heading and list: %d bytes over the fact)", len(one)+2, len(one)+2-len(facts[2])))
	row("prefix bytes with no memory", "0 bytes")
	spec := tools.MemoryTool().Spec()
	schema, _ := json.Marshal(map[string]any{"name": spec.Name, "description": spec.Description, "parameters": json.RawMessage(spec.Schema)})
	row("memory tool schema (name, description, parameters)", fmt.Sprintf("%d bytes (about %d tokens)", len(schema), len(schema)/4))

	dir, err := os.MkdirTemp("", "troupe-memory-bench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(filepath.Join(dir, "db"), nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer st.Close()
	k := memory.NewKeeper(memory.UserFile{Path: filepath.Join(dir, memory.UserFileName)}, memory.ProjectBackend(st))
	for _, t := range []memory.Target{memory.User, memory.Project} {
		for _, e := range fill(t, facts) {
			if out := k.Apply(memory.Op{Action: memory.Add, Target: t, Content: e}); out.Refused {
				fmt.Fprintln(os.Stderr, out.Text)
				os.Exit(1)
			}
		}
	}
	const runs = 201
	var reads, writes []time.Duration
	for i := range runs {
		s := time.Now()
		text, _ := k.Prefix()
		reads = append(reads, time.Since(s))
		if text == "" {
			fmt.Fprintln(os.Stderr, "empty prefix")
			os.Exit(1)
		}
		s = time.Now()
		k.Apply(memory.Op{Action: memory.Replace, Target: memory.User, OldText: "(0)", Content: fmt.Sprintf("%s (0) v%d", facts[0], i)})
		writes = append(writes, time.Since(s))
	}
	row(fmt.Sprintf("session start: read, scan, render both at the caps (median of %d)", runs), median(reads).String())
	row(fmt.Sprintf("user profile write under the lock, fsynced (median of %d)", runs), median(writes).String())
}
