package tools

import (
	"maps"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// keyTag matches a chat-template tag leaked into an argument name: GLM's serving stack can
// leave its own </arg_key> inside the key ({"path</arg_key>": "/a"}, vllm#54971).
var keyTag = lazyre.New(`</?(?:arg_key|arg_value|parameter|param|key|value)>|<\|[a-z_]{1,24}\|>`)

// leakedKeyTags renames the argument keys that carry leaked template tags to the key without
// them, when that is a name the call does not already have. It runs before the aliases, so a
// cleaned alias (file_path</arg_key>) still maps.
func (s *argsSchema) leakedKeyTags(args map[string]any) []Repair {
	var repairs []Repair
	for _, key := range slices.Sorted(maps.Keys(args)) {
		if !keyTag.MatchString(key) {
			continue
		}
		clean := strings.TrimSpace(keyTag.ReplaceAllString(key, ""))
		if _, taken := args[clean]; clean == "" || taken {
			continue
		}
		args[clean] = args[key]
		delete(args, key)
		repairs = append(repairs, newRepair(RepairArgAlias, key, clean))
	}
	return repairs
}

// valueTagArgs are the arguments whose values are a line of text (a command, a path, a
// pattern), where a call format's closing tag is never meant.
var valueTagArgs = []string{"command", "path", "pattern", "glob"}

// leakedValueTag matches call-format closing tags (and the blanks around them) a serving stack
// left at the end of a value: {"command": "ls -la</arg_value>"}, "a.go</parameter>".
var leakedValueTag = lazyre.New(`(?:\s*</(?:arg_value|parameter|function|tool_call|invoke|arguments)>)+\s*$`)

// leakedOpenTag also matches the opening of a next call leaked into this one's value
// (MiniMax-M3's "… | head -3<tool_call>", ik_llama.cpp#2085; <invoke name="…">, <function=…>),
// cut only from a command or a path: unquoted in a command, the tag is a redirection bash
// refuses, and no file name ends in one, whereas a search pattern may look for the markup.
var leakedOpenTag = lazyre.New(`(?:\s*(?:</(?:arg_value|parameter|function|tool_call|invoke|arguments)>|<(?:tool_call|minimax:tool_call|invoke name="[^"<>]{0,64}"|function=[^<>]{0,64}|parameter=[^<>]{0,64})>))+\s*$`)

// leakedValueTags cuts those closing tags off the end of a one-line argument.
func (s *argsSchema) leakedValueTags(args map[string]any) []Repair {
	var repairs []Repair
	for _, key := range valueTagArgs {
		v, ok := args[key].(string)
		if !ok || !s.has(key) || !strings.Contains(v, "<") {
			continue
		}
		clean := leakedValueTag.ReplaceAllString(v, "")
		if key == "command" || key == "path" {
			clean = leakedOpenTag.ReplaceAllString(v, "")
		}
		if clean == v || strings.TrimSpace(clean) == "" {
			continue
		}
		args[key] = clean
		repairs = append(repairs, newRepair(RepairStrayText, key+": "+v, key+": "+clean))
	}
	return repairs
}
