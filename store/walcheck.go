package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/dgraph-io/ristretto/v2/z"
)

// walHeaderSize is the fixed header at the start of Badger's write-ahead (.mem) files.
const walHeaderSize = 20

// checkWAL reads one of Badger's write-ahead (.mem) files the way Badger replays it. Badger
// stops at the first entry whose checksum fails and cuts the file there, treating it as a write
// torn by a crash; that is right only when nothing follows. A failing entry followed by more
// data is a damaged file, and replaying it would silently drop every write after the damage.
//
// The file is mapped, not read: Badger sizes it at twice the memtable (8 MiB) and the log
// usually fills a sliver of it; reading it whole would copy that many zeros into private memory
// at every start, where the mapping touches only the written pages (shared page cache).
func checkWAL(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", filepath.Base(path), err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read %s: %w", filepath.Base(path), err)
	}
	if fi.Size() == 0 {
		return nil // created, never written: Badger writes the header when it opens it
	}
	data, err := z.Mmap(f, false, fi.Size())
	if err != nil {
		return fmt.Errorf("map %s: %w", filepath.Base(path), err)
	}
	defer func() { _ = z.Munmap(data) }()
	return checkMappedWAL(data, filepath.Base(path))
}

// checkMappedWAL is checkWALData on a mapping. A store held by another process can have its
// file cut short under the mapping (Badger truncates a log it replays), and reading past the
// new end faults: that fault is recovered as "not checked here", since the open that follows
// fails on the other process's lock anyway.
func checkMappedWAL(data []byte, name string) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if re, ok := r.(runtime.Error); !ok || !strings.Contains(re.Error(), "fault") {
				panic(r)
			}
			err = nil
		}
	}()
	return checkWALData(data, name)
}

// checkWALData checks the write-ahead log in data (a whole .mem file) named name.
func checkWALData(data []byte, name string) error {
	off := walHeaderSize
	for off < len(data) {
		size, ok := walEntryAt(data, off)
		if size == 0 && ok {
			return nil // the zeroed tail: the end of the log
		}
		if ok {
			off += size
			continue
		}
		// A torn last write leaves zeros after it; anything else means damage.
		end := off + 2
		if size > 0 && off+size <= len(data) {
			end = off + size
		}
		if end < len(data) && bytes.ContainsFunc(data[end:], func(r rune) bool { return r != 0 }) {
			return fmt.Errorf("write-ahead log %s fails its checksum at offset %d with data after it", name, off)
		}
		return nil
	}
	return nil
}

// walEntryAt parses the entry at off: its total size and whether its checksum holds. A zero
// entry (the unwritten tail) is size 0, ok. size is 0 when the header cannot be parsed.
func walEntryAt(data []byte, off int) (size int, ok bool) {
	buf := data[off:]
	if len(buf) < 2 {
		return 0, false
	}
	i := 2
	var fields [3]uint64
	for f := range fields {
		v, n := binary.Uvarint(buf[i:])
		if n <= 0 {
			return 0, false
		}
		fields[f], i = v, i+n
	}
	klen, vlen := fields[0], fields[1]
	if buf[0] == 0 && buf[1] == 0 && klen == 0 && vlen == 0 && fields[2] == 0 {
		return 0, true
	}
	if klen > 1<<16 || vlen > uint64(len(buf)) {
		return 0, false
	}
	body := i + int(klen) + int(vlen)
	if body+crc32.Size > len(buf) {
		return 0, false
	}
	sum := binary.BigEndian.Uint32(buf[body:])
	return body + crc32.Size, crc32.Checksum(buf[:body], castagnoli) == sum
}

// checkWALs checks every write-ahead file of a store directory.
func checkWALs(dir string) error {
	mems, err := filepath.Glob(filepath.Join(dir, "*.mem"))
	if err != nil {
		return err
	}
	for _, mem := range mems {
		if err := checkWAL(mem); err != nil {
			return &DamageError{Dir: dir, Reason: err.Error()}
		}
	}
	return nil
}

// removeEmptyWALs deletes dir's zero-length write-ahead files. Badger deletes a flushed log by
// truncating it to zero and then removing it; an exit between the two (a one-shot run exits
// without closing, maybe while the flush of the log the previous run left is under way) leaves
// an empty file that Badger then refuses to open ("Create a new file"), which would read as
// damage. An empty log holds nothing: the entries it had are in a table already. The caller
// holds the store's lock (Start), so a log another process has just created is never touched.
func removeEmptyWALs(dir string) error {
	mems, err := filepath.Glob(filepath.Join(dir, "*.mem"))
	if err != nil {
		return err
	}
	for _, mem := range mems {
		if info, err := os.Stat(mem); err != nil || info.Size() != 0 {
			continue
		}
		if err := os.Remove(mem); err != nil {
			return fmt.Errorf("remove empty write-ahead log %s: %w", filepath.Base(mem), err)
		}
	}
	return nil
}
