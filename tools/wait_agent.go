package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/messages"
)

// waitAgent is wait_agent: it blocks until the named children have ended, or the timeout, and
// returns their projected results.
type waitAgent struct{}

// waitAgentDefaultTimeoutS bounds a wait that names no timeout.
const waitAgentDefaultTimeoutS = 600

func (waitAgent) Spec() Spec {
	return Spec{
		Name:        "wait_agent",
		Description: "Wait for subagents to finish and get their results (summary, evidence, files changed). Returns early with the ones still running when timeout_s passes (default 600).",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"handles":{"type":"array","items":{"type":"string"},"minItems":1,"description":"handles from spawn_agent, e.g. root/verify_retries"},` +
			`"timeout_s":{"type":"integer","minimum":1,"maximum":3600}},` +
			`"required":["handles"],"additionalProperties":false}`),
		Risk:           RiskDelegate,
		MaxResultBytes: 64 << 10,
	}
}

func (waitAgent) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a messages.WaitAgents
	if bad := decodeArgs("wait_agent", raw, &a); bad != nil {
		return *bad
	}
	agents, bad := agentsOf(env, "wait_agent")
	if bad != nil {
		return *bad
	}
	if a.TimeoutS <= 0 {
		a.TimeoutS = waitAgentDefaultTimeoutS
	}
	reply, err := agents.Wait(ctx, &a)
	if err != nil {
		return errorResult(fmt.Sprintf("wait_agent: %v", err))
	}
	parts := make([]string, 0, len(reply.Results)+1)
	for _, r := range reply.Results {
		parts = append(parts, FormatAgentResult(r))
	}
	if len(reply.Pending) > 0 {
		parts = append(parts, fmt.Sprintf("still running after %ds: %s (wait again, or cancel_agent)", a.TimeoutS, strings.Join(reply.Pending, ", ")))
	}
	return Result{Output: strings.Join(parts, "\n\n")}
}
