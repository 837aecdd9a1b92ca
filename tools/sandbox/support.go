package sandbox

import (
	"context"
	"fmt"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"os/exec"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Support is what this machine can confine commands with.
type Support struct {
	LandlockABI int    // 0 when the kernel has no Landlock (or it is disabled)
	Bwrap       string // the bubblewrap binary, or ""
	BwrapWorks  bool   // bwrap could create its namespaces here (containers often forbid it)
	Note        string // why something is missing
}

// Detect asks the kernel for its Landlock ABI and tries bubblewrap once.
func Detect() Support {
	sup := detectLandlock()
	sup.tryBwrap()
	return sup
}

// DetectFor is Detect for choosing mode's sandbox: it skips the bubblewrap trial (a fork and a
// namespace setup, tens of milliseconds on every start) when mode cannot end up choosing
// bubblewrap: off, landlock, or auto on a kernel with Landlock.
func DetectFor(mode Mode) Support {
	sup := detectLandlock()
	switch {
	case mode == ModeOff, mode == ModeLandlock, (mode == ModeAuto || mode == "") && sup.LandlockABI >= 1:
		return sup
	}
	sup.tryBwrap()
	return sup
}

func detectLandlock() Support {
	var sup Support
	if v, err := ll.LandlockGetABIVersion(); err == nil {
		sup.LandlockABI = v
	} else {
		sup.Note = fmt.Sprintf("landlock: %v", err)
	}
	return sup
}

// tryBwrap finds bubblewrap and runs it once to see whether it can create its namespaces here.
func (sup *Support) tryBwrap() {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		sup.Note = join(sup.Note, "bwrap not installed")
		return
	}
	sup.Bwrap = path
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "true").CombinedOutput()
	if err == nil {
		sup.BwrapWorks = true
	} else {
		sup.Note = join(sup.Note, fmt.Sprintf("bwrap: %v %s", err, textfmt.FirstLine(string(out))))
	}
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
