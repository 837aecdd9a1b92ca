package doctor

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/diagnose"
	"github.com/troupe-dev/troupe/store"
)

// Run is `troupe doctor`: every check, each a line with its fix, on w; probe also asks the
// model's endpoint for its model list. Any failed check makes it a failure (exit 1).
func Run(w io.Writer, root string, cfg *config.Config, getenv func(string) string, probe bool) error {
	checks := []check{Config(cfg), ProjectCheck(root, cfg)}
	checks = append(checks, Bus(root, cfg)...)
	checks = append(checks, Store(root))
	checks = append(checks, diagnose.Provider(cfg.Model, cfg.BaseURL, getenv, probe)...)
	checks = append(checks, Sandbox(cfg.Sandbox)...)
	checks = append(checks, Hidden(root, config.UserDir(getenv), cfg))
	checks = append(checks, diagnose.Tools()...)
	if failed := diagnose.Write(w, checks); failed > 0 {
		return clierr.Failf("doctor: %d check(s) failed", failed)
	}
	return nil
}

// Config names the configuration files that were read and the permission mode.
func Config(cfg *config.Config) check {
	detail := "defaults only"
	if len(cfg.Sources) > 0 {
		detail = fmt.Sprint(cfg.Sources)
	}
	return check{Name: "config", Status: diagnose.OK, Detail: detail + " · mode " + cfg.Mode}
}

// Repair is `troupe doctor --repair`: it backs up the project's store and rebuilds it from
// every key that verifies, then prints on w what it kept and lost. A running node holds the
// store: that is a usage error (stop it first).
func Repair(w io.Writer, root, nats string, log *slog.Logger) error {
	if info, err := actors.FindNode(root, nats); err == nil {
		return clierr.Usagef("a troupe node (pid %d) holds the store; stop it before repairing", info.PID)
	}
	dir := filepath.Join(actors.StateDir(root), "db")
	rep, err := store.Repair(dir, time.Now(), log)
	if err != nil {
		if rep != nil && rep.Backup != "" {
			return clierr.Failf("repair: %v (the damaged store is kept at %s)", err, rep.Backup)
		}
		return clierr.Failf("repair: %v", err)
	}
	ui.RepairReport(w, rep, dir)
	return nil
}
