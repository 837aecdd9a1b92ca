package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/diagnose"
	"github.com/troupe-dev/troupe/tools/sandbox"
)

func (m *Main) doctorCommand() *cobra.Command {
	var f commonFlags
	var repair, probe bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check the bus, the store, provider keys and the sandbox, each with a fix hint",
		Long: "Checks the bus, the store, provider keys and the sandbox, each with a fix hint. With\n" +
			"--base-url (or --probe) it also asks the model's endpoint for its model list.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if repair {
				return m.repairStore(&f)
			}
			return m.doctor(&f, probe)
		},
	}
	f.register(c)
	c.Flags().BoolVar(&probe, "probe", false, "ask the model's endpoint for its model list (a free call)")
	c.Flags().BoolVar(&repair, "repair", false, "back up a damaged store and rebuild it from what verifies")
	return c
}

// check is one line of the doctor's report.
type check = diagnose.Check

func (m *Main) doctor(f *commonFlags, probe bool) error {
	s, err := m.resolve(f)
	if err != nil {
		return err
	}
	checks := []check{m.checkConfig(s), checkBus(), checkStore(s.root)}
	checks = append(checks, diagnose.Provider(s.cfg.Model, s.cfg.BaseURL, m.Getenv, probe)...)
	checks = append(checks, checkSandbox(s.cfg.Sandbox)...)
	checks = append(checks, m.checkHidden(s))
	checks = append(checks, diagnose.Tools()...)
	if failed := diagnose.Write(m.Stdout, checks); failed > 0 {
		return &exitError{code: exitFailed, msg: fmt.Sprintf("doctor: %d check(s) failed", failed)}
	}
	return nil
}

func (m *Main) checkConfig(s *settings) check {
	detail := "defaults only"
	if len(s.cfg.Sources) > 0 {
		detail = fmt.Sprint(s.cfg.Sources)
	}
	return check{Name: "config", Status: diagnose.OK, Detail: detail + " · mode " + s.cfg.Mode}
}

func checkBus() check {
	bus, err := actors.StartBus(discardLogger())
	if err != nil {
		return check{Name: "bus", Status: diagnose.Fail, Detail: err.Error(), Fix: "troupe needs a free port on 127.0.0.1"}
	}
	defer bus.Shutdown()
	nc, err := bus.Connect("troupe-doctor")
	if err != nil {
		return check{Name: "bus", Status: diagnose.Fail, Detail: err.Error()}
	}
	nc.Close()
	return check{Name: "bus", Status: diagnose.OK, Detail: "embedded NATS starts on 127.0.0.1 with token auth"}
}

func checkStore(root string) check {
	if info, err := actors.FindNode(root); err == nil {
		return check{Name: "store", Status: diagnose.OK, Detail: fmt.Sprintf("held by the running node (pid %d), as it should be", info.PID)}
	}
	dir := filepath.Join(actors.StateDir(root), "db")
	return diagnose.StoreAt(dir)
}

// checkHidden lists the credential paths hidden from commands in this project (and refused to
// the file tools), with how to change the list.
func (m *Main) checkHidden(s *settings) check {
	home, _ := os.UserHomeDir()
	hidden := sandbox.HiddenPaths(home, s.root, config.UserDir(m.Getenv), s.cfg.SandboxDenyRead, s.cfg.SandboxAllowRead)
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
	if s.cfg.Sandbox == "off" {
		status, detail = diagnose.Note, detail+" (sandbox off: a command naming one asks)"
	}
	return check{Name: "credentials", Status: status, Detail: detail,
		Fix: "add paths with [sandbox] deny_read, or show one with allow_read, in your user config"}
}

// checkSandbox reports the confinement in force, then one line for each channel a confined
// command can still reach on this machine.
func checkSandbox(mode string) []check {
	self, err := os.Executable()
	if err != nil {
		return []check{{Name: "sandbox", Status: diagnose.Fail, Detail: "find the troupe binary for the sandbox launcher: " + err.Error()}}
	}
	return diagnose.Sandbox(sandbox.Mode(mode), self)
}
