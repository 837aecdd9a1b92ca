package store

import (
	"errors"
	"fmt"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// ErrDamaged is wrapped by Open when the store's files cannot be read as they were written.
var ErrDamaged = errors.New("store damaged")

// DamageError says the store at Dir could not be opened because its files are damaged. troupe
// refuses to start on it (and never writes over it); `troupe doctor --repair` backs it up and
// salvages what verifies.
type DamageError struct {
	Dir    string
	Reason string
}

func (e *DamageError) Error() string {
	return fmt.Sprintf("the store at %s is damaged (%s); run `troupe doctor --repair`", displayDir(e.Dir), e.Reason)
}

// Unwrap lets errors.Is(err, ErrDamaged) recognise it.
func (e *DamageError) Unwrap() error { return ErrDamaged }

// displayDir shortens dir to a path relative to the working directory when that is shorter.
func displayDir(dir string) string {
	wd, err := os.Getwd()
	if err != nil {
		return dir
	}
	if rel, err := filepath.Rel(wd, dir); err == nil && len(rel) < len(dir) && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return dir
}

// storeFiles is what a directory listing says about a Badger store.
type storeFiles struct {
	manifest bool
	tables   map[uint64]string // table id → file name
	data     int               // .sst, .vlog and .mem files
}

func listStoreFiles(dir string) (storeFiles, error) {
	f := storeFiles{tables: make(map[uint64]string)}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return f, fmt.Errorf("list store directory %s: %w", dir, err)
	}
	for _, e := range ents {
		name := e.Name()
		switch {
		case name == "MANIFEST":
			f.manifest = true
		case strings.HasSuffix(name, ".sst"):
			f.data++
			if id, err := strconv.ParseUint(strings.TrimSuffix(name, ".sst"), 10, 64); err == nil {
				f.tables[id] = name
			}
		case strings.HasSuffix(name, ".vlog"), strings.HasSuffix(name, ".mem"):
			f.data++
		}
	}
	return f, nil
}

// readManifest replays dir's MANIFEST the way Badger does and reports whether it ends in a
// torn (partial) change set.
func readManifest(dir string) (badger.Manifest, bool, error) {
	fp, err := os.Open(filepath.Join(dir, "MANIFEST"))
	if err != nil {
		return badger.Manifest{}, false, err
	}
	defer fp.Close()
	info, err := fp.Stat()
	if err != nil {
		return badger.Manifest{}, false, err
	}
	mf, end, err := badger.ReplayManifestFile(fp, 0, badger.DefaultOptions(dir))
	if err != nil {
		return badger.Manifest{}, false, err
	}
	return mf, end < info.Size(), nil
}

// checkBeforeOpen finds damage Badger would not report but "repair" silently: with the MANIFEST
// missing it starts an empty store over the old files, and table files the MANIFEST does not
// list it deletes. It also verifies every table it has not verified before (see verifyTables).
// A fresh directory passes. It returns how many level-0 tables the MANIFEST lists.
func checkBeforeOpen(dir string) (level0 int, err error) {
	files, err := listStoreFiles(dir)
	if err != nil {
		return 0, err
	}
	if !files.manifest {
		if files.data > 0 {
			return 0, &DamageError{Dir: dir, Reason: fmt.Sprintf("its MANIFEST is missing but %d data files are present", files.data)}
		}
		return 0, nil
	}
	mf, torn, err := readManifest(dir)
	if errors.Is(err, fs.ErrPermission) {
		return 0, fmt.Errorf("read store manifest: %w", err)
	}
	if err != nil {
		return 0, &DamageError{Dir: dir, Reason: "its MANIFEST cannot be read: " + err.Error()}
	}
	if torn {
		return 0, &DamageError{Dir: dir, Reason: "its MANIFEST is truncated"}
	}
	// Tables the MANIFEST does not list are normally left by a crash between writing a table
	// and recording it (their data is still in the write-ahead log or in the tables they were
	// compacted from), and Badger removes them. With concurrent compactions their ids need not
	// be the newest, so only a MANIFEST that lists no table at all is taken as damage here;
	// one truncated mid-record is caught as torn, and one that lost records naming removed
	// tables fails in Badger ("file does not exist").
	if len(mf.Tables) == 0 {
		for _, name := range files.tables {
			return 0, &DamageError{Dir: dir, Reason: fmt.Sprintf("its MANIFEST lists no tables but %s is present (truncated MANIFEST?)", name)}
		}
	}
	if err := checkWALs(dir); err != nil {
		return 0, err
	}
	for _, t := range mf.Tables {
		if t.Level == 0 {
			level0++
		}
	}
	return level0, verifyTables(dir, files, mf.Tables)
}

// openBadger opens the database, turning a panic inside Badger (a truncated table, say) into a
// DamageError: damaged files must not crash troupe.
func openBadger(opts badger.Options) (db *badger.DB, err error) {
	defer func() {
		if p := recover(); p != nil {
			db, err = nil, &DamageError{Dir: opts.Dir, Reason: fmt.Sprintf("reading it crashed the database: %v", p)}
		}
	}()
	return badger.Open(opts)
}

// classifyOpenError turns a failed Badger open into a lock error, a plain error (permissions,
// a full disk) or a DamageError.
func classifyOpenError(dir string, err error) error {
	var damaged *DamageError
	switch {
	case errors.As(err, &damaged):
		return err
	case isLockError(err):
		return fmt.Errorf("%w: the store at %s is in use by another troupe process (pid %s); attach to it instead, or stop it first",
			ErrLocked, dir, lockHolder(dir))
	case errors.Is(err, fs.ErrPermission), strings.Contains(err.Error(), "no space left"):
		return fmt.Errorf("open store %s: %w", dir, err)
	}
	return &DamageError{Dir: dir, Reason: textfmt.FirstLine(err.Error())}
}
