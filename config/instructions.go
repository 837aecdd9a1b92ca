package config

// Project instructions by directory (docs/DESIGN-NOTES.md "Context"): AGENTS.md (or CLAUDE.md,
// which many repositories already have) in the repository root and every directory down to where troupe
// runs go into the stable prefix, with the user's own file; a nested file elsewhere applies to
// its subtree, and reaches the model once, the first time a file under it is read or edited.

import (
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// InstructionNames are the instruction files of a directory; the first found wins.
var instructionNames = []string{"AGENTS.md", "CLAUDE.md"}

// Instruction caps: one file, and all of them together, so a huge AGENTS.md cannot eat the
// window of a 32k model.
const (
	MaxInstructionFile  = 8 << 10
	MaxInstructionTotal = 24 << 10
)

// Instruction is one instruction file as it reaches the model.
type Instruction struct {
	Path  string `json:"path"`          // relative to the project root, or the user's file as given
	Dir   string `json:"dir"`           // the directory it applies to, relative to the root ("." for the root; "" for the user's)
	Text  string `json:"text"`          // bounded
	Bytes int    `json:"bytes"`         // the file's size
	Cut   bool   `json:"cut,omitempty"` // Text was cut to the caps
}

// Instructions tracks which instruction files apply to a session. It is a plain value owned by
// its session; Touch reads small files from disk, so the owner calls it where disk access is
// allowed.
type Instructions struct {
	root      string
	Stable    []Instruction   // in the stable prefix: the user's, then the root's down to the working directory
	Delivered []Instruction   // nested files handed out by Touch so far
	seen      map[string]bool // directories already looked at
	used      int             // bytes of Text handed out so far
}

// LoadInstructions reads the user's file (userFile, may be "") and the instruction files from
// root down to cwd (cwd inside root; otherwise just root's).
func LoadInstructions(root, cwd, userFile string) *Instructions {
	in := &Instructions{root: root, seen: map[string]bool{}}
	if userFile != "" {
		if data, err := os.ReadFile(userFile); err == nil {
			in.Stable = append(in.Stable, in.bound(Instruction{Path: userFile}, data))
		}
	}
	rel, err := filepath.Rel(root, cwd)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = "."
	}
	dirs := []string{"."}
	if rel != "." {
		acc := ""
		for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
			acc = path.Join(acc, part)
			dirs = append(dirs, acc)
		}
	}
	for _, d := range dirs {
		if f, ok := in.read(d); ok {
			in.Stable = append(in.Stable, f)
		}
	}
	return in
}

// Touch is told that the file rel (slash-separated, relative to the root) was read or edited.
// It returns the instruction files of its directories not handed out before, outermost first:
// the caller puts them in the next request, once. It reads the disk: an actor splits it into
// Pending (no disk), ReadInstructionFiles (off the actor) and Accept.
func (in *Instructions) Touch(rel string) []Instruction {
	dirs := in.Pending(path.Dir(path.Clean(rel)))
	return in.Accept(dirs, ReadInstructionFiles(in.root, dirs))
}

// Pending returns dir and its parents below the root (slash-separated, relative to the root)
// not looked at yet, outermost first. It reads nothing.
func (in *Instructions) Pending(dir string) []string {
	var chain []string
	for d := path.Clean(dir); d != "." && d != "/" && d != ".." && !strings.HasPrefix(d, "../") && !path.IsAbs(d); d = path.Dir(d) {
		if !in.seen[d] {
			chain = append(chain, d)
		}
	}
	slices.Reverse(chain)
	return chain
}

// RawInstruction is an instruction file as read from disk, before the caps.
type RawInstruction struct {
	Dir, Path string
	Data      []byte
}

// ReadInstructionFiles reads the instruction file of each of dirs (relative to root) that has
// one. It touches no Instructions, so it may run on any goroutine.
func ReadInstructionFiles(root string, dirs []string) []RawInstruction {
	var out []RawInstruction
	for _, d := range dirs {
		for _, name := range instructionNames {
			p := path.Join(d, name)
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil {
				continue
			}
			out = append(out, RawInstruction{Dir: d, Path: p, Data: data})
			break
		}
	}
	return out
}

// Accept marks dirs as looked at and hands out the files read from them (outermost first),
// bounded by the caps; a directory looked at before is skipped.
func (in *Instructions) Accept(dirs []string, files []RawInstruction) []Instruction {
	var out []Instruction
	for _, f := range files {
		if in.seen[f.Dir] || !slices.Contains(dirs, f.Dir) {
			continue
		}
		in.seen[f.Dir] = true
		got := in.bound(Instruction{Path: f.Path, Dir: f.Dir}, f.Data)
		out = append(out, got)
		in.Delivered = append(in.Delivered, got)
	}
	for _, d := range dirs {
		in.seen[d] = true
	}
	return out
}

// Restore marks a file handed out before (a resumed session's record) as delivered.
func (in *Instructions) Restore(f Instruction) {
	if in.seen[f.Dir] {
		return
	}
	in.seen[f.Dir] = true
	in.used += len(f.Text)
	in.Delivered = append(in.Delivered, f)
}

// Clone is a copy that shares nothing mutable with in.
func (in *Instructions) Clone() *Instructions {
	c := *in
	c.Stable = slices.Clone(in.Stable)
	c.Delivered = slices.Clone(in.Delivered)
	c.seen = maps.Clone(in.seen)
	return &c
}

// Used is the bytes of instruction text handed out so far, against MaxInstructionTotal.
func (in *Instructions) Used() int { return in.used }

// read returns dir's instruction file the first time dir is looked at.
func (in *Instructions) read(dir string) (Instruction, bool) {
	if in.seen[dir] {
		return Instruction{}, false
	}
	in.seen[dir] = true
	for _, f := range ReadInstructionFiles(in.root, []string{dir}) {
		return in.bound(Instruction{Path: f.Path, Dir: dir}, f.Data), true
	}
	return Instruction{}, false
}

// bound fills Text within the per-file and total caps.
func (in *Instructions) bound(f Instruction, data []byte) Instruction {
	text := strings.TrimSpace(string(data))
	f.Bytes = len(data)
	limit := min(MaxInstructionFile, MaxInstructionTotal-in.used)
	if limit < 0 {
		limit = 0
	}
	if len(text) > limit {
		f.Cut = true
		text = text[:limit] + "\n[… cut: " + f.Path + " is longer; read it with read_file]"
	}
	f.Text = text
	in.used += min(len(text), limit)
	return f
}

// Prompt is the stable prefix's instructions section ("" when there are none).
func (in *Instructions) Prompt() string {
	return formatInstructions("Project instructions", in.Stable)
}

// FormatNested is the state-block note for files Touch handed out.
func FormatNested(files []Instruction) string {
	return formatInstructions("Instructions for the directories you are working in", files)
}

func formatInstructions(title string, files []Instruction) string {
	var b strings.Builder
	for _, f := range files {
		if f.Text == "" {
			continue
		}
		if b.Len() == 0 {
			b.WriteString(title + ":")
		}
		scope := "everywhere"
		if f.Dir != "" && f.Dir != "." {
			scope = "under " + f.Dir + "/"
		}
		b.WriteString("\n\n(" + f.Path + ", applies " + scope + ")\n" + f.Text)
	}
	return b.String()
}
