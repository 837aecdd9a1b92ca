package nodeconf

import (
	"fmt"
	"os"
	"os/exec"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/sandbox"
)

// Sandbox builds the bash sandbox the configuration's mode asks for, and its description.
func Sandbox(mode string) (tools.Sandbox, string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, "", fmt.Errorf("find the troupe binary for the sandbox launcher: %w", err)
	}
	sb, err := sandbox.New(sandbox.Mode(mode), self, sandbox.DetectFor(sandbox.Mode(mode)))
	if err != nil {
		return nil, "", clierr.Usagef("sandbox: %v", err)
	}
	if sb.Active() == "off" {
		return nil, sb.Describe(), nil
	}
	return bashSandbox{sb}, sb.Describe(), nil
}

// bashSandbox adapts the sandbox to the tools' interface: commands may write the workspace and
// the session's temp dir, nothing else (only the temp dir for a plan-safe session).
type bashSandbox struct{ sb *sandbox.Sandbox }

// Describe and Holes let a session's /doctor and /permissions say which confinement is in force.
func (b bashSandbox) Describe() string { return b.sb.Describe() }
func (b bashSandbox) Holes() []string  { return b.sb.Holes() }

// WrapServer confines an MCP server's process: network allowed, writes only to writable
// (actors/mcp_hub.go passes the workspace and the package runners' caches).
func (b bashSandbox) WrapServer(cmd *exec.Cmd, writable, hidden []string) error {
	return b.sb.WrapNetwork(cmd, writable, hidden)
}

func (b bashSandbox) Wrap(cmd *exec.Cmd, env *tools.Env) error {
	if env.ReadOnlyRoot {
		return b.sb.WrapHiding(cmd, []string{env.TempDir}, env.Hidden)
	}
	return b.sb.WrapHiding(cmd, []string{env.Root, env.TempDir}, env.Hidden)
}
