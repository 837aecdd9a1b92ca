package sandbox

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// dialHelperEnv makes the test binary dial the unix socket it names and exit (see TestMain):
// bash cannot connect to a unix socket itself.
const dialHelperEnv = "TROUPE_SANDBOX_TEST_DIAL"

func dialUnix(addr string) int {
	c, err := net.Dial("unix", addr)
	if err != nil {
		fmt.Println("dial failed:", err)
		return 1
	}
	c.Close()
	fmt.Println("connected")
	return 0
}

// landlockScoped returns a Landlock sandbox whose kernel has the ABI 6 scopes, or skips.
func landlockScoped(t *testing.T) *Sandbox {
	sup := Detect()
	if sup.LandlockABI < abiScoped {
		t.Skipf("Landlock ABI %d here: signals and abstract sockets need ABI %d (doctor reports them open)", sup.LandlockABI, abiScoped)
	}
	sb, err := New(ModeLandlock, os.Args[0], sup)
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

// TestConfinedCommandsCannotSignalTroupe: under Landlock ABI ≥ 6 a command cannot signal the
// process that started it (troupe), though it can unconfined.
func TestConfinedCommandsCannotSignalTroupe(t *testing.T) {
	sb := landlockScoped(t)
	probe := "kill -0 " + strconv.Itoa(os.Getpid()) + " && echo signalled"
	off, _ := New(ModeOff, os.Args[0], Detect())
	if out, err := runIn(t, off, t.TempDir(), t.TempDir(), probe); err != nil || !strings.Contains(out, "signalled") {
		t.Fatalf("unconfined, the probe could not signal the test process: %v %s", err, out)
	}
	out, err := runIn(t, sb, t.TempDir(), t.TempDir(), probe)
	if err == nil || strings.Contains(out, "signalled") {
		t.Fatalf("a confined command signalled troupe: %s", out)
	}
	if !strings.Contains(out, "not permitted") {
		t.Errorf("want EPERM from kill, got: %s", out)
	}
}

// TestConfinedCommandsCannotReachAbstractSockets: under Landlock ABI ≥ 6 a command cannot
// connect to an abstract unix socket bound outside the sandbox.
func TestConfinedCommandsCannotReachAbstractSockets(t *testing.T) {
	sb := landlockScoped(t)
	addr := "@troupe-sandbox-test-" + strconv.Itoa(os.Getpid())
	ln, err := net.Listen("unix", addr)
	if err != nil {
		t.Skipf("no abstract unix sockets here: %v", err)
	}
	defer ln.Close()
	go func() { // stops when ln is closed
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	probe := dialHelperEnv + "=" + addr + " " + os.Args[0]
	off, _ := New(ModeOff, os.Args[0], Detect())
	if out, err := runIn(t, off, t.TempDir(), t.TempDir(), probe); err != nil || !strings.Contains(out, "connected") {
		t.Fatalf("unconfined, the probe could not connect: %v %s", err, out)
	}
	out, err := runIn(t, sb, t.TempDir(), t.TempDir(), probe)
	if err == nil || strings.Contains(out, "connected") {
		t.Fatalf("a confined command connected to an abstract socket outside: %s", out)
	}
}

func TestHolesSayWhatStaysOpen(t *testing.T) {
	tests := []struct {
		abi      int
		open     []string
		notOpen  []string
		describe string
	}{
		{abi: 3, open: []string{"TCP: open", "UDP: open", "signals", "abstract unix sockets", "unix sockets by path"}},
		{abi: 7, open: []string{"UDP: open (Landlock ABI 7 cannot restrict it, ABI 10 would; use --sandbox bwrap)", "unix sockets by path"},
			notOpen: []string{"TCP", "signals", "abstract"}, describe: "signals and abstract unix sockets cannot reach outside"},
		{abi: 11, notOpen: []string{"TCP", "UDP", "signals", "abstract", "unix sockets by path"}},
	}
	for _, tc := range tests {
		sb, err := New(ModeLandlock, "troupe", Support{LandlockABI: tc.abi})
		if err != nil {
			t.Fatal(err)
		}
		holes := strings.Join(sb.Holes(), "\n")
		for _, w := range tc.open {
			if !strings.Contains(holes, w) {
				t.Errorf("ABI %d: holes lack %q:\n%s", tc.abi, w, holes)
			}
		}
		for _, w := range tc.notOpen {
			if strings.Contains(holes, w) {
				t.Errorf("ABI %d: holes claim %q is open:\n%s", tc.abi, w, holes)
			}
		}
		if !strings.Contains(sb.Describe(), tc.describe) {
			t.Errorf("ABI %d: Describe = %q, want it to say %q", tc.abi, sb.Describe(), tc.describe)
		}
	}
}
