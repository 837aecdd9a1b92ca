package store

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// openTemp opens a store in a fresh directory and closes it when the test ends.
func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dir
}

func reopen(t testing.TB, s *Store, dir string) *Store {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	s2, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	t.Cleanup(func() { s2.Close() })
	return s2
}

func TestOpenCreatesDirectory(t *testing.T) {
	dir := t.TempDir() + "/nested/db"
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("store directory not created: %v", err)
	}
	if err := s.Sync(); err != nil {
		t.Fatalf("Sync: %v", err)
	}
}

func TestOpenLockedStore(t *testing.T) {
	_, dir := openTemp(t)
	s2, err := Open(dir, nil)
	if err == nil {
		s2.Close()
		t.Fatal("second Open of the same directory succeeded")
	}
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("err = %v, want ErrLocked", err)
	}
	for _, want := range []string{dir, fmt.Sprintf("pid %d", os.Getpid()), "attach"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestMetaRoundTrip(t *testing.T) {
	s, dir := openTemp(t)
	m := &SessionMeta{ID: "s1", Parent: "s0", Agent: "explorer", Model: "openai/gpt-4o-mini", Task: "fix it",
		Mode: "ask", Workspace: "/repo", Status: "running", Turns: 3, InputTokens: 100, OutputTokens: 20,
		Allowlist: []string{"bash(go test*)", "write_file(docs/**)"}}
	if err := s.PutMeta(m); err != nil {
		t.Fatalf("PutMeta: %v", err)
	}
	if m.Created.IsZero() || m.Updated.IsZero() {
		t.Fatalf("PutMeta did not stamp times: %+v", m)
	}
	s = reopen(t, s, dir)
	got, err := s.Meta("s1")
	if err != nil {
		t.Fatalf("Meta: %v", err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Errorf("Meta = %+v\nwant   %+v", got, m)
	}
	if _, err := s.Meta("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Meta(unknown) err = %v, want ErrNotFound", err)
	}
}

func TestPutMetaKeepsCreated(t *testing.T) {
	s, _ := openTemp(t)
	m := &SessionMeta{ID: "s1", Status: "running"}
	if err := s.PutMeta(m); err != nil {
		t.Fatal(err)
	}
	created, updated := m.Created, m.Updated
	m.Status = "done"
	if err := s.PutMeta(m); err != nil {
		t.Fatal(err)
	}
	if !m.Created.Equal(created) || !m.Updated.After(updated) {
		t.Errorf("second PutMeta: created %v→%v, updated %v→%v", created, m.Created, updated, m.Updated)
	}
}

func TestBadSessionIDs(t *testing.T) {
	s, _ := openTemp(t)
	for _, id := range []string{"", "a/b", "a\x00"} {
		if err := s.PutMeta(&SessionMeta{ID: id}); err == nil {
			t.Errorf("PutMeta(%q) succeeded", id)
		}
		if err := s.Append(id, &Entry{Kind: KindUser}); err == nil {
			t.Errorf("Append(%q) succeeded", id)
		}
	}
}

func TestSessionsNewestFirst(t *testing.T) {
	s, _ := openTemp(t)
	put := func(id string) {
		t.Helper()
		if err := s.PutMeta(&SessionMeta{ID: id, Status: "running"}); err != nil {
			t.Fatalf("PutMeta(%s): %v", id, err)
		}
	}
	for _, id := range []string{"b", "a", "c"} {
		put(id)
	}
	// A session with a long log and records before and after "meta" in key order, and a log
	// with no meta at all, must neither hide a session nor invent one.
	for range 50 {
		if err := s.Append("a", &Entry{Kind: KindUser, Text: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutValue("a", "goal", "g"); err != nil {
		t.Fatal(err)
	}
	if err := s.PutValue("a", "zz", 1); err != nil {
		t.Fatal(err)
	}
	if err := s.Append("orphan", &Entry{Kind: KindUser}); err != nil {
		t.Fatal(err)
	}
	put("b") // touched last: newest

	metas, err := s.Sessions()
	if err != nil {
		t.Fatalf("Sessions: %v", err)
	}
	var ids []string
	for _, m := range metas {
		ids = append(ids, m.ID)
	}
	if got, want := strings.Join(ids, " "), "b c a"; got != want {
		t.Errorf("Sessions order = %q, want %q", got, want)
	}
}

func TestArtifacts(t *testing.T) {
	s, dir := openTemp(t)
	small := []byte("hello")
	big := bytes.Repeat([]byte("0123456789abcdef"), 8<<10) // 128 KiB: lives in the value log
	refs := map[string][]byte{}
	for _, data := range [][]byte{small, big, {}} {
		ref, err := s.PutArtifact(data)
		if err != nil {
			t.Fatalf("PutArtifact(%d bytes): %v", len(data), err)
		}
		again, err := s.PutArtifact(data)
		if err != nil || again != ref {
			t.Fatalf("PutArtifact again = %q, %v; want %q", again, err, ref)
		}
		refs[ref] = data
	}
	if ref := "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"; refs[ref] == nil {
		t.Errorf("ref of %q is not its sha256; got %v", small, refs)
	}
	s = reopen(t, s, dir)
	for ref, want := range refs {
		got, err := s.Artifact(ref)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Artifact(%s) = %d bytes, %v; want %d bytes", ref, len(got), err, len(want))
		}
	}
	missing := "sha256:" + strings.Repeat("0", 64)
	if _, err := s.Artifact(missing); !errors.Is(err, ErrNotFound) {
		t.Errorf("Artifact(missing) err = %v, want ErrNotFound", err)
	}
	for _, bad := range []string{"", "md5:abc", "sha256:xyz", "sha256:" + strings.Repeat("g", 64)} {
		if _, err := s.Artifact(bad); err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("Artifact(%q) err = %v, want a malformed-ref error", bad, err)
		}
	}
}

func TestConcurrentPutArtifact(t *testing.T) {
	s, _ := openTemp(t)
	data := []byte("same bytes from many writers")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			if _, err := s.PutArtifact(data); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("PutArtifact: %v", err)
	}
}

func TestValues(t *testing.T) {
	s, dir := openTemp(t)
	type goal struct {
		Text string
		Done bool
	}
	if err := s.PutValue("s1", "goal", goal{"ship it", false}); err != nil {
		t.Fatalf("PutValue: %v", err)
	}
	if err := s.PutValue("s1", "fs/main.go", map[string]int{"size": 42}); err != nil {
		t.Fatalf("PutValue: %v", err)
	}
	s = reopen(t, s, dir)
	var g goal
	if err := s.Value("s1", "goal", &g); err != nil || g.Text != "ship it" {
		t.Errorf("Value(goal) = %+v, %v", g, err)
	}
	var fs map[string]int
	if err := s.Value("s1", "fs/main.go", &fs); err != nil || fs["size"] != 42 {
		t.Errorf("Value(fs/main.go) = %v, %v", fs, err)
	}
	if err := s.Value("s1", "nope", &g); !errors.Is(err, ErrNotFound) {
		t.Errorf("Value(missing) err = %v, want ErrNotFound", err)
	}
	for _, name := range []string{"", "meta", "log/0000000000000001"} {
		if err := s.PutValue("s1", name, 1); err == nil {
			t.Errorf("PutValue(%q) succeeded on a reserved name", name)
		}
	}
}

func TestBadgerLogger(t *testing.T) {
	var buf bytes.Buffer
	l := badgerLogger{slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	l.Errorf("disk %s\n", "full")
	l.Warningf("slow %d", 3)
	l.Infof("compaction %d", 1)
	l.Debugf("replay %d", 2)
	out := buf.String()
	for _, want := range []string{"level=ERROR msg=\"disk full\"", "level=WARN msg=\"slow 3\"", "component=badger"} {
		if !strings.Contains(out, want) {
			t.Errorf("log %q lacks %q", out, want)
		}
	}
	for _, unwanted := range []string{"compaction", "replay"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("log %q contains dropped message %q", out, unwanted)
		}
	}
}
