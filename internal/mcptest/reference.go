package mcptest

import (
	"os"
	"path/filepath"
	"testing"
)

// ReferenceDir is where .ci/run installs the npm reference servers
// (@modelcontextprotocol/server-everything and server-filesystem) at pinned versions.
func ReferenceDir() string {
	if d := os.Getenv("TROUPE_MCP_REFERENCE"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "troupe-ci", "mcp")
}

// Reference is the path of a reference server's entry script (everything: "server-everything"),
// and node's path; the test is skipped with the reason when either is missing.
func Reference(t testing.TB, pkg string) (node, script string) {
	t.Helper()
	entry := map[string]string{"server-everything": "dist/index.js", "server-filesystem": "dist/index.js"}[pkg]
	script = filepath.Join(ReferenceDir(), "node_modules", "@modelcontextprotocol", pkg, entry)
	if _, err := os.Stat(script); err != nil {
		t.Skipf("the reference server %s is not installed in %s (.ci/run installs it)", pkg, ReferenceDir())
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if p := filepath.Join(dir, "node"); fileExists(p) {
			return p, script
		}
	}
	t.Skip("node is not on the PATH: the reference servers need it")
	return "", ""
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
