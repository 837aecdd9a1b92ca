package store

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rememberedTableStore writes a session big enough for a table of many blocks (well past
// tableTailBytes), closes the store, and opens and closes it once more so the table is verified
// and remembered. It returns the directory and the table's path.
func rememberedTableStore(t *testing.T) (dir, table string) {
	t.Helper()
	dir = t.TempDir()
	s, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	for i := range 200 {
		e := &Entry{Kind: KindUser, Text: strconv.Itoa(i) + strings.Repeat(" words", 80)}
		if err := s.AppendWithMeta(&SessionMeta{ID: "s1", Status: "done"}, e); err != nil {
			t.Fatalf("Append: %v", err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if s, err = Open(dir, nil); err != nil {
		t.Fatalf("reopen: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	tables := storeFilesWithSuffix(t, dir, ".sst")
	if len(tables) != 1 {
		t.Fatalf("%d tables, want 1", len(tables))
	}
	table = tables[0]
	if info, err := os.Stat(table); err != nil || info.Size() < 8*tableTailBytes {
		t.Fatalf("table %s is too small to have blocks outside its tail: %v", table, err)
	}
	id, _ := strconv.ParseUint(strings.TrimSuffix(filepath.Base(table), ".sst"), 10, 64)
	fp, err := fingerprintTable(table)
	if err != nil {
		t.Fatal(err)
	}
	if got := loadVerifiedTables(dir)[id].fp; got != fp {
		t.Fatalf("memo has %+v for table %d, want its fingerprint %+v", got, id, fp)
	}
	return dir, table
}

// alterTable changes the table file in place with edit, then sets its modification time to
// mtime(original) (zero: the original's own).
func alterTable(t *testing.T, path string, edit func([]byte) []byte, mtime func(time.Time) time.Time) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, edit(data), 0o600); err != nil {
		t.Fatal(err)
	}
	when := mtime(info.ModTime())
	if err := os.Chtimes(path, when, when); err != nil {
		t.Fatal(err)
	}
}

func sameTime(t time.Time) time.Time  { return t }
func laterTime(t time.Time) time.Time { return t.Add(time.Second) }

func flipAt(frac func(n int) int) func([]byte) []byte {
	return func(b []byte) []byte { b[frac(len(b))] ^= 0x10; return b }
}

// TestOpenReverifiesAlteredRememberedTable: a remembered table whose fingerprint changed is
// verified whole again even with no scrub, and its damage refuses the open as it did before
// the memo.
func TestOpenReverifiesAlteredRememberedTable(t *testing.T) {
	cases := []struct {
		name  string
		edit  func([]byte) []byte
		mtime func(time.Time) time.Time
	}{
		{"a block rewritten", flipAt(func(n int) int { return n / 3 }), laterTime},
		{"the footer rotted, times kept", flipAt(func(n int) int { return n - 6 }), sameTime},
		{"the index rotted, times kept", flipAt(func(n int) int { return n - tableTailBytes/2 }), sameTime},
		{"truncated, times kept", func(b []byte) []byte { return b[:len(b)/2] }, sameTime},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, table := rememberedTableStore(t)
			memo := loadVerifiedTables(dir)
			alterTable(t, table, c.edit, c.mtime)
			id, _ := strconv.ParseUint(strings.TrimSuffix(filepath.Base(table), ".sst"), 10, 64)
			if _, err := verifyNewTables(map[uint64]string{id: table}, memo, 0, time.Now()); err == nil {
				t.Fatal("the altered table passed as remembered")
			}
			openMustBeDamaged(t, dir)
		})
	}
}

// TestVerifyNewTablesTrustsRememberedTablesBeyondTheScrub: a remembered table with its
// fingerprint intact is not read whole again (start-up is O(new tables)) unless the scrub picks
// it, oldest verification first, and the scrub finds damage the fingerprint missed.
func TestVerifyNewTablesTrustsRememberedTablesBeyondTheScrub(t *testing.T) {
	_, rotten := rememberedTableStore(t)
	_, healthy := rememberedTableStore(t)
	memo := verifiedTables{}
	for id, path := range map[uint64]string{1: rotten, 2: healthy} {
		fp, err := fingerprintTable(path)
		if err != nil {
			t.Fatal(err)
		}
		memo[id] = tableRecord{fp: fp}
	}
	alterTable(t, rotten, flipAt(func(n int) int { return n / 3 }), sameTime)
	tables := map[uint64]string{1: rotten, 2: healthy}
	now := time.Unix(1_800_000_000, 0)

	setVerified := func(rottenAt, healthyAt int64) {
		r, h := memo[1], memo[2]
		r.verified, h.verified = rottenAt, healthyAt
		memo[1], memo[2] = r, h
	}
	setVerified(200, 100) // the healthy one was verified longest ago: a one-table scrub takes it
	next, err := verifyNewTables(tables, memo, 0, now)
	if err != nil {
		t.Fatalf("no scrub: a remembered table was verified again: %v", err)
	}
	if next[1] != memo[1] || next[2] != memo[2] {
		t.Fatalf("no scrub changed the memo: %+v, was %+v", next, memo)
	}
	next, err = verifyNewTables(tables, memo, 1, now)
	if err != nil {
		t.Fatalf("a one-table scrub read the table verified more recently: %v", err)
	}
	if next[2].verified != now.Unix() || next[1].verified != 200 {
		t.Fatalf("scrub stamps = %d (scrubbed), %d (not); want %d, 200", next[2].verified, next[1].verified, now.Unix())
	}
	setVerified(50, 100)
	if _, err := verifyNewTables(tables, memo, 1, now); err == nil {
		t.Fatal("the scrub of the table verified longest ago missed its flipped block")
	}
}

// TestOpenScrubsASmallStoreWhole: a store smaller than the scrub is verified whole at every open,
// as before the memo, so a block that rotted in a remembered table is refused at once.
func TestOpenScrubsASmallStoreWhole(t *testing.T) {
	dir, table := rememberedTableStore(t)
	alterTable(t, table, flipAt(func(n int) int { return n / 3 }), sameTime)
	openMustBeDamaged(t, dir)
}

func TestVerifiedTablesMemoIsNotTrustedWhenEdited(t *testing.T) {
	memo := verifiedTables{
		3: {fp: tableFingerprint{size: 1234, modTime: 1_700_000_000_123456789, tail: 0xdeadbeef}, verified: 1_700_000_001},
		7: {fp: tableFingerprint{size: 99, modTime: 5, tail: 1}, verified: 2},
	}
	data := memo.encode()
	back, err := parseVerifiedTables(data)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if len(back) != 2 || back[3] != memo[3] || back[7] != memo[7] {
		t.Fatalf("round trip = %+v, want %+v", back, memo)
	}
	edited := []byte(strings.Replace(string(data), "1234", "1235", 1))
	torn := data[:len(data)-4]
	for name, bad := range map[string][]byte{"edited": edited, "torn": torn, "empty": nil, "other header": []byte("v0\n3 1 2 3 4\n")} {
		if got, err := parseVerifiedTables(bad); err == nil {
			t.Errorf("%s memo parsed as %+v; want it refused", name, got)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, verifiedTablesFile), edited, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := loadVerifiedTables(dir); len(got) != 0 {
		t.Fatalf("an edited memo loaded as %+v; want empty (verify everything)", got)
	}
}

// TestVerifyNewTablesSkipsAVanishedTable: a table the MANIFEST listed but a compaction of the
// process holding the store removed since is no damage; Badger's open reports the lock (or, with
// no holder, the missing file).
func TestVerifyNewTablesSkipsAVanishedTable(t *testing.T) {
	_, table := rememberedTableStore(t)
	gone := filepath.Join(t.TempDir(), "000009.sst")
	next, err := verifyNewTables(map[uint64]string{1: table, 9: gone}, verifiedTables{}, scrubBytesPerOpen, time.Now())
	if err != nil {
		t.Fatalf("a vanished table made verification fail: %v", err)
	}
	if _, ok := next[9]; ok || len(next) != 1 {
		t.Fatalf("memo = %+v; want only table 1", next)
	}
}

// A memo whose only change is that every table was verified again now is not worth a save (a
// store the scrub covers whole); any other change is.
func TestOnlyTimesMoved(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	fp := tableFingerprint{size: 10, modTime: 5, tail: 7}
	memo := verifiedTables{1: {fp: fp, verified: 10}, 2: {fp: fp, verified: 20}}
	for _, tc := range []struct {
		name string
		v    verifiedTables
		want bool
	}{
		{"all verified now", verifiedTables{1: {fp: fp, verified: now.Unix()}, 2: {fp: fp, verified: now.Unix()}}, true},
		{"one left as it was", verifiedTables{1: {fp: fp, verified: now.Unix()}, 2: {fp: fp, verified: 20}}, false},
		{"a table gone", verifiedTables{1: {fp: fp, verified: now.Unix()}}, false},
		{"a table new", verifiedTables{1: {fp: fp, verified: now.Unix()}, 3: {fp: fp, verified: now.Unix()}}, false},
		{"a fingerprint changed", verifiedTables{1: {fp: fp, verified: now.Unix()}, 2: {fp: tableFingerprint{size: 11}, verified: now.Unix()}}, false},
	} {
		if got := tc.v.onlyTimesMoved(memo, now); got != tc.want {
			t.Errorf("%s: onlyTimesMoved = %v, want %v", tc.name, got, tc.want)
		}
	}
}
