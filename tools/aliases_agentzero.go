package tools

import (
	"fmt"
	"strings"
)

// Agent Zero's code_execution_tool (its prompt agent.system.tool.code_exe.md: runtime, code,
// session), called in its JSON reply form ({"tool_name": …, "tool_args": {…}}) or through a
// model's own call syntax with the tool_args object as the arguments. Its terminal runtime runs
// the code as a shell command: that is bash here. Its python and nodejs runtimes run code in a
// kernel, and output and reset act on a terminal session that outlives a call; none has an
// equivalent, and the refusal says so.
func agentZeroCode(args map[string]any) (string, string) {
	if inner, ok := args["tool_args"].(map[string]any); ok && len(args) == 1 {
		delete(args, "tool_args")
		for k, v := range inner {
			args[k] = v
		}
	}
	runtime, _ := args["runtime"].(string)
	switch strings.ToLower(strings.TrimSpace(runtime)) {
	case "terminal", "shell", "bash":
	case "":
		return "", "runtime is required: terminal runs the code as a shell command"
	case "output", "reset":
		return "", fmt.Sprintf("runtime %q acts on a terminal session that outlives a call; bash here runs each command to its end, so run the command again", runtime)
	default:
		return "", fmt.Sprintf("runtime %q has no equivalent here: bash runs shell commands; run that code through its interpreter in a bash command", runtime)
	}
	code, ok := args["code"].(string)
	if !ok || strings.TrimSpace(code) == "" {
		return "", "code is required: the shell command to run"
	}
	for _, k := range []string{"runtime", "code", "session", "reset"} {
		delete(args, k)
	}
	args["command"] = code
	return "", ""
}
