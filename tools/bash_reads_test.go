package tools

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseShellRead(t *testing.T) {
	whole := func(paths ...string) []shellRead {
		out := make([]shellRead, len(paths))
		for i, p := range paths {
			out[i] = shellRead{path: p, lines: wholeFile}
		}
		return out
	}
	lines := func(path string, c lineChoice) []shellRead { return []shellRead{{path: path, lines: c}} }
	reads := []struct {
		command string
		want    []shellRead
	}{
		{"cat a.go", whole("a.go")},
		// Quoting, escapes and comments as bash reads them (tools/shellparse).
		{`cat "a\"b"`, whole(`a"b`)},
		{"cat a # note", whole("a")},
		{`cat a\ b`, whole("a b")},
		{"cd 'a&&b' && cat c", []shellRead{{path: "c", lines: wholeFile, dir: "a&&b"}}},
		{"nl -ba 'a|b' | sed -n 1p", lines("a|b", lineChoice{first: 1, last: 1})},
		{"  cat a.go b/c.go\n", whole("a.go", "b/c.go")},
		{"cat -n a.go", whole("a.go")},
		{"cat -An -- -odd.go", whole("-odd.go")},
		{"cat 'my file.go' \"other file.go\"", whole("my file.go", "other file.go")},
		{"'cat' a.go", whole("a.go")},
		{"cat --number a.go", whole("a.go")},
		{"nl -ba a.go", whole("a.go")},
		{"nl -b a -w 3 a.go b.go", whole("a.go", "b.go")},
		{"nl -nrz -w4 a.go", whole("a.go")},
		{"nl -v 5 a.go", whole("a.go")},
		{"head a.go", lines("a.go", lineChoice{first: 1, last: 10})},
		{"head -n 50 a.go", lines("a.go", lineChoice{first: 1, last: 50})},
		{"head -n50 a.go", lines("a.go", lineChoice{first: 1, last: 50})},
		{"head -50 a.go", lines("a.go", lineChoice{first: 1, last: 50})},
		{"head --lines=7 -q a.go", lines("a.go", lineChoice{first: 1, last: 7})},
		{"tail a.go", lines("a.go", lineChoice{lastN: 10})},
		{"tail -n 20 a.go", lines("a.go", lineChoice{lastN: 20})},
		{"tail -n +30 a.go", lines("a.go", lineChoice{first: 30})},
		{"sed -n '1,80p' a.go", lines("a.go", lineChoice{first: 1, last: 80})},
		{`sed -n "5,9p" a.go`, lines("a.go", lineChoice{first: 5, last: 9})},
		{"sed -n 12p a.go", lines("a.go", lineChoice{first: 12, last: 12})},
		{"sed -n '40,$p' a.go", lines("a.go", lineChoice{first: 40})},
		{"sed -n -e '3,4p' a.go", lines("a.go", lineChoice{first: 3, last: 4})},
		{"sed -ne '9,2p' a.go", lines("a.go", lineChoice{first: 9, last: 9})},
		{"cat /abs/path.go", whole("/abs/path.go")}, // the workspace check comes with resolving
		{"cd /ws && cat 'a.go'", []shellRead{{path: "a.go", lines: wholeFile, dir: "/ws"}}},
		{"cd sub&&sed -n 2,3p a.go", []shellRead{{path: "a.go", lines: lineChoice{first: 2, last: 3}, dir: "sub"}}},
		// Codex's numbered reads: the same lines as the sed -n range alone.
		{"nl -ba a.go | sed -n '1,120p'", lines("a.go", lineChoice{first: 1, last: 120})},
		{"nl -ba a.go|sed -n 12p", lines("a.go", lineChoice{first: 12, last: 12})},
		{"nl a.go | sed -n -e '3,4p'", lines("a.go", lineChoice{first: 3, last: 4})},
		{"cat -n a.go | sed -n '10,40p'", lines("a.go", lineChoice{first: 10, last: 40})},
		{"cat -bA a.go | sed -n '10,$p'", lines("a.go", lineChoice{first: 10})},
		{"cat --number a.go | sed -n 2,3p", lines("a.go", lineChoice{first: 2, last: 3})},
		{"sed -n '1,80p' a.go | nl -ba", lines("a.go", lineChoice{first: 1, last: 80})},
		{"sed -n '5,9p' a.go | nl -ba -v 5", lines("a.go", lineChoice{first: 5, last: 9})},
		{"sed -n '5,9p' a.go | cat -n", lines("a.go", lineChoice{first: 5, last: 9})},
		{"cd /ws && nl -ba a.go | sed -n '1,5p'", []shellRead{{path: "a.go", lines: lineChoice{first: 1, last: 5}, dir: "/ws"}}},
	}
	for _, tc := range reads {
		if got := parseShellRead(tc.command); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseShellRead(%q) = %+v, want %+v", tc.command, got, tc.want)
		}
	}
	notReads := []string{
		"", "cat", "cat -", "cat ''", "ls a.go", "less a.go", "more a.go", "grep x a.go",
		"cat a > b", "cat a >> b", "cat < a", "cat a 2>&1", "cat $(x)", "cat `x`", "cat $F",
		`cat "$F"`, "cat *.go", "cat a?.go", "cat [ab].go", "cat {a,b}.go", "cat ~/a.go",
		"cat a | grep x", "cat a.go | head", "cat a; rm a", "cat a && rm a", "cat a || true", "cat a &",
		"cat a\nrm a", "cat 'unclosed", "(cat a)", "X=1 cat a", "cat -s a",
		"cat --squeeze-blank a", "sudo cat a", "/bin/cat a",
		"head -c 100 a", "head -c100 a", "head -n -5 a", "head -n +5 a", "head -n 0 a", "head -n a",
		"head -n", "head -n 1k a", "tail -f a", "tail -F a", "tail -c 10 a", "tail --follow a",
		"sed -i 's/a/b/' a", "sed -i -n '1,5p' a", "sed '1,5p' a", "sed -n a", "sed -n 'p' a",
		"sed -n '/re/p' a", "sed -n '1,5p;9q' a", "sed -n '1,5d' a", "sed -n '1,5p' a b",
		"sed -n -e '1p' -e '2p' a", "sed -n -f script.sed a", "sed -n '0,5p' a", "sed -n '1,5p'",
		"nl a -s x", "nl -bp^x a", "nl -v x a", "nl -w a",
		"cd a && cd b && cat c", "cd && cat a", "cd - && cat a", "cd a b && cat c", "cat a && cd b",
		"cd $D && cat a", "cd a && ls", "cd a; cat b", "pushd a && cat b",
		// Pipes other than a numbering command and one sed -n range over one file.
		"cat a | sed -n '1,5p'", "cat -- -n | sed -n 1p", "cat -s -n a | sed -n 1p", "nl -ba a b | sed -n 1p",
		"nl -ba a | sed -n '1,5p' b", "nl -ba a | sed '1,5p'", "nl -ba a | sed -n '1,5p;9,10p'",
		"nl -ba a | sed -n '/x/p'", "nl -ba a | sed -n 1,5p | head", "nl -ba a || sed -n 1p",
		"nl -ba a |& sed -n 1p", "nl -ba a | grep x", "nl -ba a | nl -ba", "nl -ba a | head -n 5",
		"nl -ba | sed -n 1p", "nl -ba - | sed -n 1p", "nl -ba a |",
		"| sed -n 1p", "nl -ba a | sed -n 1,5p > out", "nl -ba a | sed -n 1,5p &", "nl -ba $F | sed -n 1p",
		"sed -n '1,5p' a | head", "sed -n '1,5p' a | nl -ba b", "sed -n '1,5p' | nl -ba",
		"sed -n '1,5p' a b | nl", "sed -i -n 1p a | nl", "sed -n 1p a | cat", "sed -n 1p a | nl -v -3",
		"sed -n 1p - | nl", "head -n 5 a | nl -ba", "nl -ba a | tail -n 5",
	}
	for _, cmd := range notReads {
		if got := parseShellRead(cmd); got != nil {
			t.Errorf("parseShellRead(%q) = %+v, want not a read", cmd, got)
		}
	}
}

func TestLineChoiceSpan(t *testing.T) {
	tests := []struct {
		choice     lineChoice
		total      int
		start, end int
		shown      bool
	}{
		{wholeFile, 30, 1, 30, true},
		{wholeFile, 0, 1, 0, true},
		{lineChoice{first: 1, last: 10}, 30, 1, 10, true},
		{lineChoice{first: 1, last: 50}, 30, 1, 30, true},
		{lineChoice{lastN: 10}, 30, 21, 30, true},
		{lineChoice{lastN: 50}, 30, 1, 30, true},
		{lineChoice{first: 25}, 30, 25, 30, true},
		{lineChoice{first: 31}, 30, 0, 0, false},
		{lineChoice{first: 40, last: 50}, 0, 1, 0, true},
	}
	for _, tc := range tests {
		start, end, shown := tc.choice.span(tc.total)
		if shown != tc.shown || shown && (start != tc.start || end != tc.end) {
			t.Errorf("%+v.span(%d) = %d, %d, %v; want %d, %d, %v", tc.choice, tc.total, start, end, shown, tc.start, tc.end, tc.shown)
		}
	}
}

// numberedLines is n lines "line 1" … "line n".
func numberedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// A plain shell read, run through the whole lifecycle, counts as a read for the edit that
// follows; a command that is more than a read does not. Why: models trained on Codex read files
// with the shell, most often as nl -ba f | sed -n 'A,Bp' (the pipeline Codex's safe-command
// list approves), and without this their next edit is refused with "read_file it first".
func TestShellReadCountsForEdits(t *testing.T) {
	tests := []struct {
		name, command string
		editOld       string // the line the edit replaces
		wantEdit      bool
		wantErr       string // the edit's refusal when !wantEdit
	}{
		{"cat", "cat a.go", "line 3", true, ""},
		{"cat of two files", "cat b.go a.go", "line 3", true, ""},
		{"absolute path inside", "cat ROOT/a.go", "line 3", true, ""},
		{"Codex's working directory", "cd ROOT && cat 'a.go'", "line 3", true, ""},
		{"cd to a subdirectory", "cd sub && head -n 4 ../a.go", "line 3", true, ""},
		{"cd outside", "cd OUTDIR && cat ROOT/a.go", "line 3", true, ""},
		{"cd outside, relative path", "cd OUTDIR && cat outside.go", "line 3", false, "read_file it first"},
		{"nl -ba", "nl -ba a.go", "line 3", true, ""},
		{"head covers the line", "head -n 5 a.go", "line 3", true, ""},
		{"head misses the line", "head -n 5 a.go", "line 9", false, "outside the lines you read (1–5 of 30)"},
		{"sed range", "sed -n '8,12p' a.go", "line 9", true, ""},
		{"tail", "tail -n 5 a.go", "line 28", true, ""},
		{"tail misses the line", "tail -n 5 a.go", "line 3", false, "outside the lines you read (26–30 of 30)"},
		{"Codex's nl | sed", "nl -ba a.go | sed -n '1,12p'", "line 9", true, ""},
		{"nl | sed misses the line", "nl -ba a.go | sed -n '1,5p'", "line 9", false, "outside the lines you read (1–5 of 30)"},
		{"cat -n | sed", "cd ROOT && cat -n a.go | sed -n '8,10p'", "line 9", true, ""},
		{"sed | nl", "sed -n '20,$p' a.go | nl -ba -v 20", "line 29", true, ""},
		{"a pipe into sed, unnumbered", "cat a.go | sed -n '1,12p'", "line 9", false, "read_file it first"},
		{"nl | sed of a missing file", "nl -ba missing.go | sed -n '1,5p'", "line 3", false, "read_file it first"},
		{"a pipe", "cat a.go | head", "line 3", false, "read_file it first"},
		{"a redirection", "cat a.go > copy.go", "line 3", false, "read_file it first"},
		{"a glob", "cat *.go", "line 3", false, "read_file it first"},
		{"a failed read", "cat a.go missing.go", "line 3", false, "read_file it first"},
		{"an outside file with it", "cat a.go OUTSIDE", "line 3", false, "read_file it first"},
	}
	outside := filepath.Join(t.TempDir(), "outside.go")
	if err := os.WriteFile(outside, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env, _ := trackedEnv(t)
			writeFiles(t, env.Root, map[string]string{"a.go": numberedLines(30), "b.go": "b\n", "sub/": ""})
			command := strings.ReplaceAll(tc.command, "ROOT", env.Root)
			command = strings.ReplaceAll(command, "OUTSIDE", outside)
			command = strings.ReplaceAll(command, "OUTDIR", filepath.Dir(outside))
			call(t, env, "bash", bashArgsJSON(command, nil))
			res := call(t, env, "edit_file", editArgs("a.go", tc.editOld+"\n", "edited\n", false))
			if !tc.wantEdit {
				mustFail(t, res, tc.wantErr)
				if strings.Contains(readFileT(t, filepath.Join(env.Root, "a.go")), "edited") {
					t.Error("the refused edit was applied")
				}
				return
			}
			mustOK(t, res)
			if !strings.Contains(readFileT(t, filepath.Join(env.Root, "a.go")), "edited") {
				t.Errorf("the edit did not land: %s", res.Output)
			}
		})
	}
}

// The record a shell read leaves is the one read_file leaves for the same lines.
func TestShellReadRecordsLikeReadFile(t *testing.T) {
	content := numberedLines(30)
	for _, tc := range []struct{ command, readArgs string }{
		{"cat a.go", `{"path":"a.go"}`},
		{"head -n 12 a.go", `{"path":"a.go","limit":12}`},
		{"sed -n '5,9p' a.go", `{"path":"a.go","offset":5,"limit":5}`},
		{"tail -n +20 a.go", `{"path":"a.go","offset":20}`},
		{"nl -ba a.go | sed -n '5,9p'", `{"path":"a.go","offset":5,"limit":5}`},
		{"sed -n '25,40p' a.go | nl -ba -v 25", `{"path":"a.go","offset":25}`},
	} {
		byShell, _ := trackedEnv(t)
		byTool, _ := trackedEnv(t)
		for _, env := range []*Env{byShell, byTool} {
			writeFiles(t, env.Root, map[string]string{"a.go": content})
		}
		mustOK(t, call(t, byShell, "bash", bashArgsJSON(tc.command, nil)))
		mustOK(t, call(t, byTool, "read_file", tc.readArgs))
		got, want := mustRecord(t, byShell, "a.go"), mustRecord(t, byTool, "a.go")
		got.ModTime = want.ModTime // two files, written apart: their times may differ
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s recorded %+v\nread_file recorded %+v", tc.command, got, want)
		}
	}
}

// Nothing is recorded when the model did not see the whole output, when the command failed,
// or when it ran in the background.
func TestShellReadNotRecorded(t *testing.T) {
	tests := []struct {
		name, command string
		extra         map[string]any
		environ       []string
	}{
		{"output cut to head and tail", "cat big.go", nil, nil},
		{"failed", "sed -n '1,5p' gone.go", nil, nil},
		{"numbered range cut to head and tail", "nl -ba big.go | sed -n '1,20000p'", nil, nil},
		{"numbered range in the background", "nl -ba a.go | sed -n 1p", map[string]any{"background": true}, nil},
		{"background", "cat a.go", map[string]any{"background": true}, nil},
		{"troupe state", "cat .troupe/state.txt", nil, nil},
		{"cd through CDPATH", "cd sub && cat ../a.go", nil, []string{"PATH=" + os.Getenv("PATH"), "CDPATH=/"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env, _ := trackedEnv(t)
			writeFiles(t, env.Root, map[string]string{"a.go": "a\n", "big.go": numberedLines(20000),
				".troupe/state.txt": "s\n", "sub/": ""})
			env.Environ = tc.environ
			call(t, env, "bash", bashArgsJSON(tc.command, tc.extra))
			if recs := env.Files.Records(); len(recs) != 0 {
				t.Errorf("recorded %+v", recs[0])
			}
		})
	}
}

// A file that changes while the command runs is not recorded: the model saw neither version.
func TestShellReadOfAChangingFile(t *testing.T) {
	env, _ := trackedEnv(t)
	writeFiles(t, env.Root, map[string]string{"a.go": "a\n"})
	reads := env.planShellReads("cat a.go")
	if len(reads) != 1 {
		t.Fatalf("planned %+v", reads)
	}
	writeFiles(t, env.Root, map[string]string{"a.go": "b\n"})
	env.recordShellReads(reads)
	if _, ok := env.Files.Record("a.go"); ok {
		t.Error("a file changed during the read was recorded")
	}
}

// A user-configured command (RunCommand) is not the model reading.
func TestRunCommandRecordsNoRead(t *testing.T) {
	env, _ := trackedEnv(t)
	writeFiles(t, env.Root, map[string]string{"a.go": "a\n"})
	mustOK(t, RunCommand(t.Context(), env, "cat a.go", 10))
	if _, ok := env.Files.Record("a.go"); ok {
		t.Error("RunCommand recorded a read")
	}
}

// Codex's own call, through its shell alias and the whole lifecycle: the workdir becomes a cd,
// the numbered pipeline records lines 1..12 as a partial read, an edit outside them is refused
// and one inside them lands.
func TestCodexNumberedReadThroughTheShellAlias(t *testing.T) {
	env, _ := trackedEnv(t)
	writeFiles(t, env.Root, map[string]string{"a.txt": numberedLines(30)})
	args, err := json.Marshal(map[string]any{
		"command": []string{"bash", "-lc", "nl -ba a.txt | sed -n '1,12p'"}, "workdir": env.Root})
	if err != nil {
		t.Fatal(err)
	}
	res := mustOK(t, call(t, env, "shell", string(args)))
	mustContain(t, res.Output, "    12\tline 12")
	rec := mustRecord(t, env, "a.txt")
	if rec.Whole || rec.RangeStart != 1 || rec.RangeEnd != 12 || rec.TotalLines != 30 {
		t.Errorf("recorded lines %d–%d of %d (whole %v), want the partial read 1–12 of 30",
			rec.RangeStart, rec.RangeEnd, rec.TotalLines, rec.Whole)
	}
	mustFail(t, call(t, env, "edit_file", editArgs("a.txt", "line 20\n", "edited\n", false)),
		"outside the lines you read (1–12 of 30)")
	mustOK(t, call(t, env, "edit_file", editArgs("a.txt", "line 9\n", "edited\n", false)))
}
