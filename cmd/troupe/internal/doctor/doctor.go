// Package doctor holds the checks of troupe doctor that need the runtime (the bus, the store,
// the sandbox); internal/diagnose has the ones the session's /doctor shares.
package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/diagnose"
	"github.com/troupe-dev/troupe/tools/sandbox"
)

type check = diagnose.Check

// Store checks the project's store: held by the running node, or whole on disk.
// A read-only checkout keeps it under the user's state directory, which the line names.
func Store(root string) check {
	c := func() check {
		if info, err := actors.FindNode(root); err == nil {
			return check{Name: "store", Status: diagnose.OK, Detail: fmt.Sprintf("held by the running node (pid %d), as it should be", info.PID)}
		}
		return diagnose.StoreAt(filepath.Join(actors.StateDir(root), "db"))
	}()
	if dir := actors.StateElsewhere(root); dir != "" {
		c.Detail += fmt.Sprintf("; kept in %s, because %s cannot be written", dir, filepath.Join(root, ".troupe"))
	}
	return c
}

// Hidden lists the credential paths hidden from commands in this project (and refused to
// the file tools), with how to change the list.
func Hidden(root, userDir string, cfg *config.Config) check {
	home, _ := os.UserHomeDir()
	hidden := sandbox.HiddenPaths(home, root, userDir, cfg.SandboxDenyRead, cfg.SandboxAllowRead)
	shown := make([]string, len(hidden))
	for i, h := range hidden {
		shown[i] = h
		if rest, ok := strings.CutPrefix(h, home+"/"); ok && home != "" {
			shown[i] = "~/" + rest
		}
	}
	detail := "hidden from commands: nothing found to hide"
	if len(shown) > 0 {
		detail = "hidden from commands: " + strings.Join(shown, ", ")
	}
	status := diagnose.OK
	if cfg.Sandbox == "off" {
		status, detail = diagnose.Note, detail+" (sandbox off: a command naming one asks)"
	}
	return check{Name: "credentials", Status: status, Detail: detail,
		Fix: "add paths with [sandbox] deny_read, or show one with allow_read, in your user config"}
}

// Sandbox reports the confinement in force, then one line for each channel a confined
// command can still reach on this machine.
func Sandbox(mode string) []check {
	self, err := os.Executable()
	if err != nil {
		return []check{{Name: "sandbox", Status: diagnose.Fail, Detail: "find the troupe binary for the sandbox launcher: " + err.Error()}}
	}
	return diagnose.Sandbox(sandbox.Mode(mode), self)
}
