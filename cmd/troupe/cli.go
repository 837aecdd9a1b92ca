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
	"github.com/troupe-dev/troupe/cmd/troupe/internal/cmdtree"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/setup"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/starttrace"
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
	m.trace.MarkAt(starttrace.Awaiting, m.prewarm.Began()) // a node started early: it waited from then
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

// rootCommand builds the command tree that args need (cmdtree.For).
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
			if err := cmdtree.NotATypo(c, args[0]); err != nil {
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
	root.AddCommand(cmdtree.For(args, m.subcommands())...)
	cmdtree.FailuresAreNotUsage(root)
	root.SetHelpCommand(cmdtree.Help())
	return root
}

// subcommands are troupe's commands by name (cmdtree.For builds the ones a process needs).
func (m *Main) subcommands() []cmdtree.Sub {
	return []cmdtree.Sub{
		{Name: "run", Build: m.runCommand}, {Name: "chat", Build: m.chatCommand}, {Name: "resume", Build: m.resumeCommand},
		{Name: "watch", Build: m.watchCommand}, {Name: "sessions", Build: m.sessionsCommand}, {Name: "stats", Build: m.statsCommand},
		{Name: "log", Build: m.logCommand}, {Name: "approve", Build: m.approveCommand}, {Name: "mode", Build: m.modeCommand},
		{Name: "doctor", Build: m.doctorCommand}, {Name: "version", Build: m.versionCommand}, {Name: sandbox.LauncherCommand, Build: m.sandboxLauncherCommand},
		{Name: "agents", Build: m.agentsCommand}, {Name: "config", Build: m.configCommand}, {Name: "worktree", Build: m.worktreeCommand},
		{Name: "serve", Build: m.serveCommand}, {Name: "worker", Build: m.workerCommand}, {Name: "attach", Build: m.attachCommand},
		{Name: "loop", Build: m.loopCommand}, {Name: "stop", Build: m.stopCommand}, {Name: "approvals", Build: m.approvalsCommand},
		{Name: "mcp", Build: m.mcpCommand}, {Name: "memory", Build: m.memoryCommand}, {Name: "lessons", Build: m.lessonsCommand},
	}
}
