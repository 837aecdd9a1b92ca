package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// server is a nats-server process with JetStream in a temporary directory.
type server struct {
	cmd     *exec.Cmd
	url     string
	version string
}

func startServer(work string) (*server, error) {
	bin := os.Getenv("TROUPE_NATS_SERVER")
	if bin == "" {
		bin = "/usr/sbin/nats-server"
		if p, err := exec.LookPath("nats-server"); err == nil {
			bin = p
		}
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("no nats-server (install Debian's nats-server package, or set TROUPE_NATS_SERVER): %w", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir := filepath.Join(work, "nats")
	cmd := exec.Command(bin, "-a", "127.0.0.1", "-p", fmt.Sprint(port), "-js", "-sd", dir)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, url: fmt.Sprintf("nats://127.0.0.1:%d", port),
		version: strings.TrimPrefix(strings.TrimSpace(string(out)), "nats-server: ")}
	deadline := time.Now().Add(30 * time.Second)
	for {
		nc, js, err := s.connect()
		if err == nil {
			_, err = js.AccountInfo(context.Background())
			nc.Close()
			if err == nil {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, errors.Join(errors.New("nats-server did not come up"), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *server) connect() (*nats.Conn, jetstream.JetStream, error) {
	nc, err := nats.Connect(s.url)
	if err != nil {
		return nil, nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return nc, js, nil
}

// openPart is the head of each bench part that moves code: the generated repository of mb MB
// under work, and a connection to the server.
func (s *server) openPart(work string, mb int) (string, *nats.Conn, jetstream.JetStream, error) {
	parent, err := ensureRepo(work, mb)
	if err != nil {
		return "", nil, nil, err
	}
	nc, js, err := s.connect()
	return parent, nc, js, err
}

func (s *server) stop() {
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}
