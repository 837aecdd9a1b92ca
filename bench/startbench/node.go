package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// stopNode stops the node a run left in dir, outside the measured time, so that the next run
// is cold: it starts its own node (the background `troupe serve` the CLI spawns on first use,
// its start included in the figure) rather than attaching to the last one. A binary whose node
// lives inside the client leaves none.
func (b *bench) stopNode(dir string) error {
	nodeFile := filepath.Join(dir, ".troupe", "node.json")
	raw, err := os.ReadFile(nodeFile)
	if err != nil {
		return nil // no node
	}
	var info struct {
		PID int `json:"pid"`
	}
	if json.Unmarshal(raw, &info) != nil || info.PID <= 0 || syscall.Kill(info.PID, 0) != nil {
		return nil // a stale file: nothing runs
	}
	cmd := exec.Command(b.bin, "stop", "--force")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("troupe stop in %s: %v %s", dir, err, out)
	}
	deadline := time.Now().Add(30 * time.Second)
	for syscall.Kill(info.PID, 0) == nil {
		if time.Now().After(deadline) {
			return fmt.Errorf("the node (pid %d) in %s did not stop in 30 s", info.PID, dir)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}
