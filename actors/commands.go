package actors

import (
	"fmt"
	"sort"
	"strings"

	"github.com/troupe-dev/troupe/internal/nearest"
	"github.com/troupe-dev/troupe/messages"
)

// sessionCommand is one entry of the session's command table (seed 002: an input router with
// command families). Every slash command is answered here, beside the session, and never
// reaches the model; the clients only render the answer.
type sessionCommand struct {
	Name   string
	Family string // groups /help: session, context, permissions, agents, tools, diagnostics
	Usage  string // the full form, shown by /help NAME
	Help   string // one line for /help
	// Run answers the command through its session's host (command_host.go). It returns nil
	// when the answer comes later (the work runs off the actor and the host answers when it
	// is done).
	Run func(h commandHost, arg string) *messages.InputAck
}

// view makes a read-only command's entry: its answer is a function of the session's snapshot.
func view(f func(snap commandSnapshot, arg string) string) func(commandHost, string) *messages.InputAck {
	return func(h commandHost, arg string) *messages.InputAck { return commandOutput(f(h.Snapshot(), arg)) }
}

// commandFamilies orders the families in /help.
var commandFamilies = []string{"session", "context", "permissions", "agents", "tools", "diagnostics"}

// commandTable is the session's commands. It is a function, not a variable, so /help can list
// the table it is part of.
func commandTable() []sessionCommand {
	return []sessionCommand{
		{Name: "help", Family: "session", Usage: "/help [command]", Help: "list the commands; /help NAME shows one command's usage",
			Run: func(_ commandHost, arg string) *messages.InputAck { return commandOutput(commandHelp(arg)) }},
		{Name: "status", Family: "session", Usage: "/status", Help: "show model, mode, context use, tokens, compactions and goal (no model call)",
			Run: view(statusView)},
		{Name: "goal", Family: "context", Usage: "/goal [objective | pause | resume | clear | complete]", Help: "show or set the goal the session works toward",
			Run: func(h commandHost, arg string) *messages.InputAck { return commandOutput(h.Goal(arg)) }},
		{Name: "compact", Family: "context", Usage: "/compact [focus]", Help: "compact the context now; the focus says what to keep",
			Run: func(h commandHost, arg string) *messages.InputAck { return commandOutput(h.Compact(arg)) }},
		{Name: "mode", Family: "permissions", Usage: "/mode [plan | ask | auto-edit | yolo]", Help: "show or switch the permission mode", Run: runMode},
		{Name: "worktree", Family: "agents", Usage: "/worktree list | merge NAME | drop NAME", Help: "the git worktrees subagents worked in", Run: runWorktree},
		{Name: "agents", Family: "agents", Usage: "/agents", Help: "this session's subagents: task, role, state, turns, elapsed, summary", Run: view(agentsView)},
		{Name: "delegate", Family: "agents", Usage: delegateUsage, Help: "start a subagent on a task, as spawn_agent would", Run: runDelegate},
		{Name: "audit", Family: "diagnostics", Usage: "/audit", Help: "check the session's invariants (pairing, file truth, registry, goal, store, bus); no model call", Run: runAudit},
		{Name: "doctor", Family: "diagnostics", Usage: "/doctor", Help: "the session's sandbox and its holes, store, bus and tools (troupe doctor --probe asks the provider)", Run: runDoctor},
		{Name: "cost", Family: "diagnostics", Usage: "/cost", Help: "tokens and dollars by model, for the session and its subagents", Run: runCost},
		{Name: "lessons", Family: "context", Usage: "/lessons", Help: "what troupe learnt in this project from failures and their fixes (troupe lessons to show or forget one)", Run: runLessons},
		// The session's own settings and state (commands_session.go, commands_tools.go, commands_reconfig.go).
		{Name: "session", Family: "session", Usage: "/session", Help: "the session's id, workspace, start, turns, log and how to resume or attach it", Run: view(sessionView)},
		{Name: "model", Family: "session", Usage: "/model [NAME]   (or: troupe resume ID --model NAME)", Help: "show the model, endpoint, window and price; /model NAME switches for the next turns", Run: runModel},
		{Name: "exit", Family: "session", Usage: "/exit", Help: "leave: the chat ends the session, attach detaches",
			Run: func(commandHost, string) *messages.InputAck { return exitCommand() }},
		{Name: "memory", Family: "context", Usage: memoryUsage, Help: "the user profile and project facts every session starts with; add, edit, remove, clear", Run: runMemory},
		{Name: "reset", Family: "context", Usage: "/reset [all]", Help: "a fresh context in the same session (the log keeps everything); all also clears the goal", Run: runReset},
		{Name: "prompt", Family: "context", Usage: "/prompt [NAME]", Help: "show the prompt modes; /prompt NAME switches for the next turn (ask and plan cannot write)", Run: runPrompt},
		{Name: "permissions", Family: "permissions", Usage: "/permissions", Help: "the mode, allow/ask/deny rules, session allowlist, protected paths and sandbox", Run: view(permissionsView)},
		{Name: "mcp", Family: "tools", Usage: "/mcp", Help: "the MCP servers: state, tool count and last error", Run: runMCP},
		{Name: "tools", Family: "tools", Usage: "/tools", Help: "the tools this session has now, and those narrowed away and by what", Run: view(toolsView)},
		{Name: "hooks", Family: "tools", Usage: "/hooks", Help: "the hooks configured: event, matcher, command, timeout, source, and those skipped", Run: view(hooksView)},
		{Name: "skills", Family: "tools", Usage: "/skills [NAME]", Help: "list the skills; /skills NAME loads one for the next turn", Run: runSkills},
	}
}

// commandWords are the fixed words a command's argument takes, for a client's Tab completion
// (/model's and /skills' depend on the session: the client adds them).
var commandWords = map[string][]string{
	"mode":     {"plan", "ask", "auto-edit", "yolo"},
	"goal":     {"pause", "resume", "clear", "complete"},
	"reset":    {"all"},
	"worktree": {"list", "merge", "drop"},
}

// CommandInfo is one slash command as a client completes and describes it.
type CommandInfo struct {
	Name, Usage, Help string
	Args              []string // the fixed words its argument takes; nil: free or session-dependent
}

// Commands lists the session's slash commands, sorted by name, for the clients' completion.
func Commands() []CommandInfo {
	var out []CommandInfo
	for _, name := range commandNames() {
		c, _ := lookupCommand(name)
		args := commandWords[name]
		if name == "help" {
			args = commandNames()
		}
		out = append(out, CommandInfo{Name: c.Name, Usage: c.Usage, Help: c.Help, Args: args})
	}
	return out
}

// runCommand answers a line the router classified as a command (known or not).
func runCommand(h commandHost, r inputRoute) *messages.InputAck {
	if isMCPPromptCommand(r.Command) {
		return runMCPPrompt(h, r.Command, r.Arg)
	}
	c, ok := lookupCommand(r.Command)
	if r.Kind != inputCommand || !ok {
		return commandOutput(unknownCommand(r.Command))
	}
	return c.Run(h, r.Arg)
}

// statusView is /status.
func statusView(snap commandSnapshot, _ string) string { return formatStatus(snap.Status) }

// lookupCommand finds a command by name.
func lookupCommand(name string) (sessionCommand, bool) {
	for _, c := range commandTable() {
		if c.Name == name {
			return c, true
		}
	}
	return sessionCommand{}, false
}

// commandNames lists the command names, sorted.
func commandNames() []string {
	table := commandTable()
	names := make([]string, 0, len(table))
	for _, c := range table {
		names = append(names, c.Name)
	}
	sort.Strings(names) // a tie in nearest goes to the name that sorts first
	return names
}

func commandOutput(text string) *messages.InputAck {
	return &messages.InputAck{Routed: messages.RoutedCommand, Output: text}
}

// commandHelp lists the commands by family, or shows one command's usage.
func commandHelp(arg string) string {
	if name := strings.TrimPrefix(strings.TrimSpace(arg), "/"); name != "" {
		c, ok := lookupCommand(strings.ToLower(name))
		if !ok {
			return unknownCommand(name)
		}
		return fmt.Sprintf("usage: %s\n  %s\n", c.Usage, c.Help)
	}
	var b strings.Builder
	b.WriteString("commands (/help NAME for one):\n")
	table := commandTable()
	for _, fam := range commandFamilies {
		var names []string
		byName := map[string]sessionCommand{}
		for _, c := range table {
			if c.Family == fam {
				names = append(names, c.Name)
				byName[c.Name] = c
			}
		}
		if len(names) == 0 {
			continue
		}
		sort.Strings(names)
		fmt.Fprintf(&b, " %s\n", fam)
		for _, n := range names {
			fmt.Fprintf(&b, "  /%-11s %s\n", n, byName[n].Help)
		}
	}
	b.WriteString(" MCP servers' prompts are commands too: /mcp__SERVER__PROMPT [args…] (/mcp lists them)\n")
	return b.String()
}

// unknownCommand says a command does not exist and names the nearest ones.
func unknownCommand(word string) string {
	msg := fmt.Sprintf("unknown command /%s", word)
	if near := nearest.Names(word, commandNames(), 3); len(near) > 0 {
		msg += " — did you mean /" + strings.Join(near, ", /") + "?"
	}
	return msg + " (/help lists the commands)"
}
