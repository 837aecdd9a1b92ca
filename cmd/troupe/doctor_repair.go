package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/store"
)

// repairStore is `troupe doctor --repair`: it backs up the project's store and rebuilds it from
// every key that verifies, then prints what it kept and lost.
func (m *Main) repairStore(f *commonFlags) error {
	s, err := m.resolve(f)
	if err != nil {
		return err
	}
	if info, err := actors.FindNode(s.root, s.cfg.NATS); err == nil {
		return &exitError{Code: exitUsage, Msg: fmt.Sprintf("a troupe node (pid %d) holds the store; stop it before repairing", info.PID)}
	}
	dir := filepath.Join(actors.StateDir(s.root), "db")
	rep, err := store.Repair(dir, time.Now(), m.log)
	if err != nil {
		if rep != nil && rep.Backup != "" {
			return &exitError{Code: exitFailed, Msg: fmt.Sprintf("repair: %v (the damaged store is kept at %s)", err, rep.Backup)}
		}
		return &exitError{Code: exitFailed, Msg: fmt.Sprintf("repair: %v", err)}
	}
	ui.RepairReport(m.Stdout, rep, dir)
	return nil
}
