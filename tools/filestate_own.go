package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/internal/textfmt"
)

// The model's own shell command changing a file it read (sed -i, gofmt -w, a code generator,
// git checkout) is not "someone or something else". Around each foreground bash call the files
// the model has read are stat'ed before and after (size, mtime, inode; no hashing); one whose
// stat moved is hashed, and when its content left the model's baseline the record says which
// command changed it. The bash result says so, an edit refused for it says so, and the recheck
// before the next model call keeps quiet: the record already holds the new fingerprint, and the
// model was told. The file-truth rule itself stays: the model has not seen the new content, so
// an edit still needs a fresh read.
//
// Another process writing a tracked file while the command runs cannot be told apart from the
// command by stat: such a change is treated as the command's. The model is told of it either
// way and must read the file again before an edit; only the word "external" is lost.
//
// Stat has its own blind spot, as the recheck's does: a rewrite in place that keeps the size,
// within the same clock tick as the file's previous change, keeps the mtime too. The next edit
// then still hashes the file and refuses, only naming no command.
//
// Background commands are not watched: they return at once, and what the job writes later falls
// in no window of this call. The recheck reports those writes as changes outside the session.
// Nor is the user's check command (RunCommand): it is not the model's, and the recheck reports
// what it changes.

const (
	// ownChangeWatchMax bounds the files stat'ed around one command: past it, the most
	// recently read ones are watched and the rest are left to the recheck, as before.
	ownChangeWatchMax = 4096
	// ownChangeListMax is how many changed files the bash result names before "and N more".
	ownChangeListMax = 3
	// ownCommandMax bounds the command as a refusal quotes it.
	ownCommandMax = 40
)

// ownChangeWatch is the tracked files' stat before one bash command.
type ownChangeWatch struct {
	root  string // the workspace root, symlinks evaluated
	turn  int
	files []watchedFile
}

// watchedFile is one tracked file as it stood before the command.
type watchedFile struct {
	rel  string
	turn int         // when its record was made
	info fs.FileInfo // nil when the file could not be stat'ed
}

// ownCommand is the bash call a change is put down to.
type ownCommand struct {
	turn    int
	command string // short: whitespace collapsed, at most ownCommandMax bytes
}

// watchOwnChanges stats the tracked files before a command runs; nil when none are tracked.
func (e *Env) watchOwnChanges() *ownChangeWatch {
	if e.Files == nil {
		return nil
	}
	files := e.Files.watchList(ownChangeWatchMax)
	if len(files) == 0 {
		return nil
	}
	root, err := e.root()
	if err != nil {
		return nil
	}
	for i := range files {
		files[i].info, _ = statTracked(root, files[i].rel)
	}
	return &ownChangeWatch{root: root, turn: e.Turn, files: files}
}

// statTracked stats a tracked file by its joined path: one syscall, where a stat beneath the
// workspace handle takes three. Only metadata is read here, and it only decides whether the
// file is hashed, which goes through the handle.
func statTracked(root, rel string) (fs.FileInfo, error) {
	return os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
}

// noteOwnChanges finds the watched files the command changed or deleted, marks their records
// as changed by it, and returns the note for the bash result ("" when there is none). Only a
// file whose stat moved is hashed.
func (e *Env) noteOwnChanges(w *ownChangeWatch, command string) string {
	if w == nil {
		return ""
	}
	var moved []watchedFile
	var deleted []string
	by := ownCommand{turn: w.turn, command: textfmt.Clip(strings.Join(strings.Fields(command), " "), ownCommandMax)}
	for _, f := range w.files {
		now, err := statTracked(w.root, f.rel)
		switch {
		case err == nil && sameStat(f.info, now):
		case errors.Is(err, fs.ErrNotExist):
			if f.info != nil && e.Files.markOwnDeleted(f.rel, by) {
				deleted = append(deleted, f.rel)
			}
		case err == nil && now.Mode().IsRegular():
			moved = append(moved, f)
		} // else unreadable, or no longer a file: judged at the next edit
	}
	return ownChangeNote(e.markMoved(moved, by), deleted)
}

// markMoved hashes the files whose stat moved, through the workspace handle (a path swapped for
// a symlink out of the workspace is not followed), and marks those whose content the command
// changed. It returns their paths.
func (e *Env) markMoved(moved []watchedFile, by ownCommand) []string {
	if len(moved) == 0 {
		return nil
	}
	ws, err := e.openRoot()
	if err != nil {
		return nil
	}
	defer ws.Close()
	var changed []string
	for _, f := range moved {
		file, err := ws.OpenFile(f.rel)
		if err != nil {
			continue
		}
		fp, err := hashOpenFile(file)
		file.Close()
		if err == nil && e.Files.markOwnChange(f.rel, fp, by) {
			changed = append(changed, f.rel)
		}
	}
	return changed
}

// sameStat says whether two stats of a file show no change: the same size, mtime and inode.
func sameStat(before, after fs.FileInfo) bool {
	return before != nil && after != nil && before.Size() == after.Size() &&
		before.ModTime().Equal(after.ModTime()) && os.SameFile(before, after)
}

// ownChangeNote is the lines the bash result gets for the files the command changed or deleted.
func ownChangeNote(changed, deleted []string) string {
	var lines []string
	if len(changed) > 0 {
		it := "it"
		if len(changed) > 1 {
			it = "them"
		}
		lines = append(lines, fmt.Sprintf("note: this command changed %s (which you had read); read_file %s again before editing %s",
			pathList(changed), it, it))
	}
	if len(deleted) > 0 {
		lines = append(lines, fmt.Sprintf("note: this command deleted %s (which you had read)", pathList(deleted)))
	}
	return strings.Join(lines, "\n")
}

// pathList names up to ownChangeListMax paths, sorted, then how many more there are.
func pathList(paths []string) string {
	slices.Sort(paths)
	shown, more := paths, 0
	if len(paths) > ownChangeListMax {
		shown, more = paths[:ownChangeListMax], len(paths)-ownChangeListMax
	}
	switch {
	case more > 0:
		return fmt.Sprintf("%s and %d more", strings.Join(shown, ", "), more)
	case len(shown) == 1:
		return shown[0]
	}
	return strings.Join(shown[:len(shown)-1], ", ") + " and " + shown[len(shown)-1]
}

// watchList returns the tracked files to watch around a command, at most max of them: the
// most recently read or written first when there are more.
func (t *FileTracker) watchList(max int) []watchedFile {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]watchedFile, 0, min(len(t.recs), max))
	for _, r := range t.recs {
		out = append(out, watchedFile{rel: r.Path, turn: r.Turn})
	}
	if len(out) > max {
		slices.SortFunc(out, func(a, b watchedFile) int { return b.turn - a.turn })
		out = out[:max]
	}
	return out
}

// markOwnChange records that the command by changed rel's content to fp; false when there is
// nothing to tell the model (the content is the baseline again, or what it was already told).
// The record is the current one: a read or a write of the file while the command ran made a
// new baseline, and the content is judged against that.
func (t *FileTracker) markOwnChange(rel string, fp fingerprint, by ownCommand) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.recs[rel]
	if !ok {
		return false
	}
	r.ModTime, r.Size = fp.modTime, fp.size
	switch fp.sha {
	case r.SHA256: // a touch, or a change undone: the baseline is current again
		r.DiskSHA256, r.CommandTurn, r.Command = "", 0, ""
		r.Status = restoredStatus(*r)
		t.save(r)
		return false
	case r.DiskSHA256: // the content the model was already told of, touched
		t.save(r)
		return false
	}
	r.Status, r.Source, r.DiskSHA256 = StatusChanged, SourceAgentCommand, fp.sha
	r.CommandTurn, r.Command = by.turn, by.command
	t.save(r)
	return true
}

// markOwnDeleted records that the command by deleted rel; false when it was known deleted.
func (t *FileTracker) markOwnDeleted(rel string, by ownCommand) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.recs[rel]
	if !ok || r.Status == StatusStale {
		return false
	}
	r.Status, r.Source = StatusStale, SourceAgentCommand
	r.CommandTurn, r.Command = by.turn, by.command
	t.save(r)
	return true
}

// changedByOwnCommand says the disk's content sha is the change the model's own command made.
func (r FileRecord) changedByOwnCommand(sha string) bool {
	return r.Source == SourceAgentCommand && r.Status == StatusChanged && r.DiskSHA256 == sha
}

// ownCommandText names the bash call that changed the file, for a refusal.
func (r FileRecord) ownCommandText() string {
	return fmt.Sprintf("your bash command at turn %d (%s)", r.CommandTurn, r.Command)
}

// byOther puts the record's change down to something other than the model's own command.
func (r *FileRecord) byOther() {
	r.Source, r.CommandTurn, r.Command = SourceExternal, 0, ""
}
