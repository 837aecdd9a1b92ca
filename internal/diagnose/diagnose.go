// Package diagnose holds the checks troupe doctor and a session's /doctor share: a check is a
// status, one line of detail and, when something can be done about it, a fix. The callers
// gather what to check (the store, the bus, the provider) and render the lines.
package diagnose

import (
	"fmt"
	"io"
	"os/exec"

	"github.com/troupe-dev/troupe/tools/sandbox"
)

// Status is a check's outcome.
type Status string

// The outcomes of a check: it holds, it is worth knowing (not an error), it failed.
const (
	OK   Status = "ok"
	Note Status = "--"
	Fail Status = "FAIL"
)

// Check is one line of a diagnosis.
type Check struct {
	Name   string
	Status Status
	Detail string
	Fix    string
}

// Write renders checks, one line each and a fix line under those that have one, and returns
// how many failed.
func Write(w io.Writer, checks []Check) (failed int) {
	for _, c := range checks {
		fmt.Fprintf(w, "%-4s %-10s %s\n", c.Status, c.Name, c.Detail)
		if c.Fix != "" {
			fmt.Fprintf(w, "     %-10s fix: %s\n", "", c.Fix)
		}
		if c.Status == Fail {
			failed++
		}
	}
	return failed
}

// Confinement is a sandbox that says what it is and what a confined command can still reach.
type Confinement interface {
	Describe() string
	Holes() []string
}

// InForce reports the confinement commands run under (nil: none), then one line per hole.
func InForce(c Confinement) []Check {
	if c == nil {
		return []Check{{Name: "sandbox", Status: Note, Detail: "off: commands run unsandboxed",
			Fix: "start the session with --sandbox auto (the default) to confine commands"}}
	}
	out := []Check{{Name: "sandbox", Status: OK, Detail: c.Describe()}}
	for _, hole := range c.Holes() {
		out = append(out, Check{Name: "sandbox", Status: Note, Detail: hole})
	}
	return out
}

// Sandbox reports what this machine can confine commands with in mode, then the holes of the
// sandbox that mode gives; self is the troupe binary the Landlock launcher re-executes. It runs
// bubblewrap once to see whether it works.
func Sandbox(mode sandbox.Mode, self string) []Check {
	sb, err := sandbox.New(mode, self, sandbox.DetectFor(mode))
	if err != nil {
		return []Check{{Name: "sandbox", Status: Fail, Detail: "sandbox: " + err.Error(), Fix: "use --sandbox auto or off"}}
	}
	sup := sandbox.Detect()
	detail := fmt.Sprintf("%s (landlock ABI %d", sb.Describe(), sup.LandlockABI)
	if sup.Bwrap != "" {
		detail += fmt.Sprintf(", bwrap %s works=%v", sup.Bwrap, sup.BwrapWorks)
	}
	c := Check{Name: "sandbox", Status: OK, Detail: detail + ")"}
	if sup.LandlockABI == 0 && !sup.BwrapWorks {
		c.Status, c.Fix = Note, "commands run unsandboxed: use a kernel with Landlock, or apt-get install bubblewrap"
	}
	out := []Check{c}
	for _, hole := range sb.Holes() {
		out = append(out, Check{Name: "sandbox", Status: Note, Detail: hole})
	}
	return out
}

// Command reports whether a program troupe uses is on the PATH.
func Command(name, fix string) Check {
	if path, err := exec.LookPath(name); err == nil {
		return Check{Name: name, Status: OK, Detail: path}
	}
	return Check{Name: name, Status: Note, Detail: name + " not found", Fix: fix}
}

// Tools are the programs troupe's tools use, with what to do when one is missing.
func Tools() []Check {
	return []Check{Command("git", "install git"),
		Command("rg", "install ripgrep for fast grep (apt-get install ripgrep); a Go fallback is used meanwhile")}
}
