package tools

import "strings"

// Namespaced names: harnesses and MCP clients prefix a tool with its server or extension, and
// each spells the separator its own way: Goose "developer__shell", LiteLLM and several
// gateways "server---tool" (OpenAI's tool-name charset has no ':' or '/'), Claude Desktop
// style "server:tool", "server/tool", dotted "functions.tool" (docs/ARCHITECTURE.md, tool
// names). The prefix is stripped only when what follows is exactly one of this session's
// tools or a known tool of another harness, in any case or -/_ spelling; never by a typo or
// meaning guess, and never for mcp__server__tool, which names that server's tool or nothing
// (resolve refuses those before this runs).

// namespaceSeparators are the separators a namespace ends with, longest first so "---" is
// not read as three "-".
var namespaceSeparators = []string{"---", "__", "::", ":", "/", "."}

// namespacedTool returns the tool name after the last namespace separator of name, when that
// name is one this session knows exactly (ours, or another harness's, by spelling).
func (r *Registry) namespacedTool(name string) (string, bool) {
	tool, ok := namespaceRest(name)
	if !ok {
		return "", false
	}
	if _, ok := r.byName[tool]; ok {
		return tool, true
	}
	if _, ok := harnessTools[tool]; ok {
		return tool, true
	}
	norm := normalizedName(tool)
	for _, e := range r.entries {
		if normalizedName(e.spec.Name) == norm {
			return tool, true
		}
	}
	if _, ok := harnessByNormalized[norm]; ok {
		return tool, true
	}
	return "", false
}

// namespaceRest is name after its last namespace separator, when what comes before is a
// namespace (never mcp__'s) and something follows.
func namespaceRest(name string) (string, bool) {
	if strings.HasPrefix(name, "mcp__") {
		return "", false
	}
	cut := -1
	sepLen := 0
	for _, sep := range namespaceSeparators {
		if i := strings.LastIndex(name, sep); i >= 0 && i+len(sep) > cut+sepLen {
			cut, sepLen = i, len(sep)
		}
	}
	if cut <= 0 || !validNamespace(name[:cut]) {
		return "", false
	}
	tool := name[cut+sepLen:]
	return tool, tool != "" && tool != name
}

// validNamespace is a namespace as harnesses write one: letters, digits and the separators.
func validNamespace(ns string) bool {
	for i := 0; i < len(ns); i++ {
		c := ns[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-.:/", c) >= 0) {
			return false
		}
	}
	return ns != ""
}

// doubledName reads a name written twice over, as a client that appends every streamed
// delta of the name makes it when the server repeats the name (exec_commandexec_command:
// openai/codex#31665; web_searchweb_search: bytedance/deer-flow#654; open-webui#22235,
// brainlid/langchain#174): the name once.
func doubledName(name string) (string, bool) {
	n := len(name)
	if n < 4 || n%2 != 0 || name[:n/2] != name[n/2:] {
		return "", false
	}
	return name[:n/2], true
}

// toolMethods are the methods a tool is called through: Llama 3.1's .call, and the run,
// execute and invoke of the classes harnesses define their tools as.
var toolMethods = []string{".call", ".run", ".execute", ".invoke", "._run", ".__call__"}

// methodStem is name without its method, when it ends with one.
func methodStem(name string) (string, bool) {
	for _, m := range toolMethods {
		if stem, ok := strings.CutSuffix(name, m); ok && stem != "" {
			return stem, true
		}
	}
	return "", false
}
