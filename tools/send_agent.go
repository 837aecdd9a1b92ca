package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/troupe-dev/troupe/messages"
)

// sendAgent is send_agent: a follow-up message to a running child, taken as its next input.
type sendAgent struct{}

func (sendAgent) Spec() Spec {
	return Spec{
		Name:        "send_agent",
		Description: "Send a follow-up message to a running subagent; it reads it before its next step.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"handle":{"type":"string"},"message":{"type":"string","minLength":1}},` +
			`"required":["handle","message"],"additionalProperties":false}`),
		Risk: RiskDelegate,
	}
}

func (sendAgent) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a messages.SendAgent
	if bad := decodeArgs("send_agent", raw, &a); bad != nil {
		return *bad
	}
	agents, bad := agentsOf(env, "send_agent")
	if bad != nil {
		return *bad
	}
	ack, err := agents.Send(ctx, &a)
	if err != nil {
		return errorResult(fmt.Sprintf("send_agent %s: %v", a.Handle, err))
	}
	return Result{Output: fmt.Sprintf("sent to %s (%s)", ack.Handle, ack.State)}
}
