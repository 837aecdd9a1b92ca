package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/natstest"
	"github.com/troupe-dev/troupe/internal/testwait"
)

// docsServerConfig is docs/WORKERS.md's example server configuration (project "myproj").
func docsServerConfig(t *testing.T) string { return natstest.DocsConfig(t, "../../docs/WORKERS.md") }

// troupe joins a stock nats-server configured as docs/WORKERS.md shows: without credentials
// the run is refused with one line; with the node's user (TROUPE_NATS_USER/PASSWORD) it runs
// under the project id troupe.toml sets; troupe watch with the watcher's user sees it.
func TestRunJoinsAStockServerWithCredentials(t *testing.T) {
	c := natstest.Start(t, natstest.Options{Accounts: docsServerConfig(t)})
	url := c.URL()
	repo := newRepo(t, map[string]string{"troupe.toml": "[project]\nid = \"myproj\"\n"})
	model := writeScript(t, repo, `{"turns": [{"text": "joined the shared bus"}]}`)

	r := troupe(t, repo, testEnv(t), "run", "--nats", url, "--model", model, "hi")
	if r.code != 2 || !strings.Contains(strings.ToLower(r.stderr), "authorization") {
		t.Fatalf("run without credentials: exit %d\n%s", r.code, r.stderr)
	}

	watcherEnv := testEnv(t, "TROUPE_NATS="+url, "TROUPE_NATS_USER=troupe-watcher", "TROUPE_NATS_PASSWORD=watcher-secret")
	nodeEnv := testEnv(t, "TROUPE_NATS_USER=troupe-node", "TROUPE_NATS_PASSWORD=node-secret")
	r = troupe(t, repo, nodeEnv, "run", "--json", "--nats", url, "--model", model, "hi")
	if r.code != 0 || !strings.Contains(r.stdout, "joined the shared bus") || !strings.Contains(r.stdout, `"ns":"myproj"`) {
		t.Fatalf("run as the node's user: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	watch, out, _ := startTroupe(t, repo, watcherEnv, "watch", "--json")
	defer func() { watch.Process.Kill(); watch.Wait() }()
	// The watch may subscribe after a quick run ends: run until it has seen one whole.
	testwait.For(t, 60*time.Second, func() error {
		r := troupe(t, repo, nodeEnv, "run", "--json", "--nats", url, "--model", model, "again")
		if r.code != 0 {
			t.Fatalf("another run: exit %d\n%s", r.code, r.stderr)
		}
		if !strings.Contains(out.text(), `"type":"session.finished"`) {
			return errors.New("troupe watch as the watcher saw no session finish")
		}
		return nil
	})
}
