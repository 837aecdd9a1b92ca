package actors

import "github.com/troupe-dev/troupe/tools"

// nodeTools is every tool a session of this Node can be offered, in the order sessions list
// them: the built-ins, the memory tool for a top-level session (a subagent reads the memory but
// leaves it to the session the user talks to), the MCP servers' tools (mcp; nil: none), the
// agent tools unless subagents are off, and load_skill when there are skills.
func (n *Node) nodeTools(topLevel, withSkills bool, mcp *mcpHub) []tools.Tool {
	all := append(append(tools.Builtins(), tools.ReadArtifact()), tools.GoalTools()...)
	all = append(all, tools.WebFetch(n.opts.WebAllowHosts))
	if n.opts.WebSearch != nil && !n.opts.WebSearch.ViaMCP() { // through MCP: the hub builds it
		if search, err := tools.WebSearch(*n.opts.WebSearch); err == nil {
			all = append(all, search)
		}
	}
	if topLevel {
		all = append(all, tools.MemoryTool())
	}
	all = append(all, mcp.tools(n.opts.WebSearch)...)
	if n.opts.Agents.MaxDepth != NoSubagents {
		all = append(all, tools.AgentTools()...)
	}
	if withSkills {
		all = append(all, tools.LoadSkillTool())
	}
	return all
}

// compileToolSchemas fills the Node's schema cache with the built-in tools' compiled argument
// schemas. StartNode runs it beside the store's open, so the first session, which a cold
// `troupe run` waits for, finds them compiled; every later one would anyway.
func (n *Node) compileToolSchemas() {
	if n.opts.Tools != nil {
		return // a custom tool set builds its own registry
	}
	_, _ = tools.NewRegistryWith(n.schemas, n.nodeTools(true, true, nil)...)
}
