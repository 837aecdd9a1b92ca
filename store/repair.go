package store

import (
	"encoding/binary"
	"fmt"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"hash/crc32"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/pb"
	"google.golang.org/protobuf/proto"
)

// RepairReport says what Repair did.
type RepairReport struct {
	Backup    string   // where the damaged store was moved, untouched
	Kept      int      // keys that verified and were copied into the fresh store
	Lost      int      // keys whose value failed verification
	BadTables []string // table files left out because they fail verification
}

// Repair rebuilds a damaged store in dir. It moves dir to <dir>.broken-<time> (kept as the
// backup, never modified), salvages every key whose value verifies from the table files that
// verify, the write-ahead and the value logs, and writes them into a fresh store at dir. It
// refuses while another process holds the store.
func Repair(dir string, now time.Time, logger *slog.Logger) (*RepairReport, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	unlock, err := lockDir(dir, "stop it first")
	if err != nil {
		return nil, err
	}
	backup := dir + ".broken-" + now.UTC().Format("20060102-150405")
	err = os.Rename(dir, backup)
	unlock()
	if err != nil {
		return nil, fmt.Errorf("back up the store: %w", err)
	}
	rep := &RepairReport{Backup: backup}

	scratch := dir + ".salvage"
	if err := os.RemoveAll(scratch); err != nil {
		return rep, fmt.Errorf("clear %s: %w", scratch, err)
	}
	defer os.RemoveAll(scratch)
	if rep.BadTables, err = prepareSalvage(backup, scratch); err != nil {
		return rep, err
	}
	from, err := openBadger(smallOptions(scratch, logger))
	if err != nil {
		return rep, fmt.Errorf("read the backup: %w", err)
	}
	defer from.Close()
	to, err := Open(dir, logger)
	if err != nil {
		return rep, fmt.Errorf("create the fresh store: %w", err)
	}
	if err := salvage(from, to.db, rep); err != nil {
		to.Close()
		return rep, err
	}
	return rep, to.Close()
}

// lockDir takes the lock Badger takes (flock on the directory), so Repair never moves a store
// from under a running process, and Start holds the store from its checks to its close. The
// lock held by another process is ErrLocked, with what to do about it (advice).
func lockDir(dir, advice string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("open store directory: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: the store at %s is in use by another troupe process (pid %s); %s",
			ErrLocked, dir, lockHolder(dir), advice)
	}
	return func() { f.Close() }, nil
}

// prepareSalvage copies backup's files into scratch, leaving out the tables that fail
// verification, and writes a MANIFEST listing the tables that pass (all in level 0, where
// tables may overlap: each key's newest version still wins).
func prepareSalvage(backup, scratch string) (badTables []string, err error) {
	if err := os.MkdirAll(scratch, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", scratch, err)
	}
	files, err := listStoreFiles(backup)
	if err != nil {
		return nil, err
	}
	var good []uint64
	for id, name := range files.tables {
		if verr := verifyTable(filepath.Join(backup, name)); verr != nil {
			badTables = append(badTables, name)
			continue
		}
		good = append(good, id)
	}
	sort.Strings(badTables)
	sort.Slice(good, func(i, j int) bool { return good[i] < good[j] })
	ents, err := os.ReadDir(backup)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", backup, err)
	}
	bad := make(map[string]bool, len(badTables))
	for _, name := range badTables {
		bad[name] = true
	}
	for _, e := range ents {
		name := e.Name()
		if name == "MANIFEST" || name == "LOCK" || bad[name] || !e.Type().IsRegular() {
			continue
		}
		if err := copyFile(filepath.Join(backup, name), filepath.Join(scratch, name)); err != nil {
			return nil, err
		}
	}
	return badTables, writeManifest(filepath.Join(scratch, "MANIFEST"), good)
}

// writeManifest writes a Badger MANIFEST (magic, then one change set) creating tables ids.
func writeManifest(path string, ids []uint64) error {
	var set pb.ManifestChangeSet
	for _, id := range ids {
		set.Changes = append(set.Changes, &pb.ManifestChange{Id: id, Op: pb.ManifestChange_CREATE, Level: 0})
	}
	body, err := proto.Marshal(&set)
	if err != nil {
		return fmt.Errorf("encode manifest: %w", err)
	}
	const badgerMagicVersion = 8 // Badger v4's on-disk format
	buf := []byte{'B', 'd', 'g', 'r', 0, 0, 0, badgerMagicVersion}
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(body)))
	buf = binary.BigEndian.AppendUint32(buf, crc32.Checksum(body, castagnoli))
	buf = append(buf, body...)
	if err := os.WriteFile(path, buf, 0o600); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	return nil
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return fmt.Errorf("copy %s: %w", from, err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("copy to %s: %w", to, err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return fmt.Errorf("copy %s: %w", from, err)
	}
	return dst.Close()
}

// salvage copies every key of from whose value verifies into to. Log entries must also pass
// their own checksum.
func salvage(from, to *badger.DB, rep *RepairReport) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("salvage stopped: reading the backup crashed the database: %v", textfmt.FirstLine(fmt.Sprint(p)))
		}
	}()
	batch := to.NewWriteBatch()
	defer batch.Cancel()
	err = from.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.DefaultIteratorOptions)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			key := item.KeyCopy(nil)
			value, verr := item.ValueCopy(nil)
			if verr == nil && isLogKey(key) {
				verr = decodeEntry(value, new(Entry))
			}
			if verr != nil {
				rep.Lost++
				if !isLogKey(key) {
					continue
				}
				// A lost log entry leaves a placeholder saying so, keeping the log gap-free.
				seq, serr := seqOfLogKey(key)
				if serr != nil {
					continue
				}
				if value, verr = encodeEntry(damagedEntry(seq, verr)); verr != nil {
					continue
				}
			} else {
				rep.Kept++
			}
			if err := batch.Set(key, value); err != nil {
				return fmt.Errorf("write salvaged key: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := batch.Flush(); err != nil {
		return fmt.Errorf("write salvaged keys: %w", err)
	}
	return nil
}

// isLogKey reports whether key is a session log entry, "s/<session>/log/<seq>".
func isLogKey(key []byte) bool {
	k := string(key)
	if !strings.HasPrefix(k, sessionPrefix) {
		return false
	}
	rest := k[len(sessionPrefix):]
	i := strings.IndexByte(rest, '/')
	return i >= 0 && strings.HasPrefix(rest[i+1:], logName)
}
