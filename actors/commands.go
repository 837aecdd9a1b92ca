package actors

import (
	"fmt"
	"sort"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/troupe-dev/troupe/internal/nearest"
	"github.com/troupe-dev/troupe/messages"
)

// sessionCommand is one entry of the session's command table (seed 002: an input router with
// command families). Every slash command is answered here, by the session, and never reaches
// the model; the clients only render the answer.
type sessionCommand struct {
	Name   string
	Family string // groups /help: session, context, permissions, agents, tools, diagnostics
	Usage  string // the full form, shown by /help NAME
	Help   string // one line for /help
	// Run answers the command. It returns nil when the answer comes later (the work runs off
	// the actor and the session responds when it is done).
	Run func(s *session, ctx actor.Context, arg string) *messages.InputAck
}

// commandFamilies orders the families in /help.
var commandFamilies = []string{"session", "context", "permissions", "agents", "tools", "diagnostics"}

// commandTable is the session's commands. It is a function, not a variable, so /help can list
// the table it is part of.
func commandTable() []sessionCommand {
	return []sessionCommand{
		{Name: "help", Family: "session", Usage: "/help [command]", Help: "list the commands; /help NAME shows one command's usage",
			Run: func(_ *session, _ actor.Context, arg string) *messages.InputAck {
				return commandOutput(commandHelp(arg))
			}},
		{Name: "status", Family: "session", Usage: "/status", Help: "show model, mode, context use, tokens, compactions and goal (no model call)",
			Run: func(s *session, _ actor.Context, _ string) *messages.InputAck {
				return commandOutput(formatStatus(s.status()))
			}},
		{Name: "goal", Family: "context", Usage: "/goal [objective | pause | resume | clear | complete]", Help: "show or set the goal the session works toward",
			Run: func(s *session, _ actor.Context, arg string) *messages.InputAck {
				return commandOutput(s.goalCommand(arg))
			}},
		{Name: "compact", Family: "context", Usage: "/compact [focus]", Help: "compact the context now; the focus says what to keep",
			Run: func(s *session, ctx actor.Context, arg string) *messages.InputAck {
				return commandOutput(s.compactNow(ctx, arg))
			}},
		{Name: "mode", Family: "permissions", Usage: "/mode [plan | ask | auto-edit | yolo]", Help: "show or switch the permission mode",
			Run: func(s *session, ctx actor.Context, arg string) *messages.InputAck {
				return commandOutput(s.modeCommand(ctx, arg))
			}},
		{Name: "worktree", Family: "agents", Usage: "/worktree list | merge NAME | drop NAME", Help: "the git worktrees subagents worked in",
			Run: func(s *session, ctx actor.Context, arg string) *messages.InputAck {
				s.worktreeCommand(ctx, arg) // answers later: git runs off the actor
				return nil
			}},
		{Name: "agents", Family: "agents", Usage: "/agents", Help: "this session's subagents: task, role, state, turns, elapsed, summary", Run: (*session).runAgents},
		{Name: "delegate", Family: "agents", Usage: delegateUsage, Help: "start a subagent on a task, as spawn_agent would", Run: (*session).runDelegate},
		{Name: "audit", Family: "diagnostics", Usage: "/audit", Help: "check the session's invariants (pairing, file truth, registry, goal, store, bus); no model call", Run: (*session).runAudit},
		{Name: "doctor", Family: "diagnostics", Usage: "/doctor", Help: "the session's sandbox and its holes, store, bus and tools (troupe doctor --probe asks the provider)", Run: (*session).runDoctor},
		{Name: "cost", Family: "diagnostics", Usage: "/cost", Help: "tokens and dollars by model, for the session and its subagents", Run: (*session).runCost},
		// The session's own settings and state (commands_session.go, commands_tools.go, commands_reconfig.go).
		{Name: "session", Family: "session", Usage: "/session", Help: "the session's id, workspace, start, turns, log and how to resume or attach it", Run: (*session).runSession},
		{Name: "model", Family: "session", Usage: "/model [NAME]   (or: troupe resume ID --model NAME)", Help: "show the model, endpoint, window and price; /model NAME switches for the next turns", Run: (*session).modelCommand},
		{Name: "exit", Family: "session", Usage: "/exit", Help: "leave: the chat ends the session, attach detaches", Run: (*session).runExit},
		{Name: "reset", Family: "context", Usage: "/reset [all]", Help: "a fresh context in the same session (the log keeps everything); all also clears the goal", Run: (*session).runReset},
		{Name: "prompt", Family: "context", Usage: "/prompt [NAME]", Help: "show the prompt modes; /prompt NAME switches for the next turn (ask and plan cannot write)", Run: (*session).promptCommand},
		{Name: "permissions", Family: "permissions", Usage: "/permissions", Help: "the mode, allow/ask/deny rules, session allowlist, protected paths and sandbox", Run: (*session).runPermissions},
		{Name: "tools", Family: "tools", Usage: "/tools", Help: "the tools this session has now, and those narrowed away and by what", Run: (*session).runTools},
		{Name: "skills", Family: "tools", Usage: "/skills [NAME]", Help: "list the skills; /skills NAME loads one for the next turn", Run: (*session).skillsCommand},
	}
}

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
