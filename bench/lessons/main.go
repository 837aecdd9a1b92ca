// Command lessons measures troupe's learning layer (docs/ARCHITECTURE.md, "The learning layer"):
//
//   - retrieval on recorded failures: for each trap, a recorded session that met and fixed it
//     is learnt (with every other case's lesson in the same project), then a new session meets
//     the same trap: did the fixing lesson come back before the task and after the failure, and
//     which wrong ones came with it. The figure to quote is the held-out set's (heldout/, sealed
//     by SHA256SUMS, never tuned against); corpus/ is the set the retrieval was tuned on.
//   - a scripted suite through the real Node: the same traps recur across 10 sessions of one
//     project, and the scripted model goes straight to a fix only when the fix's text is in its
//     request (it checks the request; it does not choose to succeed): turns and tokens per task
//     with lessons on and off.
//
// Run it with: go run ./bench/lessons [-sessions 10] [-skip-suite] [-corpus-only]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

func main() {
	sessions := flag.Int("sessions", 10, "sessions of the scripted suite")
	skipSuite := flag.Bool("skip-suite", false, "measure retrieval only")
	corpusOnly := flag.Bool("corpus-only", false, "retrieval on the tuning corpus only (for tuning: the held-out figure stays unseen)")
	flag.Parse()
	if err := run(*sessions, *skipSuite, *corpusOnly); err != nil {
		fmt.Fprintln(os.Stderr, "lessons bench:", err)
		os.Exit(1)
	}
}

func run(sessions int, skipSuite, corpusOnly bool) error {
	_, self, _, _ := runtime.Caller(0)
	dir := filepath.Dir(self)
	if err := verifySeal(filepath.Join(dir, "heldout")); err != nil {
		return err
	}
	corpus, err := readCases(filepath.Join(dir, "corpus"))
	if err != nil {
		return err
	}
	heldout, err := readCases(filepath.Join(dir, "heldout"))
	if err != nil {
		return err
	}
	fmt.Println("retrieval: one project holds every case's lesson (corpus and held-out); each new session meets one trap")
	printRetrieval(os.Stdout, "tuning corpus (tuned on: says what was built)", evalRetrieval(corpus, heldout))
	if corpusOnly {
		return nil // while tuning: the held-out figure is not looked at
	}
	printRetrieval(os.Stdout, "HELD-OUT (sealed, never tuned on: the figure to quote)", evalRetrieval(heldout, corpus))
	if skipSuite {
		return nil
	}
	return runSuite(os.Stdout, sessions)
}
