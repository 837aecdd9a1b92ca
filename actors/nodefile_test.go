package actors

import (
	"errors"
	"os"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

func TestFindNodeNeverDeletesTheNodeFile(t *testing.T) {
	root := t.TempDir()
	if err := ensureStateDir(root); err != nil {
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
	if err := ensureStateDir(root); err != nil {
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
		{"namespace of another project", func(i *NodeInfo) { i.NS = messages.Namespace("/other") }, nil, false},
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
