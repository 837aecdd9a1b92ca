package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/cmdtree"
)

// TestSubcommandTableNamesEachCommand: cmdtree.For builds only the command whose name in the
// table is the first argument, so a name there that is not the command's own would make it
// unreachable by name.
func TestSubcommandTableNamesEachCommand(t *testing.T) {
	m := &Main{}
	seen := map[string]bool{}
	for _, s := range m.subcommands() {
		if got := s.Build().Name(); got != s.Name {
			t.Errorf("table name %q builds the command %q", s.Name, got)
		}
		if seen[s.Name] {
			t.Errorf("%q is twice in the table", s.Name)
		}
		seen[s.Name] = true
	}
}

// TestCommandsForBuildsOnlyTheNamedCommand: a first argument naming a command builds that one;
// anything else (a flag, help, a prompt word, a near miss) builds them all, which help,
// completion and suggestions need.
func TestCommandsForBuildsOnlyTheNamedCommand(t *testing.T) {
	m := &Main{}
	all := len(m.subcommands())
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"version"}, 1},
		{[]string{"run", "--help"}, 1},
		{nil, all},
		{[]string{"--help"}, all},
		{[]string{"help", "run"}, all},
		{[]string{"sesions"}, all},
		{[]string{"fix", "the", "bug"}, all},
	} {
		if got := len(cmdtree.For(c.args, m.subcommands())); got != c.want {
			t.Errorf("cmdtree.For(%q) built %d commands, want %d", c.args, got, c.want)
		}
	}
}

// TestNamedCommandRunsAndHelpListsAll: with the tree built for the first argument, the command
// still runs and shows its own help, and the root's help and suggestions still see every
// command.
func TestNamedCommandRunsAndHelpListsAll(t *testing.T) {
	run := func(args ...string) (string, int) {
		var out bytes.Buffer
		m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
		code := m.Run(t.Context(), args)
		return out.String(), code
	}
	if out, code := run("version"); code != 0 || !strings.HasPrefix(out, "troupe ") {
		t.Errorf("troupe version: exit %d, %q", code, out)
	}
	if out, code := run("stats", "--help"); code != 0 || !strings.Contains(out, "troupe stats") {
		t.Errorf("troupe stats --help: exit %d, %q", code, out)
	}
	out, code := run("--help")
	for _, s := range (&Main{}).subcommands() {
		if cmd := s.Build(); !cmd.Hidden && !strings.Contains(out, "\n  "+s.Name+" ") {
			t.Errorf("troupe --help (exit %d) does not list %q:\n%s", code, s.Name, out)
		}
	}
	if out, code := run("sesions"); code != exitUsage || !strings.Contains(out, "did you mean 'sessions'") {
		t.Errorf("troupe sesions: exit %d, %q", code, out)
	}
	// help on a command that does not exist is a usage error in one line, not the root's help
	if out, code := run("help", "sesions"); code != exitUsage || strings.Count(out, "\n") != 1 || !strings.Contains(out, "did you mean 'sessions'") {
		t.Errorf("troupe help sesions: exit %d, %q", code, out)
	}
	if out, code := run("help", "bogus"); code != exitUsage || strings.Count(out, "\n") != 1 || !strings.Contains(out, "bogus") {
		t.Errorf("troupe help bogus: exit %d, %q", code, out)
	}
	if out, code := run("help", "stats"); code != 0 || !strings.Contains(out, "troupe stats") {
		t.Errorf("troupe help stats: exit %d, %q", code, out)
	}
}
