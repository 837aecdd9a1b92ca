package tools

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// FuzzSplit: no input panics, and a split gives at most maxPieces calls, each to a registered
// tool with a JSON object as its arguments.
func FuzzSplit(f *testing.F) {
	reg := builtinRegistry(f)
	for _, seed := range [][2]string{
		{"read_multiple_files", `{"paths": ["a", "b"]}`},
		{"bash", `{"commands": [{"command": "ls"}, "pwd"]}`},
		{"MultiEdit", `{"file_path": "a", "edits": "[{\"old_string\": \"a\", \"new_string\": \"b\"}]"}`},
		{"apply_patch", "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n@@\n-z\n+w\n*** End Patch"},
		{"replace_in_file", `{"path": "a", "diff": "------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n<<<<<<< SEARCH\n:start_line:2\n-------\nz\n=======\n>>>>>>> REPLACE"}`},
		{"edit_file", `{"path": "a", "edits": [{"oldText": "a", "newText": "b"}]}`},
		{"ns---read_file", `{"paths": []}`},
		{"Bash", `{"command": "ls"} {"command": "pwd"}`},
		{"bash", `{"command": "ls"}{"command": "ls"}`},
		{"read_file", `{"files": [{"path": "a"}, {"path": "b"}]}`},
		{"read_file", `{"args": {"file": [{"path": "a"}]}}`},
		{"read_file", `{"path": ["a", "b"]}`},
		{"tool_code", `{"code": "print(default_api.read_file(path='a'))\nbash(command='ls')"}`},
		{"StrReplaceFile", `{"path": "a", "edit": [{"old": "x", "new": "y"}, {"old": "z", "new": "w"}]}`},
		{"search_replace", `{"file_path": "a", "content": "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE"}`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, name, raw string) {
		checkPieces(t, reg, name, raw)
	})
}

func checkPieces(t *testing.T, reg *Registry, name, raw string) {
	t.Helper()
	pieces, ok := reg.Split(name, raw)
	if !ok {
		return
	}
	if len(pieces) == 0 || len(pieces) > maxPieces {
		t.Fatalf("%s split into %d pieces", name, len(pieces))
	}
	for _, p := range pieces {
		var obj map[string]any
		if _, known := reg.byName[p.Name]; !known || json.Unmarshal([]byte(p.Args), &obj) != nil {
			t.Fatalf("%s: piece %s %s is not a call to one of our tools", name, p.Name, p.Args)
		}
	}
}

// A 1 MB hostile call is read in bounded time: every scan in Split and the SEARCH/REPLACE
// reader moves forward through the text once.
func TestSplitHostileMegabyte(t *testing.T) {
	reg := builtinRegistry(t)
	const mb = 1 << 20
	quoted := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	hostile := map[string][2]string{
		"open search blocks": {"replace_in_file", `{"path": "a", "diff": ` + quoted(strings.Repeat("------- SEARCH\n", mb/15)) + `}`},
		"many blocks":        {"apply_diff", `{"path": "a", "diff": ` + quoted(strings.Repeat("<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", mb/44)) + `}`},
		"line hints":         {"apply_diff", `{"path": "a", "diff": ` + quoted("<<<<<<< SEARCH\n"+strings.Repeat(":start_line:1\n", mb/14)) + `}`},
		"many paths":         {"read_multiple_files", `{"paths": [` + strings.Repeat(`"a",`, mb/4) + `"b"]}`},
		"deep edits":         {"MultiEdit", `{"edits": ` + strings.Repeat("[", mb) + `}`},
		"hunks":              {"apply_patch", "*** Begin Patch\n*** Update File: a\n" + strings.Repeat("@@\n-x\n+y\n", mb/10) + "*** End Patch"},
		"namespaces":         {strings.Repeat("a:", mb/2) + "read_file", `{"paths": ["a"]}`},
		"escapes":            {"Read", strings.Repeat(`\n`, mb/2)},
		"concatenated":       {"Bash", strings.Repeat(`{"command": "ls"}`, mb/17)},
		"concatenated lists": {"Read", strings.Repeat(`{"paths": [`+strings.Repeat(`"a",`, 4096)+`"b"]}`, 16)},
		"doubled name":       {strings.Repeat("read_file", 2*(mb/18)), `{"path": "a"}{"path": "b"}`},
	}
	for name, call := range hostile {
		t.Run(name, func(t *testing.T) {
			testwait.Returns(t, 20*time.Second, func() { checkPieces(t, reg, call[0], call[1]) }, "Split of a hostile 1 MB call")
		})
	}
}

// FuzzSearchReplace: no diff panics, and every block read has a non-empty SEARCH part.
func FuzzSearchReplace(f *testing.F) {
	for _, seed := range []string{
		"------- SEARCH\nx\n=======\ny\n+++++++ REPLACE",
		"<<<<<<< SEARCH\n:start_line:3\n:end_line:4\n-------\nx\n=======\ny\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\nz\n=======\n>>>>>>> REPLACE",
		"=======", "------- SEARCH\n", "",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, diff string) {
		blocks, problem := parseSearchReplace(diff)
		if problem == "" && len(blocks) == 0 {
			t.Fatalf("%q: no blocks and no problem", diff)
		}
		for _, b := range blocks {
			if b.old == "" {
				t.Fatalf("%q: a block with an empty SEARCH part", diff)
			}
		}
	})
}
