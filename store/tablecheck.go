package store

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/troupe-dev/troupe/internal/textfmt"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/ristretto/v2/z"
)

// verifyTable reads the table file at path and checks every block against its checksum.
// Badger opens tables on goroutines of its own, where a truncated or mangled table panics out
// of reach of any recover; checking each table here first turns that into an error.
func verifyTable(path string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			// Badger's panic text spans many lines of debugging detail; one line is enough here.
			err = fmt.Errorf("table %s is truncated or mangled", filepath.Base(path))
		}
	}()
	mf, err := z.OpenMmapFile(path, os.O_RDONLY, 0)
	if err != nil && err != z.NewFile {
		return fmt.Errorf("open table %s: %s", filepath.Base(path), textfmt.FirstLine(err.Error()))
	}
	// Verification on open checks the whole table; the compression setting matches smallOptions.
	t, err := table.OpenTable(mf, table.Options{ChkMode: options.OnTableRead, Compression: options.None})
	if err != nil {
		return fmt.Errorf("table %s fails verification: %v", filepath.Base(path), textfmt.FirstLine(err.Error()))
	}
	// Close the mapping only: DecrRef would delete the file.
	_ = t.MmapFile.Close(-1)
	return nil
}

// verifyTables checks the table files the MANIFEST lists, returning the first failure: each
// table it has not verified before and a few it verified longest ago (see tablememo.go), then
// remembers them all. Tables it does not list are crash debris (possibly empty) that Badger
// removes unread.
func verifyTables(dir string, files storeFiles, listed map[uint64]badger.TableManifest) error {
	tables := make(map[uint64]string, len(listed))
	for id, name := range files.tables {
		if _, ok := listed[id]; ok {
			tables[id] = filepath.Join(dir, name)
		}
	}
	memo := loadVerifiedTables(dir)
	now := time.Now()
	verified, err := verifyNewTables(tables, memo, scrubBytesPerOpen, now)
	if errors.Is(err, fs.ErrPermission) {
		return err
	}
	if err != nil {
		return &DamageError{Dir: dir, Reason: err.Error()}
	}
	if maps.Equal(verified, memo) || verified.onlyTimesMoved(memo, now) {
		return nil
	}
	// Not saving only costs the next open a second verification of the new tables.
	_ = verified.save(dir)
	return nil
}
