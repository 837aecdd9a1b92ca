package diagnose

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/store"
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

func TestProviderSaysWhatIsMissingWithoutAskingTheEndpoint(t *testing.T) {
	none := func(string) string { return "" }
	checks := Provider("", "", none, false)
	last := checks[len(checks)-1]
	if last.Name != "model" || last.Status != Note || !strings.Contains(last.Fix, "--model") {
		t.Errorf("no model: %+v", last)
	}
	for _, c := range checks[:len(checks)-1] {
		if c.Name != "key" || c.Status != Note || !strings.HasSuffix(c.Detail, "is not set") {
			t.Errorf("no keys set: %+v", c)
		}
	}
	checks = Provider("nosuchprovider/model-1", "", none, false)
	if last := checks[len(checks)-1]; last.Name != "model" || last.Status != Fail {
		t.Errorf("an unknown provider: %+v", last)
	}
}

func TestStoreAtOpensTheStoreAndNamesALockedOne(t *testing.T) {
	dir := t.TempDir()
	if c := StoreAt(dir); c.Status != OK || c.Detail != dir {
		t.Fatalf("a free store: %+v", c)
	}
	st, err := store.Open(dir, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if c := StoreAt(dir); c.Status != Fail || !strings.Contains(c.Fix, "stop it") {
		t.Errorf("a held store: %+v", c)
	}
}
