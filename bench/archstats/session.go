package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
)

// sessionFigures are the session type's size: its fields, its methods, the files they are in.
type sessionFigures struct {
	name            string
	fields, methods int
	methodFiles     map[string]bool
}

// sessionStats finds the session actor's type in package actors (lower-case session, or
// Session in older revisions) and counts its fields (each name of a multi-name field counts)
// and its methods across the package's files.
func sessionStats(pkg source) (sessionFigures, error) {
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	paths := make([]string, 0, len(pkg))
	for p := range pkg {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, pkg[p], parser.SkipObjectResolution)
		if err != nil {
			return sessionFigures{}, fmt.Errorf("parse %s: %w", p, err)
		}
		files[p] = f
	}
	for _, name := range []string{"session", "Session"} {
		fields, ok := structFields(files, name)
		if !ok {
			continue
		}
		out := sessionFigures{name: name, fields: fields, methodFiles: map[string]bool{}}
		for p, f := range files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && receiverIs(fd, name) {
					out.methods++
					out.methodFiles[p] = true
				}
			}
		}
		return out, nil
	}
	return sessionFigures{}, fmt.Errorf("no session struct type in package actors")
}

func structFields(files map[string]*ast.File, name string) (int, bool) {
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if ts.Name.Name != name || !ok {
					continue
				}
				n := 0
				for _, fl := range st.Fields.List {
					n += max(len(fl.Names), 1) // an embedded field has no name
				}
				return n, true
			}
		}
	}
	return 0, false
}

func receiverIs(fd *ast.FuncDecl, name string) bool {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	t := fd.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.Name == name
}
