package ui

import (
	"fmt"
	"sort"
	"strings"
)

// WireLine says how many replies of model needed each leniency of the provider wire, most
// frequent first: "ollama/qwen3: wire quirks read leniently: 9 no_usage, 3 arguments_object".
// "" for none.
func WireLine(model string, counts map[string]int) string {
	if len(counts) == 0 {
		return ""
	}
	names := make([]string, 0, len(counts))
	for q := range counts {
		names = append(names, q)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, q := range names {
		parts[i] = fmt.Sprintf("%d %s", counts[q], q)
	}
	return fmt.Sprintf("%s: wire quirks read leniently: %s", model, strings.Join(parts, ", "))
}
