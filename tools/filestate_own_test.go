package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// ownChangeEnv is a tracked env whose model read files at turn 1; the next calls are turn 2.
func ownChangeEnv(t *testing.T, files map[string]string) *Env {
	t.Helper()
	env, _ := trackedEnv(t)
	writeFiles(t, env.Root, files)
	env.Turn = 1
	for name := range files {
		mustOK(t, call(t, env, "read_file", `{"path":"`+name+`"}`))
	}
	env.Turn = 2
	return env
}

func bashCall(t *testing.T, env *Env, command string) Result {
	t.Helper()
	return call(t, env, "bash", bashArgsJSON(command, nil))
}

func TestOwnSedThenEditNamesTheCommand(t *testing.T) {
	env := ownChangeEnv(t, map[string]string{"a.txt": "alpha\n"})
	res := mustOK(t, bashCall(t, env, "sed -i s/alpha/ALPHA/ a.txt"))
	mustContain(t, res.Output, "[exit code 0]\nnote: this command changed a.txt (which you had read); read_file it again before editing it")

	env.Turn = 3
	edit := call(t, env, "edit_file", editArgs("a.txt", "ALPHA", "omega", false))
	mustFail(t, edit, "a.txt changed since you read it (turn 1): your bash command at turn 2 (sed -i s/alpha/ALPHA/ a.txt) changed it; read_file it again, then retry")
	if strings.Contains(edit.Output, "someone or something else") {
		t.Errorf("the own change is blamed on someone else: %s", edit.Output)
	}
	if got := readFileT(t, filepath.Join(env.Root, "a.txt")); got != "ALPHA\n" {
		t.Errorf("a.txt = %q after the refused edit", got)
	}
	rec := mustRecord(t, env, "a.txt")
	if rec.Source != SourceAgentCommand || rec.Status != StatusChanged || rec.CommandTurn != 2 || rec.Turn != 1 {
		t.Errorf("record after the own change: %+v", rec)
	}
	// The model was told in the result: the recheck before its next call stays quiet.
	if changes := env.Files.Recheck(env.Root); len(changes) != 0 {
		t.Errorf("the own change is reported as external: %+v", changes)
	}
	// The file-truth rule stays: a fresh read, and the edit goes through.
	mustOK(t, call(t, env, "read_file", `{"path":"a.txt"}`))
	mustOK(t, call(t, env, "edit_file", editArgs("a.txt", "ALPHA", "omega", false)))
}

// gofmt -w, a code generator or git checkout replace the file: a new inode, maybe a new size.
// The hardest case keeps the size and the mtime, so only the inode tells.
func TestOwnRewriteByRenameIsNoticed(t *testing.T) {
	env := ownChangeEnv(t, map[string]string{"a.go": "package a\nvar x  = 1\n", "b.go": "package b\n"})
	res := mustOK(t, bashCall(t, env, `printf 'package a\nvar x = 1\n' > .a.go.tmp && mv .a.go.tmp a.go`))
	mustContain(t, res.Output, "note: this command changed a.go (which you had read)")

	res = mustOK(t, bashCall(t, env, `printf 'package c\n' > .b.tmp && touch -r b.go .b.tmp && mv .b.tmp b.go`))
	mustContain(t, res.Output, "note: this command changed b.go (which you had read)")
	mustFail(t, call(t, env, "write_file", `{"path":"b.go","content":"package d\n"}`),
		"b.go changed since you read it (turn 1): your bash command at turn 2 (printf 'package c\\n' > .b.tmp && touch -…) changed it")
}

func TestOwnCommandLeavesOtherFilesAlone(t *testing.T) {
	env := ownChangeEnv(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	before := mustRecord(t, env, "b.txt")
	res := mustOK(t, bashCall(t, env, "sed -i s/alpha/ALPHA/ a.txt && cat b.txt > /dev/null && touch new.txt"))
	if strings.Contains(res.Output, "b.txt") || strings.Contains(res.Output, "new.txt") {
		t.Errorf("the note names a file the command did not change: %s", res.Output)
	}
	if after := mustRecord(t, env, "b.txt"); after != before {
		t.Errorf("untouched b.txt's record changed:\n%+v\n%+v", before, after)
	}
	mustOK(t, call(t, env, "edit_file", editArgs("b.txt", "beta", "BETA", false)))

	// A command that changes nothing adds no note.
	if res := mustOK(t, bashCall(t, env, "ls")); strings.Contains(res.Output, "note:") {
		t.Errorf("note after ls: %s", res.Output)
	}
	// A touch, or a change undone, puts back the baseline quietly.
	res = mustOK(t, bashCall(t, env, "sed -i s/ALPHA/alpha/ a.txt && touch a.txt"))
	if strings.Contains(res.Output, "note:") {
		t.Errorf("note for a file back to what the model read: %s", res.Output)
	}
	if rec := mustRecord(t, env, "a.txt"); rec.Status != StatusFresh {
		t.Errorf("a.txt back to its baseline: %+v", rec)
	}
	mustOK(t, call(t, env, "edit_file", editArgs("a.txt", "alpha", "omega", false)))
}

// Between calls nothing watches: another process's change is still someone else's, also after
// an own change the model was told of.
func TestExternalChangeBetweenCallsIsStillSomeoneElse(t *testing.T) {
	env := ownChangeEnv(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	mustOK(t, bashCall(t, env, "sed -i s/beta/BETA/ b.txt"))
	if res := mustOK(t, bashCall(t, env, "true")); strings.Contains(res.Output, "note:") {
		t.Fatalf("note for a command that changed nothing: %s", res.Output)
	}
	writeFiles(t, env.Root, map[string]string{"a.txt": "ALPHA\n", "b.txt": "bEtA\n"})
	res := mustOK(t, bashCall(t, env, "true"))
	if strings.Contains(res.Output, "note:") {
		t.Errorf("a change made before the command is put down to it: %s", res.Output)
	}
	for _, name := range []string{"a.txt", "b.txt"} {
		mustFail(t, call(t, env, "write_file", `{"path":"`+name+`","content":"x\n"}`),
			name+" changed on disk since you read it (turn 1): someone or something else modified it")
	}
}

func TestOwnChangeNoteNamesAFewFiles(t *testing.T) {
	files := map[string]string{}
	for i := range 5 {
		files[fmt.Sprintf("f%d.txt", i)] = "x\n"
	}
	env := ownChangeEnv(t, files)
	res := mustOK(t, bashCall(t, env, "sed -i s/x/y/ f*.txt"))
	mustContain(t, res.Output, "note: this command changed f0.txt, f1.txt, f2.txt and 2 more (which you had read); read_file them again before editing them")
	for name := range files {
		if rec := mustRecord(t, env, name); rec.Source != SourceAgentCommand {
			t.Errorf("%s not marked: %+v", name, rec)
		}
	}
}

func TestOwnDeletionIsNamed(t *testing.T) {
	env := ownChangeEnv(t, map[string]string{"a.txt": "alpha\n"})
	res := bashCall(t, env, "rm a.txt; exit 3")
	mustContain(t, res.Output, "[exit code 3]\nnote: this command deleted a.txt (which you had read)")
	mustFail(t, call(t, env, "edit_file", editArgs("a.txt", "alpha", "omega", false)),
		"a.txt was deleted since you read it (turn 1): your bash command at turn 2 (rm a.txt; exit 3) deleted it; list_dir")
	if changes := env.Files.Recheck(env.Root); len(changes) != 0 {
		t.Errorf("the own deletion is reported as external: %+v", changes)
	}
}

// The time stat'ing 1,000 tracked files before and after a bash call adds to it (nothing
// changed, so nothing is hashed). Printed, not asserted.
func BenchmarkOwnChangeWatch1000(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	env := &Env{Root: root, TempDir: b.TempDir(), Files: NewFileTracker(nil)}
	for i := range 1000 {
		rel := fmt.Sprintf("pkg%02d/file%03d.go", i/50, i)
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		data := []byte(strings.Repeat("package pkg // some code\n", 200))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		fp, err := hashFile(p)
		if err != nil {
			b.Fatal(err)
		}
		env.Files.recordRead(rel, fp, string(data), readSpan{start: 1, end: 200, total: 200}, 1)
	}
	durations := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		w := env.watchOwnChanges()
		if note := env.noteOwnChanges(w, "go build ./..."); note != "" || w == nil || len(w.files) != 1000 {
			b.Fatalf("note %q", note)
		}
		durations = append(durations, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(durations, func(i, j int) bool { return durations[i] < durations[j] })
	b.ReportMetric(float64(durations[len(durations)/2].Nanoseconds())/1e3, "median-µs/bash-call")
}

// Past the bound, the most recently read files are the ones watched.
func TestOwnChangeWatchIsBounded(t *testing.T) {
	tracker := NewFileTracker(nil)
	for i := range 10 {
		tracker.put(&FileRecord{Path: fmt.Sprintf("f%d", i), Turn: i})
	}
	got := tracker.watchList(3)
	var turns []int
	for _, f := range got {
		turns = append(turns, f.turn)
	}
	sort.Ints(turns)
	if fmt.Sprint(turns) != "[7 8 9]" {
		t.Errorf("watched turns %v, want the 3 latest", turns)
	}
}

// A read_file that runs while the command does (calls in one batch run together) makes the
// baseline the command's change is judged against.
func TestReadDuringTheCommand(t *testing.T) {
	env := ownChangeEnv(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	w := env.watchOwnChanges()
	// b.txt: the command changes it, then the model reads the new content. (Each change also
	// changes the size: a same-size rewrite in the clock tick of the read may keep the mtime.)
	writeFiles(t, env.Root, map[string]string{"b.txt": "BETA!\n"})
	mustOK(t, call(t, env, "read_file", `{"path":"b.txt"}`))
	// a.txt: the model reads it, then the command changes it.
	mustOK(t, call(t, env, "read_file", `{"path":"a.txt"}`))
	writeFiles(t, env.Root, map[string]string{"a.txt": "ALPHA!\n"})

	if note := env.noteOwnChanges(w, "make gen"); note != "note: this command changed a.txt (which you had read); read_file it again before editing it" {
		t.Errorf("note = %q", note)
	}
	if rec := mustRecord(t, env, "b.txt"); rec.Status != StatusFresh || rec.Source != SourceRead {
		t.Errorf("b.txt, read after the change: %+v", rec)
	}
	mustOK(t, call(t, env, "edit_file", editArgs("b.txt", "BETA!", "b", false)))
	mustFail(t, call(t, env, "edit_file", editArgs("a.txt", "ALPHA!", "a", false)), "your bash command at turn 2 (make gen) changed it")
}
