package sandbox

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMain lets the test binary serve as the launcher: Wrap points at os.Args[0].
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == LauncherCommand {
		os.Exit(LauncherMain(os.Args[2:]))
	}
	if addr := os.Getenv(dialHelperEnv); addr != "" {
		os.Exit(dialUnix(addr))
	}
	os.Exit(m.Run())
}

// runIn runs a bash command under sb with the workspace and temp dir writable.
func runIn(t *testing.T, sb *Sandbox, dir, tmp, script string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	if err := sb.Wrap(cmd, []string{dir, tmp}); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func sandboxes(t *testing.T) map[Mode]*Sandbox {
	sup := Detect()
	t.Logf("support: %+v", sup)
	out := map[Mode]*Sandbox{}
	for _, m := range []Mode{ModeLandlock, ModeBwrap} {
		sb, err := New(m, os.Args[0], sup)
		if err != nil {
			t.Logf("%s unavailable here: %v", m, err)
			continue
		}
		out[m] = sb
	}
	if len(out) == 0 {
		t.Skip("neither Landlock nor bubblewrap works on this machine")
	}
	return out
}

func TestConfinedCommandsWriteOnlyTheWorkspaceAndTemp(t *testing.T) {
	for mode, sb := range sandboxes(t) {
		t.Run(string(mode), func(t *testing.T) {
			dir, tmp := t.TempDir(), t.TempDir()
			out, err := runIn(t, sb, dir, tmp, "echo ws > ws.txt && echo t > "+tmp+"/t.txt && echo x > /dev/null && cat /etc/hostname >/dev/null && echo ok")
			if err != nil || !strings.Contains(out, "ok") {
				t.Fatalf("allowed writes failed: %v\n%s", err, out)
			}
			if _, err := os.Stat(filepath.Join(dir, "ws.txt")); err != nil {
				t.Error("workspace write did not land")
			}
			out, err = runIn(t, sb, dir, tmp, "echo pwned > /etc/troupe-sandbox-test")
			if err == nil {
				os.Remove("/etc/troupe-sandbox-test")
				t.Fatalf("writing /etc succeeded under %s: %s", mode, out)
			}
			if !strings.Contains(out, "Permission denied") && !strings.Contains(out, "Read-only file system") {
				t.Errorf("unexpected failure writing /etc: %s", out)
			}
			outside := filepath.Join(filepath.Dir(dir), "outside-"+filepath.Base(dir))
			if _, err := runIn(t, sb, dir, tmp, "echo x > "+outside); err == nil {
				os.Remove(outside)
				t.Errorf("writing beside the workspace succeeded under %s", mode)
			}
		})
	}
}

func TestConfinedCommandsCannotReachTheNetwork(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	probe := "exec 3<>/dev/tcp/127.0.0.1/" + strconv.Itoa(port) + " && echo connected"
	off, _ := New(ModeOff, os.Args[0], Detect())
	if out, err := runIn(t, off, t.TempDir(), t.TempDir(), probe); err != nil || !strings.Contains(out, "connected") {
		t.Skipf("no loopback TCP here even unconfined: %v %s", err, out)
	}
	for mode, sb := range sandboxes(t) {
		t.Run(string(mode), func(t *testing.T) {
			if !sb.netOff {
				t.Skipf("%s cannot deny the network here: %s", mode, sb.Describe())
			}
			out, err := runIn(t, sb, t.TempDir(), t.TempDir(), probe)
			if err == nil || strings.Contains(out, "connected") {
				t.Fatalf("a TCP connect succeeded under %s: %s", mode, out)
			}
		})
	}
}

func TestNewRefusesWhatCannotWork(t *testing.T) {
	none := Support{Note: "test machine"}
	for _, m := range []Mode{ModeLandlock, ModeBwrap, "chroot"} {
		if _, err := New(m, "troupe", none); err == nil {
			t.Errorf("New(%s) on a machine without it succeeded", m)
		}
	}
	sb, err := New(ModeAuto, "troupe", none)
	if err != nil || sb.Active() != ModeOff || !strings.Contains(sb.Describe(), "off") {
		t.Errorf("auto without support: %v %v %q", sb, err, sb.Describe())
	}
	sb, _ = New(ModeAuto, "troupe", Support{LandlockABI: 3})
	if sb.Active() != ModeLandlock || !strings.Contains(sb.Describe(), "network not restricted") {
		t.Errorf("auto with landlock 3: %s %q", sb.Active(), sb.Describe())
	}
}

func TestLauncherArguments(t *testing.T) {
	for _, args := range [][]string{{}, {"--rw"}, {"--bogus"}, {"--rw", "/tmp"}, {"--"}} {
		if _, err := parseLauncherArgs(args); err == nil {
			t.Errorf("parseLauncherArgs(%q) accepted", args)
		}
	}
	spec, err := parseLauncherArgs([]string{"--rw", "/a", "--no-net", "--hide", "/h", "--rw", "/b", "--", "bash", "-c", "x"})
	if err != nil || len(spec.rw) != 2 || len(spec.hide) != 1 || !spec.noNet || strings.Join(spec.argv, " ") != "bash -c x" {
		t.Errorf("parse = %+v %v", spec, err)
	}
}

// DetectFor skips the bubblewrap trial where it cannot matter, so it must choose exactly the
// sandbox the full detection chooses, for every mode.
func TestDetectForChoosesWhatDetectChooses(t *testing.T) {
	full := Detect()
	for _, m := range []Mode{"", ModeAuto, ModeLandlock, ModeBwrap, ModeOff} {
		want, wantErr := New(m, "troupe", full)
		got, gotErr := New(m, "troupe", DetectFor(m))
		if (wantErr == nil) != (gotErr == nil) {
			t.Errorf("mode %q: with Detect err=%v, with DetectFor err=%v", m, wantErr, gotErr)
			continue
		}
		if wantErr == nil && (got.Active() != want.Active() || got.Describe() != want.Describe()) {
			t.Errorf("mode %q: Detect chooses %s (%s), DetectFor %s (%s)", m, want.Active(), want.Describe(), got.Active(), got.Describe())
		}
	}
}
