package sandbox

import (
	"os"
	"path/filepath"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Landlock only allows, and a rule on a directory covers everything beneath it, so a hidden
// path cannot be cut out of a grant on "/". Instead the grant is made level by level down to
// each hidden path: a directory with a hidden path beneath it may only be listed, and each of
// its entries is granted on its own, every sibling but the hidden one. So ~/.config/gcloud is
// hidden while the rest of ~/.config stays readable. The writable directories are granted the
// same way, so a hidden path stays hidden inside the workspace too. A symbolic link needs no
// rule: what it points to is governed by the rules where that lives.

// landlockRules grants read and execute on "/" and read-write on rw, except hide. The paths
// come from listing directories, and a listed entry may be gone by the time the rule opens it
// (a temporary file in /tmp, an editor's swap file in ~): such a rule is skipped, as there is
// nothing left to grant, instead of failing the command.
func landlockRules(rw, hide []string) []landlock.Rule {
	roDirs, roFiles, listed := splitGrant("/", hide)
	rules := []landlock.Rule{landlock.RODirs(roDirs...).IgnoreIfMissing(), landlock.ROFiles(roFiles...).IgnoreIfMissing()}
	for _, d := range rw {
		rwDirs, rwFiles, rwListed := splitGrant(d, hide)
		rules = append(rules, landlock.RWDirs(rwDirs...).IgnoreIfMissing(), landlock.RWFiles(rwFiles...).IgnoreIfMissing())
		listed = append(listed, rwListed...)
	}
	if len(listed) > 0 {
		rules = append(rules, landlock.PathAccess(ll.AccessFSReadDir, listed...).IgnoreIfMissing())
	}
	return rules
}

// splitGrant covers root minus hide: whole directories, single files, and the directories on
// the way to a hidden path, which may only be listed.
func splitGrant(root string, hide []string) (dirs, files, listed []string) {
	root = filepath.Clean(root)
	if _, hidden := IsHidden(root, hide); hidden {
		return nil, nil, nil
	}
	if !hasHiddenBeneath(root, hide) {
		return []string{root}, nil, nil
	}
	listed = append(listed, root)
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, nil, listed
	}
	for _, e := range entries {
		p := filepath.Join(root, e.Name())
		switch {
		case e.Type()&os.ModeSymlink != 0:
		case e.IsDir():
			d, f, l := splitGrant(p, hide)
			dirs, files, listed = append(dirs, d...), append(files, f...), append(listed, l...)
		default:
			if _, hidden := IsHidden(p, hide); !hidden {
				files = append(files, p)
			}
		}
	}
	return dirs, files, listed
}

// hasHiddenBeneath reports a hidden path strictly beneath dir.
func hasHiddenBeneath(dir string, hide []string) bool {
	prefix := dir + string(filepath.Separator)
	if dir == "/" {
		prefix = dir
	}
	for _, h := range hide {
		if h != dir && len(h) > len(prefix) && h[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}
