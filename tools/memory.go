package tools

import (
	"context"
	"encoding/json"

	"github.com/troupe-dev/troupe/internal/memory"
)

// memoryTool is memory: the model's way to keep durable facts across sessions (seed 003's
// cross-session memory, docs/ARCHITECTURE.md "Memory"). What it writes is scanned, capped and
// deduplicated by memory.Keeper, and reaches the model only from the next session, frozen into
// the stable prefix, so the prompt cache of this one holds.
//
// Contract:
//   - action add needs content; replace needs old_text (a part of exactly one entry) and
//     content; remove needs old_text. target is user or project.
//   - A refusal (injection phrasing, hidden Unicode, a command that sends data out, an entry
//     over 500 characters, a target over its cap, old_text matching no entry or several) is an
//     error result that says why, and nothing is stored. Over the cap the result lists the
//     entries with their sizes, largest first.
//   - Adding what an entry already says changes nothing and says so (not an error).
//   - Risk memory: the permission gate allows it in ask, auto-edit and yolo, refuses it in plan
//     (read-only), and `memory`, `memory(user)`, `memory(project)` rules apply.
type memoryTool struct{}

// MemoryTool returns the memory tool.
func MemoryTool() Tool { return memoryTool{} }

type memoryArgs struct {
	Action  string `json:"action"`
	Target  string `json:"target"`
	Content string `json:"content"`
	OldText string `json:"old_text"`
}

func (memoryTool) Spec() Spec {
	return Spec{
		Name: "memory",
		Description: "Save a durable fact that every later session starts with (it is frozen into the system prompt at session start; what you save now shows from the next session). " +
			"target user: the person — role, preferences, communication style, corrections they gave you. target project: this project — decisions, conventions, commands, pitfalls that cost time. " +
			"Save first what the user corrects or asks for (\"don't do X\", \"always Y\", \"I prefer Z\"), then durable decisions and conventions you learned. " +
			"Do not save this task's state or progress, one-off debug output, what is quick to rediscover from the code, git or the docs, or secrets. " +
			"One short fact per entry (at most 500 characters); the user profile holds 1500 characters and the project facts 2500: when one is full, replace or remove stale entries. " +
			"add needs content; replace needs old_text (a part of exactly one entry) and content; remove needs old_text. Text that reads as instructions to an agent, hidden characters or commands that send data out are refused.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"action":{"type":"string","enum":["add","replace","remove"]},` +
			`"target":{"type":"string","enum":["user","project"],"description":"user: about the person; project: about this project"},` +
			`"content":{"type":"string","description":"the fact, in a sentence or two (add, replace)"},` +
			`"old_text":{"type":"string","description":"a part of exactly one existing entry (replace, remove)"}},` +
			`"required":["action","target"],"additionalProperties":false}`),
		Risk: RiskMemory,
	}
}

func (memoryTool) Run(_ context.Context, env *Env, raw json.RawMessage) Result {
	var a memoryArgs
	if bad := decodeArgs("memory", raw, &a); bad != nil {
		return *bad
	}
	if env.Memory == nil {
		return errorResult("memory: this session keeps no memory (a subagent, or a Node without a store)")
	}
	out := env.Memory.Apply(memory.Op{Action: memory.Action(a.Action), Target: memory.Target(a.Target), Content: a.Content, OldText: a.OldText})
	if out.Refused {
		return errorResult("memory " + a.Action + ": " + out.Text)
	}
	return Result{Output: out.Text}
}
