package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// trackedEnv is an Env with file truth on, recording every persisted record.
func trackedEnv(t *testing.T) (*Env, *persisted) {
	t.Helper()
	env := newEnv(t)
	p := &persisted{byPath: map[string]FileRecord{}}
	env.Files = NewFileTracker(p.put)
	env.Turn = 3
	return env, p
}

type persisted struct {
	mu     sync.Mutex
	byPath map[string]FileRecord
}

func (p *persisted) put(r *FileRecord) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.byPath[r.Path] = *r
	return nil
}

func (p *persisted) get(path string) (FileRecord, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.byPath[path]
	return r, ok
}

func mustRecord(t *testing.T, env *Env, path string) FileRecord {
	t.Helper()
	rec, ok := env.Files.Record(path)
	if !ok {
		t.Fatalf("no file record for %s", path)
	}
	return rec
}

func mustOK(t *testing.T, res Result) Result {
	t.Helper()
	if res.IsError {
		t.Fatalf("unexpected error result: %s", res.Output)
	}
	return res
}

func mustFail(t *testing.T, res Result, wants ...string) {
	t.Helper()
	if !res.IsError {
		t.Fatalf("expected an error result, got: %s", res.Output)
	}
	mustContain(t, res.Output, wants...)
}

// replaceKeepingStat rewrites a file with same-size content and restores its mtime, the
// hardest external change to notice.
func replaceKeepingStat(t *testing.T, p, content string) {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(content) != int(info.Size()) {
		t.Fatalf("replacement must keep the size: %d vs %d", len(content), info.Size())
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
}

func TestWriteNeedsFreshBaseline(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, env *Env) // after writing f.txt = "one\ntwo\nthree\n"
		call  string                       // tool name; args below
		args  string
		wants []string
	}{
		{name: "edit never read", call: "edit_file", args: editArgs("f.txt", "two", "TWO", false),
			wants: []string{"you have not read it in this session", "read_file it first"}},
		{name: "overwrite never read", call: "write_file", args: `{"path":"f.txt","content":"x"}`,
			wants: []string{"you have not read it in this session", "read_file it first"}},
		{name: "overwrite after a partial read", call: "write_file", args: `{"path":"f.txt","content":"x"}`,
			setup: func(t *testing.T, env *Env) { mustOK(t, call(t, env, "read_file", `{"path":"f.txt","limit":1}`)) },
			wants: []string{"read only lines 1–1 of 3 of f.txt", "read_file it again first"}},
		{name: "edit outside a partial read", call: "edit_file", args: editArgs("f.txt", "three", "3", false),
			setup: func(t *testing.T, env *Env) { mustOK(t, call(t, env, "read_file", `{"path":"f.txt","limit":2}`)) },
			wants: []string{"old_string is at lines 3–3 of f.txt, outside the lines you read (1–2 of 3)", "read_file it again first"}},
		{name: "replaced between read and edit, same size and mtime", call: "edit_file", args: editArgs("f.txt", "two", "TWO", false),
			setup: func(t *testing.T, env *Env) {
				mustOK(t, call(t, env, "read_file", `{"path":"f.txt"}`))
				replaceKeepingStat(t, filepath.Join(env.Root, "f.txt"), "one\nTWO\nthree\n")
			},
			wants: []string{"f.txt changed on disk since you read it (turn 3)", "read_file it again first"}},
		{name: "deleted after the read", call: "edit_file", args: editArgs("f.txt", "two", "TWO", false),
			setup: func(t *testing.T, env *Env) {
				mustOK(t, call(t, env, "read_file", `{"path":"f.txt"}`))
				if err := os.Remove(filepath.Join(env.Root, "f.txt")); err != nil {
					t.Fatal(err)
				}
			},
			wants: []string{"f.txt was deleted since you read it (turn 3)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env, _ := trackedEnv(t)
			writeFiles(t, env.Root, map[string]string{"f.txt": "one\ntwo\nthree\n"})
			if tc.setup != nil {
				tc.setup(t, env)
			}
			before, _ := os.ReadFile(filepath.Join(env.Root, "f.txt"))
			res := call(t, env, tc.call, tc.args)
			mustFail(t, res, tc.wants...)
			if !res.Rejected {
				t.Errorf("the refusal is not marked Rejected")
			}
			after, _ := os.ReadFile(filepath.Join(env.Root, "f.txt"))
			if string(before) != string(after) {
				t.Errorf("the file changed: %q -> %q", before, after)
			}
		})
	}
}

func TestWriteWithFreshBaseline(t *testing.T) {
	env, saved := trackedEnv(t)
	writeFiles(t, env.Root, map[string]string{"f.txt": "one\ntwo\nthree\n", "g.txt": "a\nb\nc\n"})
	p := filepath.Join(env.Root, "f.txt")

	mustOK(t, call(t, env, "read_file", `{"path":"f.txt"}`))
	rec := mustRecord(t, env, "f.txt")
	if !rec.Whole || rec.Status != StatusFresh || rec.Source != SourceRead || rec.TotalLines != 3 || rec.Turn != 3 || rec.Baseline != "one\ntwo\nthree\n" {
		t.Fatalf("record after a whole read: %+v", rec)
	}
	env.Turn = 4
	mustOK(t, call(t, env, "edit_file", editArgs("f.txt", "two", "TWO", false)))
	rec = mustRecord(t, env, "f.txt")
	if rec.Source != SourceAgentWrite || rec.Status != StatusFresh || rec.Turn != 4 || rec.Baseline != "one\nTWO\nthree\n" || rec.Shown {
		t.Fatalf("record after the agent's edit: %+v", rec)
	}
	if got, _ := saved.get("f.txt"); got.SHA256 != rec.SHA256 {
		t.Errorf("the new baseline was not persisted: %+v", got)
	}
	// The agent's own write is the new baseline: a second edit needs no re-read.
	mustOK(t, call(t, env, "edit_file", editArgs("f.txt", "three", "THREE", false)))
	mustOK(t, call(t, env, "write_file", `{"path":"f.txt","content":"all new\n"}`))
	if got := readFileT(t, p); got != "all new\n" {
		t.Errorf("content = %q", got)
	}
	// A new file needs no baseline, and becomes one.
	mustOK(t, call(t, env, "write_file", `{"path":"new/n.txt","content":"n\n"}`))
	if rec := mustRecord(t, env, "new/n.txt"); rec.Source != SourceAgentWrite || !rec.Whole {
		t.Errorf("record of a created file: %+v", rec)
	}
	// An edit inside a partial read is allowed.
	mustOK(t, call(t, env, "read_file", `{"path":"g.txt","offset":2,"limit":1}`))
	mustOK(t, call(t, env, "edit_file", editArgs("g.txt", "b", "B", false)))
	// A deleted file may be created anew with write_file.
	mustOK(t, call(t, env, "read_file", `{"path":"g.txt"}`))
	if err := os.Remove(filepath.Join(env.Root, "g.txt")); err != nil {
		t.Fatal(err)
	}
	mustOK(t, call(t, env, "write_file", `{"path":"g.txt","content":"again\n"}`))
}

func TestPartialReadsMerge(t *testing.T) {
	env, _ := trackedEnv(t)
	writeFiles(t, env.Root, map[string]string{"big.txt": numbered(1, 3000)})
	mustOK(t, call(t, env, "read_file", `{"path":"big.txt"}`))
	if rec := mustRecord(t, env, "big.txt"); rec.Whole || rec.Status != StatusPartial || rec.RangeStart != 1 || rec.RangeEnd != 2000 {
		t.Fatalf("after the first part: %+v", rec)
	}
	mustOK(t, call(t, env, "read_file", `{"path":"big.txt","offset":2001}`))
	if rec := mustRecord(t, env, "big.txt"); !rec.Whole || rec.Status != StatusFresh || rec.RangeStart != 1 || rec.RangeEnd != 3000 {
		t.Fatalf("after both parts: %+v", rec)
	}
	mustOK(t, call(t, env, "write_file", `{"path":"big.txt","content":"short\n"}`))
}

func TestRepeatedReadOfUnchangedFile(t *testing.T) {
	env, _ := trackedEnv(t)
	writeFiles(t, env.Root, map[string]string{"f.txt": "alpha\nbeta\n", "big.txt": numbered(1, 100)})
	first := mustOK(t, call(t, env, "read_file", `{"path":"f.txt"}`))
	mustContain(t, first.Output, "alpha")
	env.Turn = 5
	for _, args := range []string{`{"path":"f.txt"}`, `{"path":"f.txt","offset":2}`} {
		again := mustOK(t, call(t, env, "read_file", args))
		if again.Output != "f.txt unchanged since turn 3 (2 lines); the content you read then is current" {
			t.Errorf("repeated read %s = %q", args, again.Output)
		}
	}
	// Partial: a covered range gets the note, an uncovered one the text.
	mustOK(t, call(t, env, "read_file", `{"path":"big.txt","offset":10,"limit":20}`))
	mustContain(t, mustOK(t, call(t, env, "read_file", `{"path":"big.txt","offset":12,"limit":5}`)).Output, "unchanged since turn 5 (lines 10–29 of 100)")
	mustContain(t, mustOK(t, call(t, env, "read_file", `{"path":"big.txt","offset":40,"limit":2}`)).Output, "line 40")
	// A change on disk, or a compaction that dropped the read, brings the text back.
	writeFiles(t, env.Root, map[string]string{"f.txt": "alpha\ngamma\n"})
	mustContain(t, mustOK(t, call(t, env, "read_file", `{"path":"f.txt"}`)).Output, "gamma")
	env.Files.ForgetShown()
	mustContain(t, mustOK(t, call(t, env, "read_file", `{"path":"f.txt"}`)).Output, "gamma")
	// After the agent's own write the text is returned, since the model never read it whole.
	mustOK(t, call(t, env, "edit_file", editArgs("f.txt", "gamma", "delta", false)))
	mustContain(t, mustOK(t, call(t, env, "read_file", `{"path":"f.txt"}`)).Output, "delta")
}

func TestRecheck(t *testing.T) {
	env, saved := trackedEnv(t)
	writeFiles(t, env.Root, map[string]string{"a.txt": "one\ntwo\n", "b.txt": "keep\n", "c.txt": "gone\n"})
	for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
		mustOK(t, call(t, env, "read_file", `{"path":"`+f+`"}`))
	}
	if changes := env.Files.Recheck(env.Root); len(changes) != 0 {
		t.Fatalf("nothing changed, got %+v", changes)
	}
	// A touch refreshes quietly.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(env.Root, "b.txt"), later, later); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, env.Root, map[string]string{"a.txt": "one\nTWO\n"})
	if err := os.Remove(filepath.Join(env.Root, "c.txt")); err != nil {
		t.Fatal(err)
	}
	changes := env.Files.Recheck(env.Root)
	if len(changes) != 2 || changes[0].Path != "a.txt" || changes[0].Kind != "changed" || changes[1].Path != "c.txt" || changes[1].Kind != "deleted" {
		t.Fatalf("changes = %+v", changes)
	}
	mustContain(t, changes[0].Diff, "--- a/a.txt", "+++ b/a.txt", "-two", "+TWO")
	mustContain(t, changes[0].Note(), "a.txt was changed outside this session", "read_file it again")
	mustContain(t, changes[1].Note(), "c.txt was deleted")
	if rec := mustRecord(t, env, "b.txt"); rec.Status != StatusFresh || !rec.ModTime.Equal(later) {
		t.Errorf("touched record: %+v", rec)
	}
	if rec := mustRecord(t, env, "a.txt"); rec.Status != StatusChanged || rec.Source != SourceExternal {
		t.Errorf("changed record: %+v", rec)
	}
	if rec, _ := saved.get("c.txt"); rec.Status != StatusStale {
		t.Errorf("persisted deleted record: %+v", rec)
	}
	if again := env.Files.Recheck(env.Root); len(again) != 0 {
		t.Errorf("changes reported twice: %+v", again)
	}
	// The changed file cannot be edited until it is read again.
	mustFail(t, call(t, env, "edit_file", editArgs("a.txt", "one", "1", false)), "changed on disk", "read_file it again first")
	mustOK(t, call(t, env, "read_file", `{"path":"a.txt"}`))
	mustOK(t, call(t, env, "edit_file", editArgs("a.txt", "one", "1", false)))
}

func TestRecheckBoundsTheDiff(t *testing.T) {
	env, _ := trackedEnv(t)
	writeFiles(t, env.Root, map[string]string{"f.txt": numbered(1, 1000)})
	mustOK(t, call(t, env, "read_file", `{"path":"f.txt"}`))
	writeFiles(t, env.Root, map[string]string{"f.txt": strings.ReplaceAll(numbered(1, 1000), "line", "LINE")})
	changes := env.Files.Recheck(env.Root)
	if len(changes) != 1 || len(changes[0].Diff) > fileChangeDiffMax {
		t.Fatalf("changes = %d, diff %d bytes", len(changes), len(changes[0].Diff))
	}
	mustContain(t, changes[0].Diff, "lines dropped")
}

func TestFileRecordsRestore(t *testing.T) {
	env, saved := trackedEnv(t)
	writeFiles(t, env.Root, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	mustOK(t, call(t, env, "read_file", `{"path":"b.txt"}`))
	mustOK(t, call(t, env, "read_file", `{"path":"a.txt"}`))
	// What was persisted survives JSON and restores into a new tracker (a resumed session).
	var recs []*FileRecord
	for _, p := range []string{"a.txt", "b.txt"} {
		r, _ := saved.get(p)
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back FileRecord
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, &back)
	}
	resumed := NewFileTracker(nil)
	resumed.Restore(recs)
	got := resumed.Records()
	if len(got) != 2 || got[0].Path != "a.txt" || got[1].Path != "b.txt" || !got[0].Whole {
		t.Fatalf("restored records: %+v", got)
	}
	env.Files = resumed
	mustOK(t, call(t, env, "edit_file", editArgs("a.txt", "a", "A", false)))
	if len(resumed.Recheck(env.Root)) != 0 {
		t.Error("a restored, unchanged record was reported as changed")
	}
}

func TestStateRequirementRunsBeforeChecks(t *testing.T) {
	env, _ := trackedEnv(t)
	writeFiles(t, env.Root, map[string]string{"f.txt": "x\n"})
	reg := builtinRegistry(t)
	var checked []string
	reg.AddCheck(func(_ context.Context, _ *Env, spec Spec, _ json.RawMessage) *Result {
		checked = append(checked, spec.Name)
		return nil
	})
	res := reg.Execute(context.Background(), env, Call{ID: "1", Name: "edit_file", Args: editArgs("f.txt", "x", "y", false)})
	mustFail(t, res, "read_file it first")
	if len(checked) != 0 {
		t.Errorf("checks ran for a call that failed its state requirement: %v", checked)
	}
}

func TestReadBadInputs(t *testing.T) {
	env, _ := trackedEnv(t)
	writeFiles(t, env.Root, map[string]string{"bin.dat": "\x7fELF\x00\x00\x01binary"})
	res := mustOK(t, call(t, env, "read_file", `{"path":"bin.dat"}`))
	mustContain(t, res.Output, "binary file, 13 bytes")
	if _, ok := env.Files.Record("bin.dat"); ok {
		t.Error("a binary file got a text baseline")
	}

	// 50 MB: bounded output, hashed whole, no baseline kept.
	line := strings.Repeat("x", 99) + "\n"
	f, err := os.Create(filepath.Join(env.Root, "huge.txt"))
	if err != nil {
		t.Fatal(err)
	}
	block := strings.Repeat(line, 10000) // 1 MB
	for range 50 {
		if _, err := f.WriteString(block); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	res = mustOK(t, call(t, env, "read_file", `{"path":"huge.txt"}`))
	if budget := (readFile{}).Spec().MaxResultBytes; len(res.Output) > budget {
		t.Errorf("output of a 50 MB read is %d bytes", len(res.Output))
	}
	mustContain(t, res.Output, "of 500000; call again with offset=")
	rec := mustRecord(t, env, "huge.txt")
	if rec.Whole || rec.Baseline != "" || rec.TotalLines != 500000 || rec.Size != 50_000_000 {
		t.Errorf("record of a 50 MB read: whole %v, baseline %d bytes, %d lines, %d bytes", rec.Whole, len(rec.Baseline), rec.TotalLines, rec.Size)
	}
	fp, err := hashFile(filepath.Join(env.Root, "huge.txt"))
	if err != nil || fp.sha != rec.SHA256 {
		t.Errorf("the record's hash is not the whole file's: %v", err)
	}
}

func TestFileTrackerConcurrentUse(t *testing.T) {
	env, _ := trackedEnv(t)
	files := map[string]string{}
	for i := range 8 {
		files[filepath.Join("d", string(rune('a'+i))+".txt")] = numbered(1, 50)
	}
	writeFiles(t, env.Root, files)
	var wg sync.WaitGroup
	for name := range files {
		wg.Add(2)
		go func() {
			defer wg.Done()
			call(t, env, "read_file", `{"path":"`+name+`"}`)
		}()
		go func() {
			defer wg.Done()
			env.Files.Recheck(env.Root)
		}()
	}
	wg.Wait()
	var got []string
	for _, r := range env.Files.Records() {
		got = append(got, r.Path)
	}
	if !sort.StringsAreSorted(got) || len(got) != len(files) {
		t.Errorf("records = %v", got)
	}
}

func BenchmarkRecheck100(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	tracker := NewFileTracker(nil)
	env := &Env{Root: root, TempDir: b.TempDir(), Files: tracker}
	reg, err := NewRegistry(Builtins()...)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 100 {
		name := filepath.Join("pkg", strings.Repeat("f", 1+i%5)+string(rune('0'+i/10))+string(rune('0'+i%10))+".go")
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("package pkg // some code\n", 200)), 0o644); err != nil {
			b.Fatal(err)
		}
		if res := reg.Execute(context.Background(), env, Call{Name: "read_file", Args: `{"path":"` + name + `"}`}); res.IsError {
			b.Fatal(res.Output)
		}
	}
	if n := len(tracker.Records()); n != 100 {
		b.Fatalf("%d records", n)
	}
	durations := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if changes := tracker.Recheck(root); len(changes) != 0 {
			b.Fatalf("changes: %+v", changes)
		}
		durations = append(durations, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(durations, func(i, j int) bool { return durations[i] < durations[j] })
	b.ReportMetric(float64(durations[len(durations)/2].Nanoseconds())/1e3, "median-µs/recheck")
}
