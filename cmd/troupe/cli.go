package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/buildinfo"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/setup"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/starttrace"
	"github.com/troupe-dev/troupe/internal/nearest"
	"github.com/troupe-dev/troupe/tools/sandbox"
)

// Exit codes: the outcome of a run, for scripts.
const (
	exitDone        = clierr.Done
	exitFailed      = clierr.Failed
	exitUsage       = clierr.Usage
	exitInterrupted = clierr.Interrupted
)

// Main is the troupe CLI with its streams and environment injected, so tests run it in-process
// as well as through the built binary.
type Main struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// ExitAfterRun says the process exits when Run returns (the real binary, not a test calling
	// Run): a Node this process owns then leaves its store synced but unclosed (see
	// actors.Node.CloseForExit), which keeps the exit short.
	ExitAfterRun bool
	// NodeProcess runs the project's Node as a background process of its own, started on first
	// use and stopped when idle, every CLI process being only its client (the real binary). A
	// test driving the CLI in-process starts it in-process instead.
	NodeProcess bool
	log         *slog.Logger
	trace       *starttrace.Trace // nil unless TROUPE_TRACE_START=1
	prewarm     *actors.Prewarm   // a node started early: what it did while it waited (prewarmNode)
}

// exitError carries an exit code and a one-line message up to Run.
type exitError = clierr.Error

func usageErr(format string, args ...any) error { return clierr.Usagef(format, args...) }

// exitCode is an error that only sets the exit code (the command already said what happened).
func exitCode(code int) error { return &exitError{Code: code} }

// Run runs the CLI with args (without the program name) and returns the exit code. It never
// panics at the user: a bug is reported as one line with a hint.
func (m *Main) Run(ctx context.Context, args []string) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(m.Stderr, "troupe: internal error: %v (please report it with the command you ran)\n", p)
			code = exitFailed
		}
	}()
	m.trace = starttrace.New(m.Stderr, m.Getenv)
	m.trace.Mark(starttrace.Main)
	defer m.trace.Mark(starttrace.Exit)
	m.log = setup.Logger(m.Stderr, m.Getenv("TROUPE_LOG"))
	root := m.rootCommand(args)
	root.SetArgs(args)
	root.SetIn(m.Stdin)
	root.SetOut(m.Stdout)
	root.SetErr(m.Stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitDone
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.Msg != "" {
			fmt.Fprintf(m.Stderr, "troupe: %s\n", ee.Msg)
		}
		return ee.Code
	}
	// What is left are cobra's own errors (unknown command, bad arguments): usage errors,
	// pointing at the help of the command that was misused.
	path := "troupe"
	if cmd != nil {
		path = cmd.CommandPath()
	}
	fmt.Fprintf(m.Stderr, "troupe: %s (see '%s --help')\n", strings.TrimSpace(err.Error()), path)
	return exitUsage
}

// failuresAreNotUsage makes every command's own error (not a flag or argument error, which
// cobra reports before RunE) an ordinary failure: exit 1, said once, with no help hint — a
// permission or network error is not fixed by reading --help.
func failuresAreNotUsage(c *cobra.Command) {
	if run := c.RunE; run != nil {
		c.RunE = func(c *cobra.Command, args []string) error { return clierr.Failure(run(c, args)) }
	}
	for _, sub := range c.Commands() {
		failuresAreNotUsage(sub)
	}
}

// rootCommand builds the command tree that args need (commandsFor).
func (m *Main) rootCommand(args []string) *cobra.Command {
	var chatFlags commonFlags
	root := &cobra.Command{
		Use:   "troupe [flags] [prompt words…]",
		Short: "A coding-agent harness: a model proposes, troupe decides",
		Long: `A coding-agent harness: a model proposes, troupe decides.

troupe [flags] [prompt] starts the chat (troupe chat) with the chat's flags, the prompt as its first
message. A subcommand's name wins over a prompt word; after --, everything is the prompt
(troupe -- sessions are slow: why?).`,
		Args:                       cobra.ArbitraryArgs,
		SuggestionsMinimumDistance: 2,
		SilenceErrors:              true,
		SilenceUsage:               true,
	}
	// --version is troupe's flag, not cobra's: cobra's needs root.Version set up front, and the
	// version is read from the build information, which every command (a node's start too)
	// would then parse before it runs.
	version := root.Flags().BoolP("version", "v", false, "version for troupe")
	root.RunE = func(c *cobra.Command, args []string) error {
		if *version {
			fmt.Fprintln(m.Stdout, buildinfo.String())
			return nil
		}
		prompt := strings.Join(args, " ")
		if len(args) > 0 && c.ArgsLenAtDash() != 0 {
			if err := m.notATypo(c, args[0]); err != nil {
				return err
			}
		}
		if prompt == "" && !m.onTerminal() && c.Flags().NFlag() == 0 {
			return c.Help() // troupe alone, piped: what it always did
		}
		return m.chat(c.Context(), &chatFlags, chatOpen{task: prompt})
	}
	chatFlags.register(root)
	chatFlags.registerHorizon(root, "start with this objective (/goal shows, pauses, resumes or clears it)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErr("%v (see '%s --help')", err, c.CommandPath())
	})
	root.AddCommand(m.commandsFor(args)...)
	failuresAreNotUsage(root)
	root.SetHelpCommand(m.helpCommand())
	return root
}

// helpCommand is cobra's help, except that a topic that names no command is a usage error in
// one line (cobra printed the root's help and exited 0): troupe help sesions says what it meant.
func (m *Main) helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(c *cobra.Command, args []string) error {
			root := c.Root()
			cmd, _, err := root.Find(args)
			if err == nil && cmd != nil && (cmd != root || len(args) == 0) {
				cmd.InitDefaultHelpFlag()
				return cmd.Help()
			}
			if len(args) == 0 {
				return usageErr("%v", err)
			}
			if typo := m.notATypo(root, args[0]); typo != nil {
				return typo
			}
			return usageErr("no command %q: troupe --help lists them", strings.Join(args, " "))
		},
	}
}

// subcommand is one of troupe's commands by name, built when it may run.
type subcommand struct {
	name  string
	build func() *cobra.Command
}

func (m *Main) subcommands() []subcommand {
	return []subcommand{{"run", m.runCommand}, {"chat", m.chatCommand}, {"resume", m.resumeCommand},
		{"watch", m.watchCommand}, {"sessions", m.sessionsCommand}, {"stats", m.statsCommand},
		{"log", m.logCommand}, {"approve", m.approveCommand}, {"mode", m.modeCommand},
		{"doctor", m.doctorCommand}, {"version", m.versionCommand}, {sandbox.LauncherCommand, m.sandboxLauncherCommand},
		{"agents", m.agentsCommand}, {"config", m.configCommand}, {"worktree", m.worktreeCommand},
		{"serve", m.serveCommand}, {"worker", m.workerCommand}, {"attach", m.attachCommand},
		{"loop", m.loopCommand}, {"stop", m.stopCommand}, {"approvals", m.approvalsCommand},
		{"mcp", m.mcpCommand}, {"memory", m.memoryCommand}, {"lessons", m.lessonsCommand}}
}

// commandsFor builds the subcommands args may run. When the first argument names one, that one
// is all cobra needs to run it (its flags, its help, the root's flags): the other commands'
// trees, flags and closures are not built, which was about 2 % of every process's start (the
// node's and each sandboxed command's launcher included). Otherwise (a flag first, help,
// completion, a prompt or a near miss that suggestions need) every command is built.
func (m *Main) commandsFor(args []string) []*cobra.Command {
	all := m.subcommands()
	for _, s := range all {
		if len(args) > 0 && args[0] == s.name {
			return []*cobra.Command{s.build()}
		}
	}
	cmds := make([]*cobra.Command, len(all))
	for i, s := range all {
		cmds[i] = s.build()
	}
	return cmds
}

// notATypo refuses a first prompt word that is a near miss of a subcommand's name (troupe
// sesions): the user meant the command, and a model turn would be a costly way to learn it.
func (m *Main) notATypo(root *cobra.Command, word string) error {
	if strings.ContainsAny(word, " \t") {
		return nil
	}
	if s := root.SuggestionsFor(word); len(s) > 0 {
		meant := nearest.Best(word, s, len(word)+len(s[0])) // cobra lists them by name, not nearness
		return usageErr("unknown command %q; did you mean '%s'? (to send it as a prompt: troupe -- %s)", word, meant, word)
	}
	return nil
}
