// Command archstats prints the structure figures of issue 12 for actors/: lines per file (the
// largest, and how many are over the 400-line house limit) and the session type (its fields, its
// methods, and the files and lines they are spread over). It reads source only (go/parser), so
// it measures any revision, built or not. Nothing is asserted. Run from the repository root:
//
//	go run ./bench/archstats [-before REV] [-room-before REV]
//
// It then prints the measures of issue 18 (room.go), before (at -room-before) and now.
// With -before, the same figures for REV (read through git show) come first, as "before"; a
// revision git cannot show (a shallow clone) gives the figures issue 12 recorded instead.
// bench/run.sh passes 902d0b4, the last commit before the work on actors/ began (the
// session type then had the 48 fields and 123 methods the issue counts).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// limit is the house rule's file length for non-test files.
const limit = 400

func main() {
	rev := flag.String("before", "", "a git revision to measure as well, printed as before")
	roomRev := flag.String("room-before", "", "the revision of issue 18's before column (default: -before, else 7279458, where that issue's work began)")
	flag.Parse()
	if *rev != "" {
		if src, err := gitSource(*rev); err == nil {
			print("before ("+*rev+")", measure(src))
		} else {
			fmt.Printf("%-44s %s\n", "actors/ structure: before (recorded)", "48 fields / 123 methods in the session type, over 16 files, 3,128 lines (issue 12)")
			fmt.Printf("%-44s %s\n", "", "("+*rev+" not readable here: "+err.Error()+")")
		}
	}
	src, err := treeSource("actors")
	if err != nil {
		fmt.Fprintf(os.Stderr, "archstats: %v (run it from the repository root)\n", err)
		os.Exit(1)
	}
	print("now", measure(src))

	if *roomRev == "" {
		*roomRev = *rev
	}
	if *roomRev == "" {
		*roomRev = "7279458"
	}
	var before *roomFigures
	if t, err := gitTree(*roomRev); err == nil {
		f := measureRoom(t)
		before = &f
	} else {
		*roomRev += " (not readable: " + err.Error() + ")"
	}
	t, err := workTree()
	if err != nil {
		fmt.Fprintf(os.Stderr, "archstats: %v\n", err)
		os.Exit(1)
	}
	printRoom(before, *roomRev, measureRoom(t))
}

// source is a set of Go files under actors/: path → content.
type source map[string][]byte

// treeSource reads the working tree.
func treeSource(dir string) (source, error) {
	src := source{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		src[filepath.ToSlash(p)] = data
		return err
	})
	return src, err
}

// gitSource reads actors/ as it was at rev.
func gitSource(rev string) (source, error) {
	out, err := exec.Command("git", "ls-tree", "-r", "--name-only", rev, "actors/").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-tree %s: %w", rev, err)
	}
	src := source{}
	for _, p := range strings.Fields(string(out)) {
		if !strings.HasSuffix(p, ".go") {
			continue
		}
		data, err := exec.Command("git", "show", rev+":"+p).Output()
		if err != nil {
			return nil, fmt.Errorf("git show %s:%s: %w", rev, p, err)
		}
		src[p] = data
	}
	return src, nil
}

// figures are what one revision measures.
type figures struct {
	files, lines, over    int // non-test files under actors/, their lines, those over the limit
	maxLines              int
	maxFile               string
	testMax               int
	testMaxFile           string
	fields, methods       int // of the session type (package actors)
	methodFiles, mfLines  int // files holding session methods, and their lines
	sessionFiles, sfLines int // actors/session*.go, and their lines
	sessionType, parseErr string
}

func measure(src source) figures {
	var f figures
	for p, data := range src {
		n := strings.Count(string(data), "\n")
		if strings.HasSuffix(p, "_test.go") {
			if n > f.testMax {
				f.testMax, f.testMaxFile = n, p
			}
			continue
		}
		f.files++
		f.lines += n
		if n > limit {
			f.over++
		}
		if n > f.maxLines {
			f.maxLines, f.maxFile = n, p
		}
	}
	pkg := source{}
	for p, data := range src {
		if path.Dir(p) == "actors" && !strings.HasSuffix(p, "_test.go") {
			pkg[p] = data
			if strings.HasPrefix(path.Base(p), "session") {
				f.sessionFiles++
				f.sfLines += strings.Count(string(data), "\n")
			}
		}
	}
	st, err := sessionStats(pkg)
	if err != nil {
		f.parseErr = err.Error()
		return f
	}
	f.fields, f.methods, f.sessionType = st.fields, st.methods, st.name
	for p := range st.methodFiles {
		f.methodFiles++
		f.mfLines += strings.Count(string(pkg[p]), "\n")
	}
	return f
}

func print(label string, f figures) {
	row := func(k, v string) { fmt.Printf("%-44s %s\n", k, v) }
	row("actors/ structure: "+label, "")
	row("  files (non-test) / lines", fmt.Sprintf("%d / %d", f.files, f.lines))
	row("  largest file / files over 400 lines", fmt.Sprintf("%d lines (%s) / %d", f.maxLines, f.maxFile, f.over))
	row("  largest test file", fmt.Sprintf("%d lines (%s)", f.testMax, f.testMaxFile))
	if f.parseErr != "" {
		row("  session type", "could not be read: "+f.parseErr)
		return
	}
	row("  session type: fields / methods", fmt.Sprintf("%d / %d (type %s)", f.fields, f.methods, f.sessionType))
	row("  session methods: files / their lines", fmt.Sprintf("%d / %d", f.methodFiles, f.mfLines))
	row("  actors/session*.go: files / lines", fmt.Sprintf("%d / %d", f.sessionFiles, f.sfLines))
}
