package ui

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/troupe-dev/troupe/messages"
)

// memoryTitles are the targets as people read them.
var memoryTitles = map[string]string{"user": "user profile", "project": "project facts"}

// Memory writes troupe memory's answer: what a change did (a refusal on stderr), then each
// memory with its use of the cap and its entries, numbered, with their sizes.
func Memory(stdout, stderr io.Writer, r *messages.MemoryReply, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(stdout).Encode(r)
	}
	switch {
	case r.Refused:
		fmt.Fprintln(stderr, "troupe memory: "+r.Result)
		return nil
	case r.Result != "":
		fmt.Fprintln(stdout, r.Result)
		return nil
	}
	for i, book := range r.Books {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s: %d/%d characters", memoryTitles[book.Target], book.Used, book.Cap)
		if book.Where != "" {
			fmt.Fprintf(stdout, " (%s)", book.Where)
		}
		fmt.Fprintln(stdout)
		if book.Error != "" {
			fmt.Fprintln(stderr, "troupe memory: "+book.Error)
			continue
		}
		if len(book.Entries) == 0 {
			fmt.Fprintln(stdout, "  (empty)")
		}
		for j, e := range book.Entries {
			fmt.Fprintf(stdout, "  %d. [%d] %s\n", j+1, e.Chars, e.Text)
			if e.Withheld != "" {
				fmt.Fprintf(stdout, "     left out of the prompt: %s\n", e.Withheld)
			}
		}
	}
	return nil
}
