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
