package natstest

import (
	"os"
	"strings"
	"testing"
)

// DocsConfig is the example server configuration docs/WORKERS.md shows (the code block after
// its "example-server-config" marker), less its jetstream block: each node Start makes has its
// own store. doc is the path of WORKERS.md from the calling test's package.
func DocsConfig(t testing.TB, doc string) string {
	t.Helper()
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "<!-- example-server-config")
	if !ok {
		t.Fatalf("%s has no example-server-config block", doc)
	}
	_, rest, _ = strings.Cut(rest, "```\n")
	block, _, _ := strings.Cut(rest, "```")
	var lines []string
	for _, l := range strings.Split(block, "\n") {
		if !strings.HasPrefix(l, "jetstream {") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}
