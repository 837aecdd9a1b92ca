package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/mcptest"
	"github.com/troupe-dev/troupe/internal/testwait"
)

func TestMain(m *testing.M) {
	code := m.Run()
	mcptest.Cleanup()
	os.Exit(code)
}

// testServer runs the Go fault server in mode.
func testServer(t *testing.T, mode string) Options {
	return Options{Server: config.MCPServer{Name: "t", Command: mcptest.Binary(t), Env: map[string]string{mcptest.Variable: mode}, Source: "test"},
		Root: os.TempDir(), Environ: []string{"PATH=" + os.Getenv("PATH")}}
}

func dial(t *testing.T, opt Options) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(20*time.Second))
	defer cancel()
	c, err := Dial(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func toolNamed(ts []Tool, name string) (Tool, bool) {
	for _, t := range ts {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// TestGoServerToolsAndFaults: the tools are listed with their schemas and readOnlyHint; a call
// answers; a call past its deadline fails without waiting for the late answer (the connection
// stays usable); a crash mid-call fails the call and ends the Conn.
func TestGoServerToolsAndFaults(t *testing.T) {
	c := dial(t, testServer(t, mcptest.ModeTools))
	ctx := context.Background()
	ts, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	echo, ok := toolNamed(ts, "echo")
	if !ok || !echo.ReadOnly || !strings.Contains(string(echo.Schema), `"msg"`) {
		t.Fatalf("echo = %+v (tools %d)", echo, len(ts))
	}
	if sleep, _ := toolNamed(ts, "sleep"); sleep.ReadOnly {
		t.Errorf("sleep is not read-only")
	}
	out, err := c.Call(ctx, "echo", json.RawMessage(`{"msg":"hi"}`))
	if err != nil || out.IsError || out.Text != "echo: hi" {
		t.Fatalf("echo: %+v %v", out, err)
	}

	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	began := time.Now()
	_, err = c.Call(short, "sleep", json.RawMessage(`{"ms":3000}`))
	cancel()
	if err == nil || time.Since(began) > testwait.Scale(2*time.Second) {
		t.Fatalf("a call past its deadline: err %v after %s", err, time.Since(began))
	}
	if out, err := c.Call(ctx, "echo", json.RawMessage(`{"msg":"after"}`)); err != nil || out.Text != "echo: after" {
		t.Fatalf("the connection after a timed-out call: %+v %v", out, err)
	}

	if _, err := c.Call(ctx, "crash", nil); err == nil {
		t.Fatal("a call whose server exits got no error")
	}
	select {
	case <-c.Done():
	case <-time.After(testwait.Scale(10 * time.Second)):
		t.Fatal("the Conn did not end when its server exited")
	}
	if !strings.Contains(c.Err().Error(), "exit status 7") {
		t.Errorf("Err = %v; want the exit status", c.Err())
	}
}

// TestServerThatFailsToStart: not installed, or crashing during initialize, is one line that
// says what happened and how to fix it.
func TestServerThatFailsToStart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(20*time.Second))
	defer cancel()
	missing := testServer(t, "")
	missing.Server.Command, missing.Server.Source = "no-such-mcp-server", ".mcp.json"
	_, err := Dial(ctx, missing)
	if err == nil || !strings.Contains(err.Error(), `command "no-such-mcp-server" not found`) || !strings.Contains(err.Error(), "fix command in .mcp.json") {
		t.Errorf("not installed: %v", err)
	}
	_, err = Dial(ctx, testServer(t, mcptest.ModeCrashInit))
	if err == nil || !strings.Contains(err.Error(), "failed during initialize") || !strings.Contains(err.Error(), "cannot read /nonexistent/config.json") ||
		strings.Contains(err.Error(), "\n") {
		t.Errorf("crash during initialize: %v", err)
	}
}

// TestReferenceServerOverStdio: the npm reference server, as an agent's user configures it.
func TestReferenceServerOverStdio(t *testing.T) {
	node, script := mcptest.Reference(t, "server-everything")
	c := dial(t, Options{Server: config.MCPServer{Name: "everything", Command: node, Args: []string{script, "stdio"}},
		Root: t.TempDir(), Environ: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}})
	checkEverything(t, c)
}

// TestReferenceServerOverStreamableHTTP: the same server over streamable HTTP.
func TestReferenceServerOverStreamableHTTP(t *testing.T) {
	node, script := mcptest.Reference(t, "server-everything")
	port := freePort(t)
	cmd := exec.Command(node, script, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	testwait.Until(t, 20*time.Second, func() bool {
		conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			conn.Close()
		}
		return err == nil
	}, "the HTTP server listening")
	c := dial(t, Options{Server: config.MCPServer{Name: "everything", Type: "http", URL: url, Headers: map[string]string{"X-Test": "1"}}})
	checkEverything(t, c)
}

func checkEverything(t *testing.T, c *Conn) {
	t.Helper()
	ts, err := c.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	echo, ok := toolNamed(ts, "echo")
	if !ok || !echo.ReadOnly {
		t.Fatalf("no read-only echo among %d tools", len(ts))
	}
	out, err := c.Call(context.Background(), "echo", json.RawMessage(`{"message":"hello mcp"}`))
	if err != nil || out.IsError || !strings.Contains(out.Text, "hello mcp") {
		t.Fatalf("echo: %+v %v", out, err)
	}
	out, err = c.Call(context.Background(), "get-sum", json.RawMessage(`{"a":2,"b":3}`))
	if err != nil || !strings.Contains(out.Text, "5") {
		t.Fatalf("get-sum: %+v %v", out, err)
	}
	// The reference server's image tool: the image comes apart from the text, as bytes.
	out, err = c.Call(context.Background(), "get-tiny-image", json.RawMessage(`{}`))
	if err != nil || len(out.Images) != 1 || out.Images[0].MediaType != "image/png" || !bytes.HasPrefix(out.Images[0].Data, []byte("\x89PNG")) {
		t.Fatalf("get-tiny-image: %d images, text %q, %v", len(out.Images), out.Text, err)
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
