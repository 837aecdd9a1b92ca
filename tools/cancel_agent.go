package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/troupe-dev/troupe/messages"
)

// cancelAgent is cancel_agent: it stops a child and every agent under it.
type cancelAgent struct{}

func (cancelAgent) Spec() Spec {
	return Spec{
		Name:        "cancel_agent",
		Description: "Cancel a subagent (and the agents it started). Its result says cancelled.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"handle":{"type":"string"},"message":{"type":"string","description":"why, for the record"}},` +
			`"required":["handle"],"additionalProperties":false}`),
		Risk: RiskDelegate,
	}
}

func (cancelAgent) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a struct {
		Handle  string `json:"handle"`
		Message string `json:"message"`
	}
	if bad := decodeArgs("cancel_agent", raw, &a); bad != nil {
		return *bad
	}
	agents, bad := agentsOf(env, "cancel_agent")
	if bad != nil {
		return *bad
	}
	ack, err := agents.Cancel(ctx, &messages.CancelAgent{Handle: a.Handle, Reason: a.Message})
	if err != nil {
		return errorResult(fmt.Sprintf("cancel_agent %s: %v", a.Handle, err))
	}
	out := fmt.Sprintf("%s: %s", ack.Handle, ack.State)
	if ack.Note != "" {
		out += " (" + ack.Note + ")"
	}
	return Result{Output: out}
}
