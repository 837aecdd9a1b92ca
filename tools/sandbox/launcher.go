package sandbox

import (
	"fmt"
	"os"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
)

// devices every command may write: output sinks and terminals.
var writableDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/random", "/dev/urandom"}

// LauncherMain is the body of `troupe __sandbox [--rw DIR]… [--no-net] -- PROG ARGS…`: it
// restricts itself with Landlock (read and execute everywhere, write only the --rw directories
// and the usual devices, no TCP with --no-net, no signals or abstract unix sockets reaching
// outside the sandbox) and executes PROG, which inherits the
// restriction. It returns only on failure, with the exit code to use.
func LauncherMain(args []string) int {
	rw, noNet, argv, err := parseLauncherArgs(args)
	if err != nil {
		return fail(err.Error())
	}
	prog, err := resolveProgram(argv[0])
	if err != nil {
		return fail(fmt.Sprintf("%s: %v", argv[0], err))
	}
	cfg := landlock.V11.BestEffort()
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs(existing(rw)...),
		landlock.RWFiles(existing(writableDevices)...).WithIoctlDev(),
	}
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

func parseLauncherArgs(args []string) (rw []string, noNet bool, argv []string, err error) {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--rw":
			if i+1 >= len(args) {
				return nil, false, nil, fmt.Errorf("--rw needs a directory")
			}
			rw = append(rw, args[i+1])
			i++
		case "--no-net":
			noNet = true
		case "--":
			if i+1 >= len(args) {
				return nil, false, nil, fmt.Errorf("no command after --")
			}
			return rw, noNet, args[i+1:], nil
		default:
			return nil, false, nil, fmt.Errorf("unknown argument %q", args[i])
		}
	}
	return nil, false, nil, fmt.Errorf("no command: use -- PROG ARGS")
}
