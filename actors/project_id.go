package actors

import (
	"bufio"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// Project says what names a project's subjects (<ns>) and where that came from.
type Project struct {
	ID string
	// From says how ID was found: "config", "git remote <url> and root commit <c>", "git root
	// commit <c>", or "path (not a git repository)", for troupe doctor.
	From string
	// PathOnly is set when the id is the hash of the local path: two checkouts do not meet.
	PathOnly bool
}

// validProjectID is what [project] id may be: a subject token of plain characters.
var validProjectID = lazyre.New(`^[A-Za-z0-9_-]{1,64}$`)

// CheckProjectID reports a configured [project] id that cannot name a subject.
func CheckProjectID(id string) error {
	if !validProjectID.MatchString(id) {
		return fmt.Errorf("[project] id %q: use 1 to 64 letters, digits, '-' or '_'", id)
	}
	return nil
}

// ProjectID derives the project id of the checkout at root: from the git remote's URL (origin,
// else the first remote; ssh and https spellings of one repository agree) and the repository's
// root commit, so two checkouts of one repository on two machines meet on a shared bus. Only
// outside git is it the hash of the local path. The root commit is found once (a history walk)
// and kept in stateDir/project.json.
func ProjectID(root, stateDir string) Project {
	gitDir := findGitCommonDir(root)
	if gitDir == "" {
		return Project{ID: messages.Namespace(root), From: "path (not a git repository)", PathOnly: true}
	}
	remote := normalizeRemote(gitRemote(filepath.Join(gitDir, "config")))
	first := ""
	if !unbornHead(root, gitDir) {
		first = rootCommit(root, stateDir)
	}
	if remote == "" && first == "" {
		return Project{ID: messages.Namespace(root), From: "path (a git repository without commits or remote)", PathOnly: true}
	}
	sum := sha256.Sum256([]byte(remote + "\n" + first))
	id := hex.EncodeToString(sum[:])[:12]
	switch {
	case remote == "":
		return Project{ID: id, From: "git root commit " + short(first)}
	case first == "":
		return Project{ID: id, From: "git remote " + remote}
	}
	return Project{ID: id, From: "git remote " + remote + " and root commit " + short(first)}
}

// ProjectNamespace is the <ns> of the project at root: configured ([project] id) when set,
// else derived (ProjectID). A Node, its workers and its clients all resolve it so.
func ProjectNamespace(root, configured string) string {
	if configured != "" {
		return configured
	}
	return ProjectID(root, StateDir(root)).ID
}

func short(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// findGitCommonDir is the repository's git directory holding its config (a linked worktree's
// .git file points into the main one's worktrees/<name>, whose commondir names it), or "".
func findGitCommonDir(root string) string {
	dotgit := filepath.Join(root, ".git")
	fi, err := os.Stat(dotgit)
	if err != nil {
		return ""
	}
	if fi.IsDir() {
		return dotgit
	}
	dir := gitDirOf(root)
	if dir == "" {
		return ""
	}
	if common, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(dir, c)
		}
		return filepath.Clean(c)
	}
	return dir
}

// gitRemote reads the URL of remote "origin", else of the first remote, from a git config
// file (read directly: no git process on the start path).
func gitRemote(configFile string) string {
	f, err := os.Open(configFile)
	if err != nil {
		return ""
	}
	defer f.Close()
	urls := map[string]string{}
	var order []string
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = ""
			if name, ok := strings.CutPrefix(strings.Trim(line, "[]"), "remote "); ok {
				section = strings.Trim(strings.TrimSpace(name), `"`)
			}
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if section == "" || !ok || !strings.EqualFold(strings.TrimSpace(key), "url") {
			continue
		}
		if _, seen := urls[section]; !seen {
			urls[section] = strings.Trim(strings.TrimSpace(val), `"`)
			order = append(order, section)
		}
	}
	if u, ok := urls["origin"]; ok {
		return u
	}
	if len(order) > 0 {
		return urls[order[0]]
	}
	return ""
}

// scpLike is git's user@host:path form.
var scpLike = lazyre.New(`^(?:[^@/]+@)?([^:/]+):(.+)$`)

// normalizeRemote spells one repository's URLs alike: no scheme, user or port-less
// difference, lower-case host, no trailing ".git" or slash. git@github.com:o/r.git and
// https://github.com/o/r both become github.com/o/r.
func normalizeRemote(u string) string {
	u = strings.TrimSpace(u)
	if u == "" {
		return ""
	}
	if scheme, rest, ok := strings.Cut(u, "://"); ok {
		if scheme == "file" {
			return strings.TrimSuffix(u, "/")
		}
		if at := strings.LastIndex(strings.SplitN(rest, "/", 2)[0], "@"); at >= 0 {
			rest = rest[at+1:]
		}
		host, path, _ := strings.Cut(rest, "/")
		if h, _, ok := strings.Cut(host, ":"); ok {
			host = h
		}
		u = strings.ToLower(host) + "/" + path
	} else if m := scpLike.FindStringSubmatch(u); m != nil && !strings.HasPrefix(u, "/") {
		u = strings.ToLower(m[1]) + "/" + strings.TrimPrefix(m[2], "/")
	}
	u = strings.TrimSuffix(strings.TrimSuffix(u, "/"), ".git")
	return strings.TrimSuffix(u, "/")
}

// unbornHead reports whether the repository at root (git directory commonDir) certainly has no
// commit yet: its HEAD names a branch that no loose or packed ref holds. Then there is no root
// commit to look for, and no git process to start on every node start (the first commit, once
// made, is found and cached as usual). Anything it cannot be sure of (a reftable repository, a
// detached or unreadable HEAD) is not unborn: git is asked.
func unbornHead(root, commonDir string) bool {
	headDir := filepath.Join(root, ".git")
	if fi, err := os.Stat(headDir); err != nil || !fi.IsDir() {
		headDir = gitDirOf(root) // a linked worktree: its HEAD is in its own git directory
		if headDir == "" {
			return false
		}
	}
	head, err := os.ReadFile(filepath.Join(headDir, "HEAD"))
	if err != nil {
		return false
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref:")
	ref = strings.TrimSpace(ref)
	if !ok || !strings.HasPrefix(ref, "refs/heads/") {
		return false
	}
	if _, err := os.Stat(filepath.Join(commonDir, "reftable")); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if _, err := os.Stat(filepath.Join(commonDir, filepath.FromSlash(ref))); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	packed, err := os.ReadFile(filepath.Join(commonDir, "packed-refs"))
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	for line := range strings.Lines(string(packed)) {
		if f := strings.Fields(line); len(f) == 2 && f[1] == ref {
			return false
		}
	}
	return true
}

// gitDirOf is the git directory a .git file at root points to, or "".
func gitDirOf(root string) string {
	data, err := os.ReadFile(filepath.Join(root, ".git"))
	if err != nil {
		return ""
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	return dir
}

// projectFile caches the root commit (finding it walks the whole history).
type projectFile struct {
	RootCommit string `json:"root_commit"`
}

// rootCommit is the repository's first commit (the smallest id when there are several roots),
// cached in stateDir/project.json; "" when there is none yet or git cannot say.
func rootCommit(root, stateDir string) string {
	cache := filepath.Join(stateDir, "project.json")
	if data, err := os.ReadFile(cache); err == nil {
		var pf projectFile
		if json.Unmarshal(data, &pf) == nil && pf.RootCommit != "" {
			return pf.RootCommit
		}
	}
	cmd := exec.Command("git", "-C", root, "rev-list", "--max-parents=0", "HEAD")
	cmd.Env = worktree.GitEnv() // run from a git hook, GIT_DIR would name another repository
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	roots := strings.Fields(string(out))
	if len(roots) == 0 {
		return ""
	}
	first := slices.Min(roots)
	// Kept only where the state directory exists (a Node made it): a look (doctor) writes nothing.
	if data, err := json.Marshal(projectFile{RootCommit: first}); err == nil && dirExists(stateDir) {
		tmp := cache + ".tmp"
		if os.WriteFile(tmp, data, 0o644) == nil {
			os.Rename(tmp, cache)
		}
	}
	return first
}

// nodeID names a Node on the bus: its pid and a random suffix, since Nodes of one project on
// several machines share the namespace and pids repeat across machines (containers all start
// at 1).
func nodeID() string {
	var b [3]byte
	rand.Read(b[:])
	return fmt.Sprintf("n%d-%s", os.Getpid(), hex.EncodeToString(b[:]))
}

func dirExists(dir string) bool {
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
}
