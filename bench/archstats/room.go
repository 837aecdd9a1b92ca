package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The measures of issue 18 ("the session as a room"), each defined on source alone so that any
// revision can be measured:
//
//   - session methods: methods whose receiver is the session type in package actors;
//   - without actor context: those of them with no parameter of type actor.Context (a method
//     that decides without effects belongs on a plain type);
//   - state groups without methods: fields of the session whose type is a struct declared in
//     package actors (SessionDeps, the Node's inputs, aside) that has no method of its own;
//   - session methods in command files: in actors/commands*.go and actors/audit_probe.go;
//   - wire StartSession reads: each use of a session field whose type is messages.StartSession
//     (or a pointer to it) through a variable or field named s (the session), in package actors;
//   - cmd/troupe own package: lines of the non-test Go files directly in cmd/troupe;
//   - non-test Go files over 400 lines, anywhere;
//   - rune-cut copies: functions outside internal/textfmt that cut text on a rune boundary by
//     hand (utf8.RuneStart, or slicing a []rune conversion);
//   - references to absent documents: Go files whose comments cite the old design document
//     (by its file name, or by section number) or a docs file that is not in the tree.

// tree is every file of one revision that a measure reads: path → content.
type tree map[string][]byte

// workTree reads the working tree's Go and Markdown files, skipping hidden directories.
func workTree() (tree, error) {
	t := tree{}
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".md") {
			data, err := os.ReadFile(p)
			t[filepath.ToSlash(p)] = data
			return err
		}
		return nil
	})
	return t, err
}

// gitTree reads the Go and Markdown files of rev through git archive.
func gitTree(rev string) (tree, error) {
	out, err := exec.Command("git", "archive", "--format=tar", rev).Output()
	if err != nil {
		return nil, fmt.Errorf("git archive %s: %w", rev, err)
	}
	t := tree{}
	r := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := r.Next()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg || !(strings.HasSuffix(h.Name, ".go") || strings.HasSuffix(h.Name, ".md")) {
			continue
		}
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, err
		}
		t[h.Name] = data
	}
}

// roomFigures are issue 18's measures of one revision; the lists name what a count counts.
type roomFigures struct {
	methods, noContext, commandMethods, startReads int
	groups                                         int
	bareGroups                                     []string
	cmdLines                                       int
	overLimit, runeCuts, absentDocs                []string
	err                                            string
}

func measureRoom(t tree) roomFigures {
	var f roomFigures
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for p, data := range t {
		if !strings.HasSuffix(p, ".go") {
			continue
		}
		lines := strings.Count(string(data), "\n")
		test := strings.HasSuffix(p, "_test.go")
		if !test && lines > limit {
			f.overLimit = append(f.overLimit, fmt.Sprintf("%s (%d)", p, lines))
		}
		if !test && path.Dir(p) == "cmd/troupe" {
			f.cmdLines += lines
		}
		if citesAbsent(t, string(data)) {
			f.absentDocs = append(f.absentDocs, p)
		}
		if test || strings.HasPrefix(p, "internal/textfmt/") {
			continue
		}
		af, err := parser.ParseFile(fset, p, data, parser.SkipObjectResolution)
		if err != nil {
			f.err = err.Error()
			continue
		}
		files[p] = af
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && cutsRunes(data[fset.Position(fd.Body.Pos()).Offset:fset.Position(fd.Body.End()).Offset]) {
				f.runeCuts = append(f.runeCuts, p+":"+fd.Name.Name)
			}
		}
	}
	sessionRoom(files, &f)
	sort.Strings(f.overLimit)
	sort.Strings(f.runeCuts)
	sort.Strings(f.absentDocs)
	return f
}

var (
	runeStart = regexp.MustCompile(`utf8\.RuneStart\(`)
	runeSlice = regexp.MustCompile(`\[\]rune\([^()]*\)\[|string\(\w+\[[^\]]*:[^\]]*\]\)`)
	runeConv  = regexp.MustCompile(`:?= \[\]rune\(`)
	designRef = regexp.MustCompile(`DESIGN(\.md)?\s*§|DESIGN` + `\.md`)
	docsRef   = regexp.MustCompile(`\bdocs/[A-Za-z0-9_./-]+\.md\b`)
)

// cutsRunes reports whether a function body cuts text at a rune boundary by hand.
func cutsRunes(body []byte) bool {
	return runeStart.Match(body) || (runeConv.Match(body) && runeSlice.Match(body)) || bytes.Contains(body, []byte("[]rune(")) && runeSlice.Match(body)
}

// citesAbsent reports whether a file's comments cite a document the tree does not hold.
func citesAbsent(t tree, text string) bool {
	var comments strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			comments.WriteString(line[i+2:])
			comments.WriteByte(' ')
		}
	}
	text = comments.String()
	if designRef.MatchString(text) {
		if _, ok := t["DESIGN.md"]; !ok {
			return true
		}
	}
	for _, m := range docsRef.FindAllString(text, -1) {
		if _, ok := t[strings.TrimSuffix(m, ".")]; !ok {
			return true
		}
	}
	return false
}

// sessionRoom fills the session measures from package actors' non-test files.
func sessionRoom(files map[string]*ast.File, f *roomFigures) {
	types := map[string]*ast.StructType{}
	methodsOf := map[string]int{}
	for p, af := range files {
		if path.Dir(p) != "actors" {
			continue
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					if ts, ok := sp.(*ast.TypeSpec); ok {
						if st, ok := ts.Type.(*ast.StructType); ok {
							types[ts.Name.Name] = st
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil && len(d.Recv.List) > 0 {
					methodsOf[typeName(d.Recv.List[0].Type)]++
				}
			}
		}
	}
	st := types["session"]
	if st == nil {
		f.err = "no session struct in package actors"
		return
	}
	startFields := map[string]bool{}
	for _, fl := range st.Fields.List {
		tn := typeName(fl.Type)
		if sel, ok := unstar(fl.Type).(*ast.SelectorExpr); ok && sel.Sel.Name == "StartSession" {
			for _, n := range fl.Names {
				startFields[n.Name] = true
			}
			continue
		}
		if _, ok := types[tn]; !ok || tn == "SessionDeps" {
			continue
		}
		f.groups++
		if methodsOf[tn] == 0 {
			f.bareGroups = append(f.bareGroups, tn)
		}
	}
	sort.Strings(f.bareGroups)
	for p, af := range files {
		if path.Dir(p) != "actors" {
			continue
		}
		command := strings.HasPrefix(path.Base(p), "commands") || path.Base(p) == "audit_probe.go"
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 || typeName(fd.Recv.List[0].Type) != "session" {
				continue
			}
			f.methods++
			if command {
				f.commandMethods++
			}
			if !takesContext(fd) {
				f.noContext++
			}
		}
		// Reads of the wire start: s.start.X in session methods, h.s.start.X in the command host,
		// or any other variable named s (the session's receiver by convention).
		ast.Inspect(af, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || !startFields[sel.Sel.Name] {
				return true
			}
			switch x := sel.X.(type) {
			case *ast.Ident:
				if x.Name == "s" {
					f.startReads++
				}
			case *ast.SelectorExpr:
				if x.Sel.Name == "s" {
					f.startReads++
				}
			}
			return true
		})
	}
}

func unstar(e ast.Expr) ast.Expr {
	if s, ok := e.(*ast.StarExpr); ok {
		return s.X
	}
	return e
}

func typeName(e ast.Expr) string {
	if id, ok := unstar(e).(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func takesContext(fd *ast.FuncDecl) bool {
	for _, p := range fd.Type.Params.List {
		if sel, ok := p.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Context" {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "actor" {
				return true
			}
		}
	}
	return false
}

// printRoom prints the measures side by side: before (when given), now, and the target.
func printRoom(before *roomFigures, beforeRev string, now roomFigures) {
	fmt.Println()
	head := "before"
	if beforeRev != "" {
		head = "before " + beforeRev
	}
	fmt.Printf("%-52s %-16s %-8s %s\n", "issue 18 measures", head, "now", "target")
	row := func(name string, b, n func(roomFigures) string, target string) {
		bv := "-"
		if before != nil {
			bv = b(*before)
		}
		fmt.Printf("%-52s %-16s %-8s %s\n", name, bv, n(now), target)
	}
	num := func(get func(roomFigures) int) func(roomFigures) string {
		return func(f roomFigures) string { return fmt.Sprint(get(f)) }
	}
	row("  session methods", num(func(f roomFigures) int { return f.methods }), num(func(f roomFigures) int { return f.methods }), "≤ 80")
	row("  session methods without actor context", num(func(f roomFigures) int { return f.noContext }), num(func(f roomFigures) int { return f.noContext }), "≤ 20")
	bare := func(f roomFigures) string { return fmt.Sprintf("%d of %d", len(f.bareGroups), f.groups) }
	row("  state groups without methods", bare, bare, "0")
	row("  session methods in commands*.go, audit_probe.go", num(func(f roomFigures) int { return f.commandMethods }), num(func(f roomFigures) int { return f.commandMethods }), "0")
	row("  wire StartSession reads by the session", num(func(f roomFigures) int { return f.startReads }), num(func(f roomFigures) int { return f.startReads }), "≤ 20")
	row("  cmd/troupe own package, non-test lines", num(func(f roomFigures) int { return f.cmdLines }), num(func(f roomFigures) int { return f.cmdLines }), "≤ 2000")
	row("  non-test Go files over 400 lines", num(func(f roomFigures) int { return len(f.overLimit) }), num(func(f roomFigures) int { return len(f.overLimit) }), "0")
	row("  rune-cut copies outside internal/textfmt", num(func(f roomFigures) int { return len(f.runeCuts) }), num(func(f roomFigures) int { return len(f.runeCuts) }), "0")
	row("  Go files citing absent documents", num(func(f roomFigures) int { return len(f.absentDocs) }), num(func(f roomFigures) int { return len(f.absentDocs) }), "0")
	list := func(name string, items []string) {
		if len(items) > 0 {
			fmt.Printf("  now, %s: %s\n", name, strings.Join(items, ", "))
		}
	}
	list("state groups without methods", now.bareGroups)
	list("files over 400 lines", now.overLimit)
	list("rune-cut copies", now.runeCuts)
	list("files citing absent documents", now.absentDocs)
	if now.err != "" {
		fmt.Println("  now, parse error:", now.err)
	}
}
