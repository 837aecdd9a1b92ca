package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/doctor"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/diagnose"
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
	f.registerSetup(c) // doctor runs no session: turn, repair and prompt flags are not its own
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
	checks := []check{m.checkConfig(s), doctor.Bus(), doctor.Store(s.root)}
	checks = append(checks, diagnose.Provider(s.cfg.Model, s.cfg.BaseURL, m.Getenv, probe)...)
	checks = append(checks, doctor.Sandbox(s.cfg.Sandbox)...)
	checks = append(checks, doctor.Hidden(s.root, config.UserDir(m.Getenv), s.cfg))
	checks = append(checks, diagnose.Tools()...)
	if failed := diagnose.Write(m.Stdout, checks); failed > 0 {
		return &exitError{Code: exitFailed, Msg: fmt.Sprintf("doctor: %d check(s) failed", failed)}
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
