package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/messages"
)

// AgentControl is the session behind the agent tools (spawn_agent, wait_agent, send_agent,
// cancel_agent, list_agents): the tools validate their arguments and format results; the
// session owns the children. A failure is an error whose text is for the model.
type AgentControl interface {
	Spawn(ctx context.Context, req *messages.SpawnAgent) (*messages.SpawnAccepted, error)
	Wait(ctx context.Context, req *messages.WaitAgents) (*messages.WaitReply, error)
	Send(ctx context.Context, req *messages.SendAgent) (*messages.AgentAck, error)
	Cancel(ctx context.Context, req *messages.CancelAgent) (*messages.AgentAck, error)
	List(ctx context.Context) (*messages.AgentList, error)
}

// AgentTools returns the agent tools, in the order the model sees them.
func AgentTools() []Tool {
	return []Tool{spawnAgent{}, waitAgent{}, sendAgent{}, cancelAgent{}, listAgents{}}
}

// agentsOf returns the session's agent control, or the result that says there is none.
func agentsOf(env *Env, tool string) (AgentControl, *Result) {
	if env.Agents == nil {
		res := errorResult(tool + ": this session cannot run subagents (its role or depth does not allow it)")
		return nil, &res
	}
	return env.Agents, nil
}

// maxSummaryInResult bounds a child's summary in what the parent model sees.
const maxSummaryInResult = 6 << 10

// FormatAgentResult is the projection of a child's result the parent model sees: status,
// verdict, summary, evidence, files changed, branch and usage — never the child's transcript.
func FormatAgentResult(r *messages.AgentResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent %s (%s): %s", r.Handle, r.Role, r.Status)
	if r.Verdict != "" {
		fmt.Fprintf(&b, ", verdict %s", r.Verdict)
	}
	fmt.Fprintf(&b, " — %d turns, %d+%d tokens, %.1fs\n", r.Usage.Turns, r.Usage.InputTokens, r.Usage.OutputTokens,
		float64(r.Usage.DurationMS)/1000)
	if r.Error != "" {
		fmt.Fprintf(&b, "error: %s\n", r.Error)
	}
	if s := strings.TrimSpace(r.Summary); s != "" {
		if len(s) > maxSummaryInResult {
			s = s[:maxSummaryInResult] + " [… cut]"
		}
		fmt.Fprintf(&b, "summary:\n%s\n", s)
	}
	if len(r.Evidence) > 0 {
		b.WriteString("evidence:\n")
		for _, e := range r.Evidence {
			switch {
			case e.Command != "":
				fmt.Fprintf(&b, "  $ %s → %s\n", e.Command, e.Outcome)
			case e.Ref != "":
				fmt.Fprintf(&b, "  %s\n", e.Ref)
			}
		}
	}
	if len(r.FilesChanged) > 0 {
		fmt.Fprintf(&b, "files changed: %s\n", strings.Join(r.FilesChanged, ", "))
	}
	if r.Branch != "" {
		fmt.Fprintf(&b, "branch: %s (merge with /worktree merge or troupe worktree merge)\n", r.Branch)
		if r.DiffStat != "" {
			fmt.Fprintf(&b, "diff stat:\n%s\n", r.DiffStat)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
