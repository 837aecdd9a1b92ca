package actors

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/troupe-dev/troupe/messages"
)

// NodeInfo is what .troupe/node.json records so other troupe processes of the same project
// attach to the running Node instead of opening the store.
type NodeInfo struct {
	URL string `json:"url"`
	// Creds is the directory of the embedded bus's per-kind seed files (BusKeyFile); "" for an
	// external server, where each process brings its own [bus] credentials.
	Creds string `json:"creds,omitempty"`
	// Token is a bus token (older nodes; none now).
	Token string `json:"token,omitempty"`
	PID   int    `json:"pid"`
	NS    string `json:"ns"`
	Node  string `json:"node"`
	Root  string `json:"root"`
	// Config is the fingerprint of the configuration the Node runs with (NodeOptions.Config).
	Config string `json:"config,omitempty"`
	// Background says a client started the Node in the background (NodeOptions.Background).
	Background bool `json:"background,omitempty"`
}

// ErrNoNode means no live Node serves the project.
var ErrNoNode = errors.New("no troupe node is running for this project")

// StateDir is where the project's node keeps its state (the store, node.json, serve.log): the
// project's .troupe directory, or, when that cannot be written (a read-only checkout), the
// user's state directory, $XDG_STATE_HOME/troupe/<hash of the root> (default ~/.local/state).
// Every process of the project resolves it the same way, so clients find the node's file.
func StateDir(root string) string {
	local := filepath.Join(root, ".troupe")
	if writable(local, root) {
		return local
	}
	if dir := userStateDir(root); dir != "" {
		return dir
	}
	return local
}

// StateElsewhere says where the state lives when it is not in the project's .troupe ("" when
// it is there): what troupe doctor reports.
func StateElsewhere(root string) string {
	if dir := StateDir(root); dir != filepath.Join(root, ".troupe") {
		return dir
	}
	return ""
}

// writable reports whether dir can be written, or created in parent when it does not exist.
func writable(dir, parent string) bool {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return false // a file in the way: it cannot hold the state
	case err == nil:
		return syscall.Access(dir, 2 /* W_OK */) == nil
	case errors.Is(err, os.ErrNotExist):
		return syscall.Access(parent, 2) == nil
	}
	return false
}

// userStateDir is the project's state directory under the user's state home ("" when there is
// no home to put it in).
func userStateDir(root string) string {
	base := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return ""
		}
		base = filepath.Join(home, ".local", "state")
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(base, "troupe", hex.EncodeToString(sum[:8]))
}

func nodeFile(root string) string { return filepath.Join(StateDir(root), "node.json") }

// EnsureStateDir creates the project's state directory and returns it: in .troupe, with a
// .gitignore that ignores everything in it.
func EnsureStateDir(root string) (string, error) {
	dir := StateDir(root)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	if dir != filepath.Join(root, ".troupe") {
		return dir, nil
	}
	gi := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(gi); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(gi, []byte("*\n"), 0o644); err != nil {
			return "", fmt.Errorf("write %s: %w", gi, err)
		}
	}
	return dir, nil
}

// writeNodeFile writes node.json atomically with mode 0600 (it says where the bus credentials are).
func writeNodeFile(root string, info *NodeInfo) error {
	data, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	path := nodeFile(root)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("install %s: %w", path, err)
	}
	return nil
}

// removeNodeFile removes node.json if it is still ours: only the Node that wrote it removes it.
func removeNodeFile(root string, pid int) {
	info, err := readNodeFile(root)
	if err == nil && info.PID == pid {
		os.Remove(nodeFile(root))
	}
}

func readNodeFile(root string) (*NodeInfo, error) {
	data, err := os.ReadFile(nodeFile(root))
	if err != nil {
		return nil, err
	}
	var info NodeInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return nil, fmt.Errorf("read %s: %w", nodeFile(root), err)
	}
	return &info, nil
}

// ErrForeignNode is wrapped when node.json names a live Node that is not this project's: a
// file copied from another project, or one pointing off this machine.
var ErrForeignNode = errors.New("node.json does not describe this project's node")

// FindNode returns the live Node of the project, or an error wrapping ErrNoNode.
//
// A client never deletes node.json: a file it cannot read, or whose process is gone, is simply
// not attached to (a Node starting here replaces it atomically), so a client can never orphan
// a live Node by removing its file. A file whose process lives but whose root, namespace or
// address does not fit this project is not trusted: the error wraps ErrForeignNode. Its URL
// must be loopback unless it is one of allowedURLs (a bus the user configured with --nats).
func FindNode(root string, allowedURLs ...string) (*NodeInfo, error) {
	info, err := readNodeFile(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoNode
	}
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNoNode, err)
	}
	if !ProcessAlive(info.PID) {
		return nil, ErrNoNode
	}
	if err := info.fits(root, allowedURLs); err != nil {
		return nil, err
	}
	return info, nil
}

// fits checks that info describes a Node of the project at root, reachable on this machine.
func (info *NodeInfo) fits(root string, allowedURLs []string) error {
	file := nodeFile(root)
	// The project id is derived from the repository (or configured), not from the path, so
	// the root is what ties the file to this checkout; the id must only name a subject.
	if info.Root != root || !messages.ValidToken(info.NS) {
		return fmt.Errorf("%w: %s names the node of another project (root %q), probably copied from it; remove the file and run again",
			ErrForeignNode, file, info.Root)
	}
	if info.URL != "" && slices.Contains(allowedURLs, info.URL) {
		return nil
	}
	if !loopbackURL(info.URL) {
		return fmt.Errorf("%w: %s points at %q, which is not this machine; troupe attaches only to a local node unless you pass --nats (remove the file and run again)",
			ErrForeignNode, file, info.URL)
	}
	return nil
}

// loopbackURL reports whether raw is a URL whose host is a loopback address (or localhost).
func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ProcessAlive reports whether a process with that pid exists and has not exited: a zombie
// waiting for its parent to reap it has exited (its files, the store's lock among them, are
// closed) once its last thread is gone; a leader that shows as a zombie while its other threads
// still tear down has not.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return true // no procfs: the signal said it exists
	}
	return !(bytes.Contains(status, []byte("\nState:\tZ")) && bytes.Contains(status, []byte("\nThreads:\t1\n")))
}
