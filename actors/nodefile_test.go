package actors

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

func TestFindNodeNeverDeletesTheNodeFile(t *testing.T) {
	root := t.TempDir()
	if _, err := EnsureStateDir(root); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"unreadable": "{not json",
		"dead pid":   `{"url":"nats://127.0.0.1:1","pid":999999999,"ns":"x","root":"/elsewhere"}`,
	} {
		if err := os.WriteFile(nodeFile(root), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := FindNode(root); !errors.Is(err, ErrNoNode) {
			t.Errorf("%s: FindNode = %v, want ErrNoNode", name, err)
		}
		if _, err := os.Stat(nodeFile(root)); err != nil {
			t.Errorf("%s: a client deleted node.json: %v", name, err)
		}
	}
}

func TestFindNodeTrustsOnlyThisProjectsLocalNode(t *testing.T) {
	root := t.TempDir()
	if _, err := EnsureStateDir(root); err != nil {
		t.Fatal(err)
	}
	mine := NodeInfo{URL: "nats://127.0.0.1:4222", PID: os.Getpid(), NS: messages.Namespace(root), Node: "n1", Root: root}
	for _, tc := range []struct {
		name    string
		change  func(*NodeInfo)
		allowed []string
		trusted bool
	}{
		{"this project, loopback", func(*NodeInfo) {}, nil, true},
		{"ipv6 loopback", func(i *NodeInfo) { i.URL = "nats://[::1]:4222" }, nil, true},
		{"copied from another project", func(i *NodeInfo) { i.Root = "/other"; i.NS = messages.Namespace("/other") }, nil, false},
		{"a project id of this checkout's repository", func(i *NodeInfo) { i.NS = "3f2a9c01be7d" }, nil, true},
		{"a namespace that cannot name a subject", func(i *NodeInfo) { i.NS = "a.b" }, nil, false},
		{"remote address", func(i *NodeInfo) { i.URL = "nats://203.0.113.7:4222" }, nil, false},
		{"remote address the user configured", func(i *NodeInfo) { i.URL = "nats://203.0.113.7:4222" }, []string{"nats://203.0.113.7:4222"}, true},
	} {
		info := mine
		tc.change(&info)
		if err := writeNodeFile(root, &info); err != nil {
			t.Fatal(err)
		}
		got, err := FindNode(root, tc.allowed...)
		switch {
		case tc.trusted && (err != nil || got.URL != info.URL):
			t.Errorf("%s: FindNode = %v, %v; want it trusted", tc.name, got, err)
		case !tc.trusted && !errors.Is(err, ErrForeignNode):
			t.Errorf("%s: FindNode err = %v; want ErrForeignNode", tc.name, err)
		}
		if _, err := os.Stat(nodeFile(root)); err != nil {
			t.Errorf("%s: node.json of a live process was deleted", tc.name)
		}
	}
}

// A project whose .troupe cannot be written keeps its state under the user's state directory,
// one directory per project root; a writable one keeps it in .troupe.
func TestStateDirFallsBackForAReadOnlyCheckout(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	root := t.TempDir()
	if got := StateDir(root); got != filepath.Join(root, ".troupe") || StateElsewhere(root) != "" {
		t.Fatalf("a writable checkout: state in %s", got)
	}
	// A file in the way cannot hold the state, whoever runs the test (root writes anything else).
	blocked := t.TempDir()
	if err := os.WriteFile(filepath.Join(blocked, ".troupe"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got := StateDir(blocked)
	if filepath.Dir(filepath.Dir(got)) != state || filepath.Base(filepath.Dir(got)) != "troupe" || StateElsewhere(blocked) != got {
		t.Fatalf("read-only checkout: state in %s, want under %s/troupe", got, state)
	}
	if other := StateDir(root + "-x"); other == got {
		t.Errorf("two projects share %s", got)
	}
	dir, err := EnsureStateDir(blocked)
	if err != nil || dir != got {
		t.Fatalf("EnsureStateDir = %s, %v", dir, err)
	}
	if os.Getuid() != 0 { // permissions bind everyone but root
		ro := t.TempDir()
		os.Chmod(ro, 0o555)
		t.Cleanup(func() { os.Chmod(ro, 0o755) })
		if StateElsewhere(ro) == "" {
			t.Errorf("a checkout without write permission keeps its state in it")
		}
	}
}

// A process that exited but was not reaped yet (a zombie) is not alive: troupe stop waits for a
// node a chat started, and that chat reaps it only later.
func TestProcessAliveSeesThroughZombies(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Skip("no true(1):", err)
	}
	defer cmd.Wait()
	testwait.Until(t, 10*time.Second, func() bool { return !ProcessAlive(cmd.Process.Pid) }, "the exited child to read as not alive")
	if !ProcessAlive(os.Getpid()) {
		t.Error("this process reads as not alive")
	}
}
