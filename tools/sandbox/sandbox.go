// Package sandbox confines the commands troupe's bash tool runs: under Landlock (write access
// only to the workspace, the session temp dir, the user's cache dir and a few devices; no TCP
// when the kernel can enforce it) or under bubblewrap (the whole file system read-only except
// those directories, network unshared), or not at all when asked.
//
// Landlock restricts the process that applies it and its children, and troupe must not
// restrict itself, so a command runs through a launcher: troupe re-executes its own binary as
// `troupe __sandbox --rw DIR … -- bash -c …`, which applies Landlock and then execs the command.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Mode selects the sandbox.
type Mode string

// The modes.
const (
	ModeAuto     Mode = "auto"     // Landlock when the kernel has it, else bubblewrap when it works, else off
	ModeLandlock Mode = "landlock" // Landlock, or an error saying why not
	ModeBwrap    Mode = "bwrap"    // bubblewrap, or an error saying why not
	ModeOff      Mode = "off"      // commands run unconfined
)

// LauncherCommand is the hidden subcommand that runs LauncherMain.
const LauncherCommand = "__sandbox"

// Sandbox wraps commands in the chosen confinement.
type Sandbox struct {
	mode   Mode
	self   string // the troupe binary, for the Landlock launcher
	bwrap  string
	netOff bool // the confinement can deny the network
	why    string
	extra  []string // writable beyond what Wrap is given: the user's cache dir
	holes  []string // what confined commands can still reach (Holes)
}

// New chooses the sandbox for mode from what sup says the machine supports. An explicit mode
// that cannot work here is an error that says how to fix it.
func New(mode Mode, self string, sup Support) (*Sandbox, error) {
	if mode == "" {
		mode = ModeAuto
	}
	s := &Sandbox{self: self, bwrap: sup.Bwrap}
	if dir, err := os.UserCacheDir(); err == nil {
		// Build caches (go, pip, npm) live here; without write access `go test` fails.
		s.extra = append(s.extra, dir)
	}
	switch mode {
	case ModeOff:
		s.mode, s.why = ModeOff, "off (asked for)"
	case ModeLandlock:
		if sup.LandlockABI < 1 {
			return nil, fmt.Errorf("landlock is not available here (%s): use --sandbox bwrap (apt-get install bubblewrap) or --sandbox off", sup.Note)
		}
		s.useLandlock(sup)
	case ModeBwrap:
		if !sup.BwrapWorks {
			if sup.Bwrap == "" {
				return nil, errors.New("bubblewrap is not installed: apt-get install bubblewrap, or use --sandbox landlock or off")
			}
			return nil, fmt.Errorf("bubblewrap cannot create namespaces here (%s): use --sandbox landlock or off", sup.Note)
		}
		s.useBwrap()
	case ModeAuto:
		switch {
		case sup.LandlockABI >= 1:
			s.useLandlock(sup)
		case sup.BwrapWorks:
			s.useBwrap()
		default:
			s.mode, s.why = ModeOff, "off: neither Landlock nor a working bubblewrap here ("+sup.Note+")"
		}
	default:
		return nil, fmt.Errorf("unknown sandbox %q: use auto, landlock, bwrap or off", mode)
	}
	return s, nil
}

func (s *Sandbox) useLandlock(sup Support) {
	s.mode = ModeLandlock
	s.netOff = sup.LandlockABI >= 4
	s.why = fmt.Sprintf("landlock ABI %d: writes only to the workspace, temp and cache dirs", sup.LandlockABI)
	if s.netOff {
		s.why += "; TCP connect and bind denied"
	} else {
		s.why += "; network not restricted (needs Landlock ABI 4)"
	}
	if sup.LandlockABI >= abiScoped {
		s.why += "; signals and abstract unix sockets cannot reach outside"
	}
	s.holes = landlockHoles(sup.LandlockABI, s.netOff)
}

func (s *Sandbox) useBwrap() {
	s.mode, s.netOff, s.why = ModeBwrap, true, "bwrap: workspace and temp writable, the rest read-only, network unshared"
	s.holes = bwrapHoles()
}

// Active is the confinement in force.
func (s *Sandbox) Active() Mode { return s.mode }

// Describe is one line for `troupe doctor` and session.started.
func (s *Sandbox) Describe() string { return s.why }

// Wrap rewrites cmd, which holds Path, Args, Dir and Env for the command, so it runs confined:
// it may write only writable (the workspace and the session temp dir), the user's cache dir and
// the usual devices.
func (s *Sandbox) Wrap(cmd *exec.Cmd, writable []string) error {
	return s.WrapHiding(cmd, writable, nil)
}

// WrapHiding is Wrap that also hides the absolute paths in hidden (HiddenPaths) from the
// command: under Landlock they are left out of every grant (landlock_hide.go); under
// bubblewrap an empty tmpfs covers a hidden directory and /dev/null a hidden file.
func (s *Sandbox) WrapHiding(cmd *exec.Cmd, writable, hidden []string) error {
	return s.wrap(cmd, writable, hidden, false)
}

// WrapNetwork is WrapHiding with the network allowed: an MCP server's process may need to
// reach its service or a package registry, so only its writes and reads are confined.
func (s *Sandbox) WrapNetwork(cmd *exec.Cmd, writable, hidden []string) error {
	return s.wrap(cmd, writable, hidden, true)
}

func (s *Sandbox) wrap(cmd *exec.Cmd, writable, hidden []string, network bool) error {
	rw := append(append([]string(nil), writable...), s.extra...)
	argv := append([]string{cmd.Path}, cmd.Args[1:]...)
	switch s.mode {
	case ModeLandlock:
		args := []string{s.self, LauncherCommand}
		for _, d := range rw {
			args = append(args, "--rw", d)
		}
		for _, h := range hidden {
			args = append(args, "--hide", h)
		}
		if s.netOff && !network {
			args = append(args, "--no-net")
		}
		cmd.Path, cmd.Args = s.self, append(append(args, "--"), argv...)
	case ModeBwrap:
		args := []string{s.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--die-with-parent"}
		if !network {
			args = append(args, "--unshare-net")
		}
		for _, d := range rw {
			if _, err := os.Stat(d); err != nil {
				continue
			}
			args = append(args, "--bind", d, d)
		}
		args = append(args, bwrapHide(hidden)...)
		if cmd.Dir != "" {
			args = append(args, "--chdir", cmd.Dir)
		}
		cmd.Path, cmd.Args = s.bwrap, append(append(args, "--"), argv...)
	}
	return nil
}

// bwrapHide mounts over each hidden path, after the binds so it holds inside them too.
func bwrapHide(hidden []string) []string {
	var args []string
	for _, h := range hidden {
		info, err := os.Lstat(h)
		switch {
		case err != nil || info.Mode()&os.ModeSymlink != 0:
			// Gone, or a link: the path it names is hidden where it lives, if it is listed.
		case info.IsDir():
			args = append(args, "--tmpfs", h)
		default:
			args = append(args, "--ro-bind", "/dev/null", h)
		}
	}
	return args
}

// resolveProgram finds prog on PATH the way a shell would (the launcher execs directly).
func resolveProgram(prog string) (string, error) {
	if strings.Contains(prog, "/") {
		return filepath.Abs(prog)
	}
	return exec.LookPath(prog)
}
