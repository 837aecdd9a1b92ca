package actors

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// NodeInfo is what .troupe/node.json records so other troupe processes of the same project
// attach to the running Node instead of opening the store.
type NodeInfo struct {
	URL   string `json:"url"`
	Token string `json:"token"`
	PID   int    `json:"pid"`
	NS    string `json:"ns"`
	Node  string `json:"node"`
	Root  string `json:"root"`
}

// ErrNoNode means no live Node serves the project.
var ErrNoNode = errors.New("no troupe node is running for this project")

// StateDir is the project's .troupe directory.
func StateDir(root string) string { return filepath.Join(root, ".troupe") }

func nodeFile(root string) string { return filepath.Join(StateDir(root), "node.json") }

// ensureStateDir creates .troupe with a .gitignore that ignores everything in it.
func ensureStateDir(root string) error {
	dir := StateDir(root)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	gi := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(gi); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(gi, []byte("*\n"), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", gi, err)
		}
	}
	return nil
}

// writeNodeFile writes node.json atomically with mode 0600 (it holds the bus token).
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

// removeNodeFile removes node.json if it is still ours.
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

// FindNode returns the live Node of the project. A node.json whose process is gone (or that is
// unreadable) is stale: it is removed and ErrNoNode returned.
func FindNode(root string) (*NodeInfo, error) {
	info, err := readNodeFile(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoNode
	}
	if err != nil || !ProcessAlive(info.PID) {
		os.Remove(nodeFile(root))
		return nil, ErrNoNode
	}
	return info, nil
}

// ProcessAlive reports whether a process with that pid exists.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
