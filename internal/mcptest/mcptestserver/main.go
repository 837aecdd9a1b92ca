// Command mcptestserver is the mcptest server as a program, for tests that need it as a
// server's command (built once per test run by mcptest.Binary).
package main

import (
	"os"

	"github.com/troupe-dev/troupe/internal/mcptest"
)

func main() {
	if os.Getenv(mcptest.Variable) == "" {
		os.Setenv(mcptest.Variable, mcptest.ModeTools)
	}
	mcptest.ServeIfAsked()
}
