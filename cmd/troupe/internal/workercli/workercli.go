// Package workercli is what `troupe worker` decides before it runs: the worker's name, its
// slots, where it keeps checkouts and state, and which of its start-up errors are the user's
// to fix (exit 2) rather than failures.
package workercli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/internal/taskqueue"
	"github.com/troupe-dev/troupe/messages"
)

// DefaultSlots is how many tasks a worker runs at once unless --slots says otherwise.
const DefaultSlots = 2

// Name is the worker's name: the one given, else the host's name made a subject token.
func Name(given string, hostname func() (string, error)) (string, error) {
	if given != "" {
		if !messages.ValidToken(given) {
			return "", clierr.Usagef("--name %q: a worker's name is one word without dots, spaces or wildcards (e.g. build-box-1)", given)
		}
		return given, nil
	}
	host, err := hostname()
	if err != nil || host == "" {
		return "", clierr.Usagef("this host has no name to call the worker by: give --name")
	}
	host = strings.NewReplacer(".", "-", " ", "-", "*", "-", ">", "-").Replace(strings.SplitN(host, ".", 2)[0])
	return host, nil
}

// Slots checks --slots.
func Slots(n int) (int, error) {
	if n < 1 {
		return 0, clierr.Usagef("--slots %d: a worker runs at least one task at a time", n)
	}
	return n, nil
}

// RepoCache is where the worker keeps its checkouts and state: the one given, else the user's
// cache directory (~/.cache/troupe/workers).
func RepoCache(given string) (string, error) {
	if given != "" {
		return filepath.Abs(given)
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", clierr.Usagef("no cache directory to keep checkouts in: give --repo-cache DIR")
	}
	return filepath.Join(dir, "troupe", "workers"), nil
}

// Check settles the worker's name, slots and repository cache from its flags.
func Check(name string, slots int, cache string, hostname func() (string, error)) (string, int, string, error) {
	name, err := Name(name, hostname)
	if err == nil {
		slots, err = Slots(slots)
	}
	if err == nil {
		cache, err = RepoCache(cache)
	}
	return name, slots, cache, err
}

// Namespace is the project id the worker serves: [project] id, else the one derived from the
// checkout's git remote and root commit. Outside git there is none to share with the nodes.
func Namespace(configured, root string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	p := actors.ProjectID(root, actors.StateDir(root))
	if p.PathOnly {
		return "", clierr.Usagef("no project here: run troupe worker inside a git checkout of the project its nodes serve (or set [project] id)")
	}
	return p.ID, nil
}

// StateDir is where worker name keeps its store under the repository cache.
func StateDir(cache, name string) string { return filepath.Join(cache, "state", name) }

// StartError says why the worker could not start in one line, as a usage error when the fix
// is the command line, the credentials or the server's configuration.
func StartError(url string, err error) error {
	var join *actors.JoinError
	switch {
	case errors.As(err, &join):
		return clierr.Usagef("%v: is the server running and are the credentials right? check --nats and --creds", err)
	case errors.Is(err, taskqueue.ErrNoJetStream), errors.Is(err, taskqueue.ErrNotPermitted):
		return clierr.Usagef("%v", err)
	}
	return clierr.Failf("worker on %s: %v", url, err)
}
