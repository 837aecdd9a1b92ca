package diagnose

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/tools/sandbox"
)

type fakeConfinement struct{}

func (fakeConfinement) Describe() string { return "landlock (ABI 5)" }
func (fakeConfinement) Holes() []string  { return []string{"network is open", "/tmp is shared"} }

func TestInForceSaysWhatConfinesCommandsAndItsHoles(t *testing.T) {
	off := InForce(nil)
	if len(off) != 1 || off[0].Status != Note || !strings.Contains(off[0].Detail, "unsandboxed") || off[0].Fix == "" {
		t.Errorf("no sandbox: %+v", off)
	}
	on := InForce(fakeConfinement{})
	if len(on) != 3 || on[0].Status != OK || on[0].Detail != "landlock (ABI 5)" || on[1].Detail != "network is open" || on[2].Status != Note {
		t.Errorf("a sandbox: %+v", on)
	}
}

func TestWriteRendersFixesAndCountsFailures(t *testing.T) {
	var b strings.Builder
	failed := Write(&b, []Check{
		{Name: "store", Status: OK, Detail: "fine"},
		{Name: "bus", Status: Fail, Detail: "down", Fix: "start it"},
		Command("no-such-program-troupe-test", "install it"),
	})
	want := "ok   store      fine\n" +
		"FAIL bus        down\n" +
		"                fix: start it\n" +
		"--   no-such-program-troupe-test no-such-program-troupe-test not found\n" +
		"                fix: install it\n"
	if failed != 1 || b.String() != want {
		t.Errorf("failed %d, output:\n%s\nwant:\n%s", failed, b.String(), want)
	}
}

func TestSandboxRefusesAnUnknownMode(t *testing.T) {
	checks := Sandbox(sandbox.Mode("bogus"), "troupe")
	if len(checks) != 1 || checks[0].Status != Fail || !strings.Contains(checks[0].Detail, "bogus") || checks[0].Fix != "use --sandbox auto or off" {
		t.Errorf("bogus mode: %+v", checks)
	}
	if off := Sandbox(sandbox.ModeOff, "troupe"); len(off) == 0 || off[0].Name != "sandbox" {
		t.Errorf("off: %+v", off)
	}
}
