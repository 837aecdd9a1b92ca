package tools

import (
	"fmt"
	"strings"
)

// sandboxDenials are what commands print when the sandbox refused them: a write outside the
// writable dirs, a network connection, a signal.
var sandboxDenials = []string{
	"Permission denied", "Operation not permitted", "Read-only file system",
	"Network is unreachable", "Could not resolve host", "Temporary failure in name resolution",
}

// sandboxNote tells the model (and the user reading the result) that a failed command may have
// been stopped by the sandbox, and which setting allows it, instead of leaving them to guess
// from a bare EACCES.
func sandboxNote(env *Env, command, output string, failed bool) string {
	if env.Sandbox == nil || !failed {
		return ""
	}
	if h, named := commandNamesHidden(env, command); named {
		return fmt.Sprintf("\n[credentials hidden by troupe's sandbox: %s reads as missing or empty to commands. Do not look for another way to it; if the task needs it, ask the user.]", h)
	}
	for _, d := range sandboxDenials {
		if strings.Contains(output, d) {
			writable := "the workspace, the temp dir and the cache dir"
			if env.ReadOnlyRoot {
				writable = "the temp dir only (this session's workspace is read-only)"
			}
			return "\n[troupe's sandbox may have blocked this (" + d + "): commands may write to " + writable +
				" and open no network connections. If the task needs more, ask the user to run troupe with" +
				" --sandbox off (or sandbox = \"off\" in their own config).]"
		}
	}
	return ""
}
