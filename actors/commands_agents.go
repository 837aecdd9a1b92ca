package actors

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/worktree"
)

// /agents lists this session's children; /delegate starts one for the user, through the same
// SpawnAgent path the spawn_agent tool takes (onSpawnAgent): the session sends the request to
// itself and turns the answer into the command's output.

// delegateUsage is /delegate's usage line.
const delegateUsage = "/delegate TASK [--role R] [--background]"

// defaultDelegateRole is the role a /delegate without --role gets: the one that may edit.
const defaultDelegateRole = "worker"

// delegateTimeout bounds the spawn; a child in its own worktree is not started by /delegate.
const delegateTimeout = 5 * time.Second

// parseDelegate reads /delegate's argument: the task in words, --role R (or --role=R) and
// --background anywhere in it.
func parseDelegate(arg string) (*messages.SpawnAgent, error) {
	req := &messages.SpawnAgent{AgentType: defaultDelegateRole}
	var words []string
	fields := strings.Fields(arg)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch {
		case f == "--background":
			req.Background = true
		case f == "--role":
			if i+1 >= len(fields) || strings.HasPrefix(fields[i+1], "--") {
				return nil, errors.New("--role needs a role name; usage: " + delegateUsage)
			}
			i++
			req.AgentType = fields[i]
		case strings.HasPrefix(f, "--role="):
			req.AgentType = strings.TrimPrefix(f, "--role=")
		case strings.HasPrefix(f, "--"):
			return nil, fmt.Errorf("unknown flag %s; usage: %s", f, delegateUsage)
		default:
			words = append(words, f)
		}
	}
	if len(words) == 0 || req.AgentType == "" {
		return nil, errors.New("say what to delegate; usage: " + delegateUsage)
	}
	req.Message = strings.Join(words, " ")
	req.TaskName = taskNameOf(words)
	return req, nil
}

// taskNameOf makes a task name (lower-case letters, digits, - and _, at most 40) from the
// first words of the task; onSpawnAgent renames it if a child already has it.
func taskNameOf(words []string) string {
	var parts []string
	n := 0
	for _, w := range words {
		var b strings.Builder
		for _, r := range strings.ToLower(w) {
			if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
				b.WriteRune(r)
			}
		}
		if b.Len() == 0 {
			continue
		}
		if n+b.Len()+len(parts) > 40 || len(parts) == 4 {
			break
		}
		parts = append(parts, b.String())
		n += b.Len()
	}
	if len(parts) == 0 {
		return "task"
	}
	return strings.Join(parts, "-")
}

// runDelegate is /delegate: it spawns a child as spawn_agent would and answers with its
// handle, or with why it could not, once the spawn has answered.
func runDelegate(h commandHost, arg string) *messages.InputAck {
	req, err := parseDelegate(arg)
	if err != nil {
		return commandOutput(err.Error())
	}
	h.Delegate(req, delegateTimeout, delegateAnswer)
	return nil
}

// delegateAnswer is /delegate's output for the spawn's reply.
func delegateAnswer(res any, err error) string {
	if err != nil {
		return "/delegate got no answer: " + err.Error()
	}
	switch r := res.(type) {
	case *messages.SpawnAccepted:
		out := fmt.Sprintf("delegated to %s (%s, %s): /agents shows it; its result reaches the model at the next turn", r.Handle, r.Model, r.State)
		for _, n := range r.Notes {
			out += "\nnote: " + n
		}
		return out
	case *messages.ErrorReply:
		return "/delegate: " + r.Error
	}
	return fmt.Sprintf("/delegate: unexpected answer %T", res)
}

// agentRow is one child as /agents shows it.
type agentRow struct {
	Task, Role string
	State      messages.AgentState
	Turns      int // -1: not known until it ends
	Elapsed    time.Duration
	Summary    string
}

// rows is the children, in spawn order, as /agents shows them at now.
func (k *children) rows(now time.Time) []agentRow {
	rows := make([]agentRow, 0, len(k.order))
	for _, c := range k.inOrder() {
		row := agentRow{Task: c.rec.Task, Role: c.rec.Role, State: c.rec.State, Turns: -1}
		if r := c.rec.Result; r != nil {
			row.Turns, row.Elapsed = r.Usage.Turns, time.Duration(r.Usage.DurationMS)*time.Millisecond
			row.Summary = r.Summary
			if r.Error != "" {
				row.Summary = r.Error
			}
		} else if !c.began.IsZero() {
			row.Elapsed = now.Sub(c.began)
		}
		rows = append(rows, row)
	}
	return rows
}

// agentsView is /agents.
func agentsView(snap commandSnapshot, _ string) string { return formatAgents(snap.Agents) }

// formatAgents is /agents: a table of the children with the last line of each one's summary.
func formatAgents(rows []agentRow) string {
	if len(rows) == 0 {
		return "no agents yet: /delegate TASK starts one, or the model does with spawn_agent"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-20s %-10s %-12s %5s %8s  %s\n", "TASK", "ROLE", "STATE", "TURNS", "ELAPSED", "SUMMARY")
	for _, r := range rows {
		turns := "-"
		if r.Turns >= 0 {
			turns = fmt.Sprint(r.Turns)
		}
		fmt.Fprintf(&b, "%-20s %-10s %-12s %5s %8s  %s\n", r.Task, r.Role, r.State, turns, r.Elapsed.Round(time.Second), lastLine(r.Summary, 80))
	}
	return strings.TrimRight(b.String(), "\n")
}

// lastLine is the last non-empty line of text, cut to n bytes.
func lastLine(text string, n int) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	return preview(strings.TrimSpace(lines[len(lines)-1]), n)
}

// worktreeCommandTimeout answers /worktree before the control request's own deadline (10 s at
// the bridge); git's merge of a child's branch takes well under it.
const worktreeCommandTimeout = 8 * time.Second

// runWorktree is /worktree list|merge NAME|drop NAME on the user's checkout (the project
// root), the same as troupe worktree. git runs off the actor; the answer goes to whoever sent
// the input once it is done.
func runWorktree(h commandHost, arg string) *messages.InputAck {
	root := h.Snapshot().ProjectRoot
	h.Later(worktreeCommandTimeout, func() func() string {
		var out bytes.Buffer
		if err := worktree.Run(&out, root, strings.Fields(arg)); err != nil {
			out.WriteString(worktree.Explain(root, err))
		}
		text := strings.TrimRight(out.String(), "\n")
		return func() string { return text }
	}, func(err error) string {
		return "/worktree is still running in the background (" + err.Error() + "); troupe worktree list shows the outcome"
	})
	return nil
}
