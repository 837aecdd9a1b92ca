package config

// Project instructions by directory (seed 002): AGENTS.md (or CLAUDE.md, which many
// repositories already have) in the repository root and every directory down to where troupe
// runs go into the stable prefix, with the user's own file; a nested file elsewhere applies to
// its subtree, and reaches the model once, the first time a file under it is read or edited.

import (
	"os"
	"path"
	"path/filepath"
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
	Path  string // relative to the project root, or the user's file as given
	Dir   string // the directory it applies to, relative to the root ("." for the root; "" for the user's)
	Text  string // bounded
	Bytes int    // the file's size
	Cut   bool   // Text was cut to the caps
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
// the caller puts them in the next request's state block, once.
func (in *Instructions) Touch(rel string) []Instruction {
	var chain []string
	for d := path.Dir(path.Clean(rel)); d != "." && d != "/" && !strings.HasPrefix(d, ".."); d = path.Dir(d) {
		chain = append(chain, d)
	}
	var out []Instruction
	for i := len(chain) - 1; i >= 0; i-- {
		if f, ok := in.read(chain[i]); ok {
			out = append(out, f)
			in.Delivered = append(in.Delivered, f)
		}
	}
	return out
}

// read returns dir's instruction file the first time dir is looked at.
func (in *Instructions) read(dir string) (Instruction, bool) {
	if in.seen[dir] {
		return Instruction{}, false
	}
	in.seen[dir] = true
	for _, name := range instructionNames {
		p := path.Join(dir, name)
		data, err := os.ReadFile(filepath.Join(in.root, filepath.FromSlash(p)))
		if err != nil {
			continue
		}
		return in.bound(Instruction{Path: p, Dir: dir}, data), true
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
