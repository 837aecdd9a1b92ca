package actors

import (
	"strings"

	"github.com/troupe-dev/troupe/messages"
)

// memoryUsage is /memory's full form.
const memoryUsage = "/memory [user|project]  |  /memory add user|project TEXT  |  /memory remove user|project OLD_TEXT  |  /memory edit user|project OLD_TEXT => NEW TEXT  |  /memory clear user|project"

// runMemory is /memory: it shows the cross-session memory or changes it as the memory tool would
// (the same scan, caps and deduplication), reading and writing off the actor. What it changes
// reaches the model from the next session.
func runMemory(h commandHost, arg string) *messages.InputAck {
	keeper := h.Snapshot().Memory
	if keeper == nil {
		return commandOutput("/memory: this session keeps no memory (a subagent's memory is its parent's)")
	}
	req, bad := parseMemoryArg(arg)
	if bad != "" {
		return commandOutput(bad + "\nusage: " + memoryUsage)
	}
	h.Later(commandDiskTimeout, func() func() string {
		text := formatMemory(memoryAnswer(keeper, req))
		return func() string { return text }
	}, func(err error) string { return "/memory did not finish: " + err.Error() })
	return nil
}

// parseMemoryArg reads /memory's argument into a request, or says what is wrong with it.
func parseMemoryArg(arg string) (*messages.MemoryRequest, string) {
	word := func(s string) (string, string) {
		s = strings.TrimSpace(s)
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return s, ""
		}
		return s[:i], strings.TrimSpace(s[i:])
	}
	action, rest := word(arg)
	action = strings.ToLower(action)
	target := func(s string) (string, string) {
		t, rest := word(s)
		return strings.TrimPrefix(strings.ToLower(t), "--"), rest
	}
	switch action {
	case "", "list", "show":
		t, _ := target(rest)
		return &messages.MemoryRequest{Action: "list", Target: t}, ""
	case "user", "project", "--user", "--project":
		t, _ := target(arg)
		return &messages.MemoryRequest{Action: "list", Target: t}, ""
	case "add", "remove", "clear":
		t, text := target(rest)
		if t != "user" && t != "project" {
			return nil, "/memory " + action + ": say user or project first"
		}
		req := &messages.MemoryRequest{Action: action, Target: t}
		if action == "add" {
			req.Content = text
		} else {
			req.OldText = text
		}
		return req, ""
	case "edit", "replace":
		t, text := target(rest)
		old, content, ok := strings.Cut(text, "=>")
		if (t != "user" && t != "project") || !ok {
			return nil, "/memory edit: say user or project, then OLD_TEXT => NEW TEXT"
		}
		return &messages.MemoryRequest{Action: "replace", Target: t, OldText: strings.TrimSpace(old), Content: strings.TrimSpace(content)}, ""
	}
	return nil, "/memory: unknown action " + action
}
