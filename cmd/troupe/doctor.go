package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/store"
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
type check struct {
	name, status, detail, fix string
}

func (m *Main) doctor(f *commonFlags, probe bool) error {
	s, err := m.resolve(f)
	if err != nil {
		return err
	}
	checks := []check{m.checkConfig(s), checkBus(), checkStore(s.root)}
	checks = append(checks, m.checkProviders(s, probe)...)
	checks = append(checks, checkSandbox(s.cfg.Sandbox)...)
	checks = append(checks, checkCommand("git", "install git"),
		checkCommand("rg", "install ripgrep for fast grep (apt-get install ripgrep); a Go fallback is used meanwhile"))
	failed := 0
	for _, c := range checks {
		fmt.Fprintf(m.Stdout, "%-4s %-10s %s\n", c.status, c.name, c.detail)
		if c.fix != "" {
			fmt.Fprintf(m.Stdout, "     %-10s fix: %s\n", "", c.fix)
		}
		if c.status == "FAIL" {
			failed++
		}
	}
	if failed > 0 {
		return &exitError{code: exitFailed, msg: fmt.Sprintf("doctor: %d check(s) failed", failed)}
	}
	return nil
}

func (m *Main) checkConfig(s *settings) check {
	detail := "defaults only"
	if len(s.cfg.Sources) > 0 {
		detail = fmt.Sprint(s.cfg.Sources)
	}
	return check{name: "config", status: "ok", detail: detail + " · mode " + s.cfg.Mode}
}

func checkBus() check {
	bus, err := actors.StartBus(discardLogger())
	if err != nil {
		return check{name: "bus", status: "FAIL", detail: err.Error(), fix: "troupe needs a free port on 127.0.0.1"}
	}
	defer bus.Shutdown()
	nc, err := bus.Connect("troupe-doctor")
	if err != nil {
		return check{name: "bus", status: "FAIL", detail: err.Error()}
	}
	nc.Close()
	return check{name: "bus", status: "ok", detail: "embedded NATS starts on 127.0.0.1 with token auth"}
}

func checkStore(root string) check {
	if info, err := actors.FindNode(root); err == nil {
		return check{name: "store", status: "ok", detail: fmt.Sprintf("held by the running node (pid %d), as it should be", info.PID)}
	}
	dir := filepath.Join(actors.StateDir(root), "db")
	st, err := store.Open(dir, discardLogger())
	if errors.Is(err, store.ErrLocked) {
		return check{name: "store", status: "FAIL", detail: err.Error(), fix: "another troupe process holds it without a node.json: stop it"}
	}
	if errors.Is(err, store.ErrDamaged) {
		return check{name: "store", status: "FAIL", detail: err.Error(), fix: "troupe doctor --repair backs it up and salvages what verifies"}
	}
	if err != nil {
		return check{name: "store", status: "FAIL", detail: err.Error(), fix: "check permissions of " + dir}
	}
	st.Close()
	return check{name: "store", status: "ok", detail: dir}
}

func (m *Main) checkProviders(s *settings, probe bool) []check {
	var out []check
	for _, k := range llm.KeyVars() {
		if m.Getenv(k) != "" {
			out = append(out, check{name: "key", status: "ok", detail: k + " is set"})
		} else {
			out = append(out, check{name: "key", status: "--", detail: k + " is not set"})
		}
	}
	if s.cfg.Model == "" {
		return append(out, check{name: "model", status: "--", detail: "no default model",
			fix: "set model = \"provider/model\" in troupe.toml or ~/.config/troupe/config.toml, or pass --model"})
	}
	p, name, err := llm.Open(s.cfg.Model, llm.Options{BaseURL: s.cfg.BaseURL, Getenv: m.Getenv})
	if err != nil {
		return append(out, check{name: "model", status: "FAIL", detail: err.Error()})
	}
	out = append(out, check{name: "model", status: "ok", detail: s.cfg.Model})
	if s.cfg.BaseURL == "" && !probe {
		return out
	}
	// With an endpoint named (or --probe), ask it: a wrong URL or key shows here, not mid-run.
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	where := s.cfg.BaseURL
	if where == "" {
		where = "the provider's endpoint"
	}
	detail, err := llm.Probe(ctx, p, name)
	if err != nil {
		return append(out, check{name: "endpoint", status: "FAIL", detail: where + ": " + err.Error(),
			fix: "is the server running at that URL (with /v1 for OpenAI-compatible servers)? is the key right?"})
	}
	return append(out, check{name: "endpoint", status: "ok", detail: where + ": " + detail})
}

// probeTimeout bounds the endpoint probe of troupe doctor.
const probeTimeout = 10 * time.Second

// checkSandbox reports the confinement in force, then one line for each channel a confined
// command can still reach on this machine.
func checkSandbox(mode string) []check {
	sup := sandbox.Detect()
	_, desc, err := sandboxFor(mode)
	if err != nil {
		return []check{{name: "sandbox", status: "FAIL", detail: err.Error(), fix: "use --sandbox auto or off"}}
	}
	detail := fmt.Sprintf("%s (landlock ABI %d", desc, sup.LandlockABI)
	if sup.Bwrap != "" {
		detail += fmt.Sprintf(", bwrap %s works=%v", sup.Bwrap, sup.BwrapWorks)
	}
	detail += ")"
	c := check{name: "sandbox", status: "ok", detail: detail}
	if sup.LandlockABI == 0 && !sup.BwrapWorks {
		c.status, c.fix = "--", "commands run unsandboxed: use a kernel with Landlock, or apt-get install bubblewrap"
	}
	out := []check{c}
	if sb, err := sandbox.New(sandbox.Mode(mode), "troupe", sup); err == nil {
		for _, hole := range sb.Holes() {
			out = append(out, check{name: "sandbox", status: "--", detail: hole})
		}
	}
	return out
}

func checkCommand(name, fix string) check {
	if path, err := exec.LookPath(name); err == nil {
		return check{name: name, status: "ok", detail: path}
	}
	return check{name: name, status: "--", detail: name + " not found", fix: fix}
}
