package sandbox

import (
	"fmt"
	"os"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
)

// devices every command may write: output sinks and terminals.
var writableDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/random", "/dev/urandom"}

// LauncherMain is the body of `troupe __sandbox [--rw DIR]… [--hide PATH]… [--no-net] --
// PROG ARGS…`: it restricts itself with Landlock (read and execute everywhere but the --hide
// paths, write only the --rw directories and the usual devices, no TCP with --no-net, no
// signals or abstract unix sockets reaching outside the sandbox) and executes PROG, which
// inherits the restriction. It returns only on failure, with the exit code to use.
func LauncherMain(args []string) int {
	spec, err := parseLauncherArgs(args)
	if err != nil {
		return fail(err.Error())
	}
	argv := spec.argv
	prog, err := resolveProgram(argv[0])
	if err != nil {
		return fail(fmt.Sprintf("%s: %v", argv[0], err))
	}
	cfg := landlock.V11.BestEffort()
	rules := landlockRules(existing(spec.rw), spec.hide)
	rules = append(rules, landlock.RWFiles(existing(writableDevices)...).WithIoctlDev())
	noNet := spec.noNet
	if err := cfg.RestrictPaths(rules...); err != nil {
		return fail(fmt.Sprintf("apply landlock to the file system: %v", err))
	}
	if noNet {
		if err := cfg.RestrictNet(); err != nil {
			return fail(fmt.Sprintf("apply landlock to the network: %v", err))
		}
	}
	// Scoped (ABI 6): no signal to troupe or any process outside the sandbox, no connect to an
	// abstract unix socket bound outside it. Best effort: a no-op on older kernels (doctor says so).
	if err := cfg.RestrictScoped(); err != nil {
		return fail(fmt.Sprintf("apply landlock scopes (signals, abstract sockets): %v", err))
	}
	err = syscall.Exec(prog, argv, os.Environ())
	return fail(fmt.Sprintf("exec %s: %v", prog, err))
}

// existing keeps the paths that exist: Landlock refuses rules on missing paths.
func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

func fail(msg string) int {
	fmt.Fprintln(os.Stderr, "troupe sandbox:", msg)
	return 126
}

// launchSpec is what the launcher was asked to do.
type launchSpec struct {
	rw, hide []string
	noNet    bool
	argv     []string
}

func parseLauncherArgs(args []string) (launchSpec, error) {
	var spec launchSpec
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--rw", "--hide":
			if i+1 >= len(args) {
				return launchSpec{}, fmt.Errorf("%s needs a path", args[i])
			}
			if args[i] == "--rw" {
				spec.rw = append(spec.rw, args[i+1])
			} else {
				spec.hide = append(spec.hide, args[i+1])
			}
			i++
		case "--no-net":
			spec.noNet = true
		case "--":
			if i+1 >= len(args) {
				return launchSpec{}, fmt.Errorf("no command after --")
			}
			spec.argv = args[i+1:]
			return spec, nil
		default:
			return launchSpec{}, fmt.Errorf("unknown argument %q", args[i])
		}
	}
	return launchSpec{}, fmt.Errorf("no command: use -- PROG ARGS")
}
