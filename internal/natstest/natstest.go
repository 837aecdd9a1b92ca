// Package natstest runs the stock nats-server binary (Debian's /usr/sbin/nats-server, 2.9)
// as an N-node JetStream cluster on loopback for tests: a generated config per node (free
// ports, store directories under the test's temp dir, an optional accounts/users/permissions
// block and any extra config such as tls or an operator), a readiness poll on /healthz with
// testwait deadlines, Kill(i)/Restart(i) to take a node down and bring it back, and cleanup
// through t.Cleanup. It tests troupe against the server users deploy, not the embedded one.
package natstest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
)

// Binary is the nats-server a test runs: $TROUPE_NATS_SERVER, else /usr/sbin/nats-server,
// else nats-server on PATH. It is "" when none exists.
func Binary() string {
	if p := os.Getenv("TROUPE_NATS_SERVER"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nats-server"); err == nil {
		return "/usr/sbin/nats-server"
	}
	if p, err := exec.LookPath("nats-server"); err == nil {
		return p
	}
	return ""
}

// Options shape the cluster. The zero value is one JetStream node without auth.
type Options struct {
	// Nodes is the cluster size (default 1; a single node runs without a cluster block).
	Nodes int
	// NoJetStream leaves JetStream off (it is on by default).
	NoJetStream bool
	// Accounts is config text inserted verbatim into every node's config, typically an
	// `accounts { A: { jetstream: enabled, users: [...] } }` block with permissions, or an
	// `authorization { ... }` block. Accounts that use JetStream need `jetstream: enabled`.
	Accounts string
	// Extra is more config text inserted verbatim (tls { ... }, operator/resolver, limits).
	// The token "{{DIR}}" in Accounts and Extra is replaced by the cluster's directory.
	Extra string
	// Ready, when set, replaces the default readiness check (every node's /healthz answers
	// ok, which in 2.9 includes a known JetStream meta leader).
	Ready func(c *Cluster) error
}

// Cluster is a running set of nats-server processes. Its methods are safe for concurrent use.
type Cluster struct {
	t     testing.TB
	bin   string
	dir   string
	opts  Options
	mu    sync.Mutex
	nodes []*node
}

type node struct {
	name            string
	client, cluster int
	monitor         int
	conf, log       string
	cmd             *exec.Cmd
	done            chan struct{}
}

// Start runs the cluster and waits until it is ready; the test is skipped with a plain
// reason when no nats-server binary exists, and fails when the cluster does not come up.
// Everything is stopped and removed when the test ends.
func Start(t testing.TB, opts Options) *Cluster {
	t.Helper()
	bin := Binary()
	if bin == "" {
		t.Skip("natstest: no nats-server binary (install Debian's nats-server package, or set TROUPE_NATS_SERVER to one)")
	}
	if opts.Nodes <= 0 {
		opts.Nodes = 1
	}
	c := &Cluster{t: t, bin: bin, dir: t.TempDir(), opts: opts}
	t.Cleanup(c.Shutdown)
	// Free ports are found by binding and releasing them, so another process may take one
	// before the server binds it: a cluster that fails to start is retried on new ports.
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.launch(); err == nil {
			break
		}
		c.Shutdown()
	}
	if err != nil {
		t.Fatalf("natstest: start %d-node cluster: %v", opts.Nodes, err)
	}
	c.WaitReady()
	return c
}

func (c *Cluster) launch() error {
	ports, err := freePorts(3 * c.opts.Nodes)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.nodes = make([]*node, c.opts.Nodes)
	for i := range c.nodes {
		c.nodes[i] = &node{
			name:    fmt.Sprintf("n%d", i),
			client:  ports[3*i],
			cluster: ports[3*i+1],
			monitor: ports[3*i+2],
			conf:    filepath.Join(c.dir, fmt.Sprintf("n%d.conf", i)),
			log:     filepath.Join(c.dir, fmt.Sprintf("n%d.log", i)),
		}
	}
	for i, n := range c.nodes {
		if err := os.WriteFile(n.conf, []byte(c.config(i)), 0o600); err != nil {
			c.mu.Unlock()
			return fmt.Errorf("write config: %w", err)
		}
	}
	c.mu.Unlock()
	for i := range c.nodes {
		if err := c.spawn(i); err != nil {
			return err
		}
	}
	// A node that lost a port race exits at once; catch that here so Start retries.
	return c.pollUp()
}

func (c *Cluster) pollUp() error {
	deadline := time.Now().Add(testwait.Scale(10 * time.Second))
	for {
		up := 0
		for i := range c.nodes {
			n := c.node(i)
			select {
			case <-n.done:
				return fmt.Errorf("node %s exited: %s", n.name, tail(n.log))
			default:
			}
			if conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", n.client), time.Second); err == nil {
				conn.Close()
				up++
			}
		}
		if up == len(c.nodes) {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("nodes do not accept connections")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// config is node i's configuration file.
func (c *Cluster) config(i int) string {
	n := c.nodes[i]
	var b strings.Builder
	fmt.Fprintf(&b, "server_name: %s\nlisten: 127.0.0.1:%d\nhttp: 127.0.0.1:%d\n", n.name, n.client, n.monitor)
	if !c.opts.NoJetStream {
		fmt.Fprintf(&b, "jetstream {\n  store_dir: %q\n  max_memory_store: 256MB\n  max_file_store: 2GB\n}\n",
			filepath.Join(c.dir, n.name+"-js"))
	}
	if len(c.nodes) > 1 {
		var routes []string
		for j, o := range c.nodes {
			if j != i {
				routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", o.cluster))
			}
		}
		fmt.Fprintf(&b, "cluster {\n  name: troupe-test\n  listen: 127.0.0.1:%d\n  routes: [%s]\n}\n",
			n.cluster, strings.Join(routes, ", "))
	}
	for _, block := range []string{c.opts.Accounts, c.opts.Extra} {
		if block != "" {
			b.WriteString(strings.ReplaceAll(block, "{{DIR}}", c.dir))
			b.WriteString("\n")
		}
	}
	return b.String()
}

func (c *Cluster) spawn(i int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.nodes[i]
	logf, err := os.OpenFile(n.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open log: %w", err)
	}
	cmd := exec.Command(c.bin, "-c", n.conf)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("start %s: %w", c.bin, err)
	}
	n.cmd, n.done = cmd, make(chan struct{})
	go func(done chan struct{}) { // owned by the node: ends when the process does
		cmd.Wait()
		logf.Close()
		close(done)
	}(n.done)
	return nil
}

func (c *Cluster) node(i int) *node {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i < 0 || i >= len(c.nodes) {
		c.t.Fatalf("natstest: no node %d in a %d-node cluster", i, len(c.nodes))
	}
	return c.nodes[i]
}

// WaitReady waits until the cluster is ready (Options.Ready, or every running node's
// /healthz is ok), failing the test with the last reason and the nodes' log tails.
func (c *Cluster) WaitReady() {
	c.t.Helper()
	check := c.opts.Ready
	if check == nil {
		check = (*Cluster).healthy
	}
	deadline := time.Now().Add(testwait.Scale(30 * time.Second))
	for {
		err := check(c)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("natstest: cluster not ready within %v: %v\n%s", testwait.Scale(30*time.Second), err, c.Logs())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (c *Cluster) healthy() error {
	client := http.Client{Timeout: 2 * time.Second}
	for i := range c.Len() {
		if !c.Running(i) {
			continue
		}
		n := c.node(i)
		resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:%d/healthz", n.monitor))
		if err != nil {
			return fmt.Errorf("%s: %w", n.name, err)
		}
		var body bytes.Buffer
		body.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s /healthz: %s %s", n.name, resp.Status, strings.TrimSpace(body.String()))
		}
	}
	return nil
}

// Len is the number of nodes.
func (c *Cluster) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.nodes)
}

// URL is every node's client URL joined by commas, as nats.Connect and --nats take it.
func (c *Cluster) URL() string {
	var urls []string
	for i := range c.Len() {
		urls = append(urls, c.NodeURL(i))
	}
	return strings.Join(urls, ",")
}

// NodeURL is node i's client URL.
func (c *Cluster) NodeURL(i int) string {
	return fmt.Sprintf("nats://127.0.0.1:%d", c.node(i).client)
}

// MonitorURL is node i's HTTP monitoring base URL (/healthz, /varz, /jsz).
func (c *Cluster) MonitorURL(i int) string {
	return fmt.Sprintf("http://127.0.0.1:%d", c.node(i).monitor)
}

// Dir is the cluster's directory (configs, logs, JetStream stores); {{DIR}} in Options.
func (c *Cluster) Dir() string { return c.dir }

// ConfigFile is node i's generated configuration file.
func (c *Cluster) ConfigFile(i int) string { return c.node(i).conf }

// freePorts binds n loopback ports at once (so they are distinct) and releases them.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
