package store

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A table file never changes once Badger has written it: compactions write new tables and delete
// old ones. So a table verified whole once need not be read whole again at every open, as long
// as it is still the file that was verified. The store remembers, in verifiedTablesFile next to
// the tables, each verified table's fingerprint and when it was last verified whole, and
// checkBeforeOpen verifies the tables it does not remember or whose fingerprint changed, plus a
// bounded scrub of the ones verified longest ago (scrubBytesPerOpen): start-up costs O(new
// tables), not O(store). A bit that rots inside a block without touching the fingerprint is
// found by that scrub within (store size / scrubBytesPerOpen) opens, and refused from then on;
// meanwhile Badger checks every block it reads, and a block that fails ends the read there
// (Badger's iterators stop at it without an error), so damage shows as missing entries (which
// logcheck.go reports in their place), never as different text. A store of up to scrubBytesPerOpen is verified whole at every open, as
// before.

// scrubBytesPerOpen is how many bytes of already-verified tables each open verifies again
// (at least one table), oldest verification first: about 1 ms per MiB.
const scrubBytesPerOpen = 4 << 20

// verifiedTablesFile is the memo's file name; Badger ignores files without its suffixes.
const verifiedTablesFile = "troupe-verified-tables"

// verifiedTablesHeader starts the memo, followed by a space and the CRC-32C (hex) of the rest of
// the file, so a torn or edited memo is not trusted.
const verifiedTablesHeader = "troupe verified tables v1"

// tableTailBytes is how much of a table's end its fingerprint hashes. The end holds Badger's
// footer (index length, checksum, checksum length), and a changed footer makes Badger read out
// of range and panic on a goroutine of its own: a table whose end changed is verified again
// even when its size and modification time did not.
const tableTailBytes = 4 << 10

// tableFingerprint is what identifies a verified table file cheaply: one stat and one read.
type tableFingerprint struct {
	size    int64
	modTime int64  // Unix nanoseconds
	tail    uint32 // CRC-32C of the last tableTailBytes
}

// fingerprintTable reads path's fingerprint.
func fingerprintTable(path string) (tableFingerprint, error) {
	f, err := os.Open(path)
	if err != nil {
		return tableFingerprint{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return tableFingerprint{}, err
	}
	fp := tableFingerprint{size: info.Size(), modTime: info.ModTime().UnixNano()}
	n := min(fp.size, tableTailBytes)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, fp.size-n); err != nil && !errors.Is(err, io.EOF) {
		return tableFingerprint{}, err
	}
	fp.tail = crc32.Checksum(buf, castagnoli)
	return fp, nil
}

// tableRecord is what the memo says about one table.
type tableRecord struct {
	fp       tableFingerprint
	verified int64 // Unix seconds of the last verification of the whole table
}

// verifiedTables maps a table id to its record.
type verifiedTables map[uint64]tableRecord

// loadVerifiedTables reads dir's memo. A missing, torn or unreadable memo is an empty one: every
// table is verified again, which is slow but never wrong.
func loadVerifiedTables(dir string) verifiedTables {
	data, err := os.ReadFile(filepath.Join(dir, verifiedTablesFile))
	if err != nil {
		return verifiedTables{}
	}
	memo, err := parseVerifiedTables(data)
	if err != nil {
		return verifiedTables{}
	}
	return memo
}

func parseVerifiedTables(data []byte) (verifiedTables, error) {
	header, body, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return nil, errors.New("no header line")
	}
	sum, ok := strings.CutPrefix(string(header), verifiedTablesHeader+" ")
	if !ok {
		return nil, fmt.Errorf("unknown header %q", header)
	}
	if want, err := strconv.ParseUint(sum, 16, 32); err != nil || uint32(want) != crc32.Checksum(body, castagnoli) {
		return nil, errors.New("checksum mismatch")
	}
	memo := verifiedTables{}
	lines := bufio.NewScanner(bytes.NewReader(body))
	for lines.Scan() {
		var id uint64
		var r tableRecord
		if _, err := fmt.Sscanf(lines.Text(), "%d %d %d %x %d", &id, &r.fp.size, &r.fp.modTime, &r.fp.tail, &r.verified); err != nil {
			return nil, fmt.Errorf("line %q: %w", lines.Text(), err)
		}
		memo[id] = r
	}
	return memo, lines.Err()
}

func (v verifiedTables) encode() []byte {
	var body bytes.Buffer
	for _, id := range slices.Sorted(maps.Keys(v)) {
		r := v[id]
		fmt.Fprintf(&body, "%d %d %d %08x %d\n", id, r.fp.size, r.fp.modTime, r.fp.tail, r.verified)
	}
	return fmt.Appendf(nil, "%s %08x\n%s", verifiedTablesHeader, crc32.Checksum(body.Bytes(), castagnoli), body.Bytes())
}

// save replaces dir's memo with v. It is written to a temporary file and renamed, and not
// synced: a memo lost to a power cut only means the next open verifies every table again.
func (v verifiedTables) save(dir string) error {
	tmp, err := os.CreateTemp(dir, verifiedTablesFile+".tmp-*")
	if err != nil {
		return fmt.Errorf("save verified tables: %w", err)
	}
	_, werr := tmp.Write(v.encode())
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save verified tables: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, verifiedTablesFile)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save verified tables: %w", err)
	}
	return nil
}

// verifyNewTables verifies whole every table in tables (id → path) that memo does not remember
// with its current fingerprint, then scrubs: verifies again the remembered ones verified longest
// ago, until scrubBytes are read. It returns the memo of all of them (tables no longer listed
// dropped) or the first failure. A table that vanished meanwhile (compacted away by the process
// holding the store) is skipped: the open that follows fails on that process's lock, or, if
// none holds it, on the missing file.
func verifyNewTables(tables map[uint64]string, memo verifiedTables, scrubBytes int64, now time.Time) (verifiedTables, error) {
	next := make(verifiedTables, len(tables))
	var remembered []uint64
	for id, path := range tables {
		fp, err := fingerprintTable(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("open table %s: %w", filepath.Base(path), err)
		}
		if old, ok := memo[id]; ok && old.fp == fp {
			next[id] = old
			remembered = append(remembered, id)
			continue
		}
		if err := verifyTable(path); err != nil {
			if vanished(path) {
				continue
			}
			return nil, err
		}
		next[id] = tableRecord{fp: fp, verified: now.Unix()}
	}
	slices.SortFunc(remembered, func(a, b uint64) int {
		return cmp.Or(cmp.Compare(next[a].verified, next[b].verified), cmp.Compare(a, b))
	})
	var scrubbed int64
	for _, id := range remembered {
		if scrubbed >= scrubBytes {
			break
		}
		if err := verifyTable(tables[id]); err != nil {
			if vanished(tables[id]) {
				delete(next, id)
				continue
			}
			return nil, err
		}
		r := next[id]
		r.verified = now.Unix()
		next[id] = r
		scrubbed += r.fp.size
	}
	return next, nil
}

// onlyTimesMoved reports whether v holds the tables memo holds, with the same fingerprints, and
// differs from it only in having verified every one of them again at now (a store the scrub
// covers whole at each open). Saving v then tells the next open nothing it can use: it verifies
// them all again whichever times it reads, and a time left older than the truth only moves a
// table forward in the scrub's order. Not saving spares each open a file's creation.
func (v verifiedTables) onlyTimesMoved(memo verifiedTables, now time.Time) bool {
	if len(v) != len(memo) {
		return false
	}
	for id, r := range v {
		old, ok := memo[id]
		if !ok || old.fp != r.fp || r.verified != now.Unix() {
			return false
		}
	}
	return true
}

// vanished reports whether the table at path is gone: removed by a compaction of the process
// holding the store while it was being read, which is no damage.
func vanished(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}
