package actors

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/tools/hooks"
)

func TestHooksViewListsEachHookAndWhySomeAreSkipped(t *testing.T) {
	if got := hooksView(commandSnapshot{}, ""); !strings.Contains(got, "no hooks configured") {
		t.Errorf("empty: %q", got)
	}
	set, _ := hooks.NewSet([]hooks.Hook{
		{Event: hooks.PreToolUse, Matcher: "bash", Command: "./guard.sh", TimeoutS: 10, Source: "/u/config.toml"},
		{Event: hooks.Stop, Command: "make test", Source: "/p/.claude/settings.json", Claude: true, Skipped: "the project is not trusted"},
	})
	got := hooksView(commandSnapshot{Hooks: set.All()}, "")
	for _, want := range []string{"PreToolUse", "bash", "./guard.sh", "10s", "/u/config.toml",
		"skipped: Stop", "*", "60s", "Claude Code names", "skipped because the project is not trusted"} {
		if !strings.Contains(got, want) {
			t.Errorf("/hooks lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(strings.Split(got, "\n")[0], "skipped") {
		t.Errorf("the running hook is marked skipped:\n%s", got)
	}
}
