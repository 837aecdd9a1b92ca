package actors

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// startNATSServer runs the real nats-server binary on a free loopback port and returns its URL.
func startNATSServer(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		t.Skip("nats-server is not installed (apt-get install nats-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, "-a", "127.0.0.1", "-p", strconv.Itoa(port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	url := "nats://127.0.0.1:" + strconv.Itoa(port)
	testwait.For(t, 10*time.Second, func() error {
		nc, err := nats.Connect(url)
		if err == nil {
			nc.Close()
		}
		return err
	})
	return url
}

// With nats set, the Node joins an external NATS server instead of starting its own: sessions
// run and publish there, and node.json points other processes at it.
func TestNodeJoinsAnExternalNATSServer(t *testing.T) {
	url := startNATSServer(t)
	root := t.TempDir()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644)
	s, err := llm.ParseScript("test", []byte(`{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"expect": "alpha", "text": "over the external bus"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tn := &testNode{provider: &recordingProvider{Provider: llm.NewScriptedFrom(s)}}
	node, err := StartNode(NodeOptions{Root: root, NATS: url, Retry: llm.RetryPolicy{MaxAttempts: 1},
		Provider: func(model, baseURL string, getenv func(string) string) (llm.Provider, string, error) {
			return tn.provider, "scripted", nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	tn.attach(t, node)
	if info, err := FindNode(root); err != nil || info.URL != url {
		t.Fatalf("node.json: %+v, %v", info, err)
	}
	// A plain client of that server sees the session's events.
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	seen := make(chan string, 64)
	sub, err := nc.Subscribe(messages.ProjectEventsSubject(node.NS), func(m *nats.Msg) { seen <- m.Subject })
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	nc.Flush()
	if fin := tn.run(t, "ext", "read a.txt"); fin.Final != "over the external bus" {
		t.Fatalf("finished %+v", fin)
	}
	testwait.Until(t, 10*time.Second, func() bool { return len(seen) > 3 }, "events on the external server")
}

func TestJoiningANATSServerThatIsNotThereFailsAtStart(t *testing.T) {
	_, err := StartNode(NodeOptions{Root: t.TempDir(), NATS: "nats://127.0.0.1:9"})
	if err == nil {
		t.Fatal("a node started on a NATS server that is not there")
	}
}
