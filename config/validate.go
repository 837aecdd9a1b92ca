package config

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Modes returns the permission modes, from most to least cautious.
func Modes() []string { return []string{"plan", "ask", "auto-edit", "yolo"} }

// Sandboxes returns the sandbox choices for commands.
func Sandboxes() []string { return []string{"auto", "landlock", "bwrap", "off"} }

// Validate reports every invalid setting at once, each naming the layer that set it.
func (c *Config) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s (from %s): %s", fieldKey(field), c.Origin(field), fmt.Sprintf(format, args...)))
	}
	if !slices.Contains(Modes(), c.Mode) {
		bad("Mode", "%q is not a mode; want one of %s", c.Mode, strings.Join(Modes(), ", "))
	}
	if !slices.Contains(Sandboxes(), c.Sandbox) {
		bad("Sandbox", "%q is not a sandbox; want one of %s", c.Sandbox, strings.Join(Sandboxes(), ", "))
	}
	if c.BaseURL != "" {
		if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("BaseURL", "%q is not an http(s) URL", c.BaseURL)
		}
	}
	if c.NATS != "" {
		for server := range strings.SplitSeq(c.NATS, ",") { // NATS accepts a list of servers
			if u, err := url.Parse(strings.TrimSpace(server)); err != nil || u.Host == "" {
				bad("NATS", "%q is not a URL such as nats://host:4222 (or a comma-separated list)", server)
			}
		}
	}
	if !slices.Contains([]string{"", "brave", "tavily", "searxng", "mcp"}, c.Web.SearchProvider) {
		bad("Web.SearchProvider", "%q is not a search provider; want brave, tavily, searxng or mcp (or leave it unset: no web_search)", c.Web.SearchProvider)
	}
	if c.Web.SearchProvider == "mcp" && (c.Web.SearchServer == "" || c.Web.SearchTool == "") {
		bad("Web.SearchServer", "search_provider = \"mcp\" needs search_server (an MCP server's name) and search_tool (its search tool)")
	}
	if c.Web.SearchURL != "" {
		if u, err := url.Parse(c.Web.SearchURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("Web.SearchURL", "%q is not an http(s) URL", c.Web.SearchURL)
		}
	} else if c.Web.SearchProvider == "searxng" {
		bad("Web.SearchURL", "searxng needs the instance's address, such as http://localhost:8888")
	}
	if c.Context.Window < 0 {
		bad("Context.Window", "%d is negative; leave it unset for the model's known window", c.Context.Window)
	}
	if _, err := c.IdleGapS(); err != nil {
		bad("Context.IdleGap", "%v", err)
	}
	if c.Done.CheckTimeoutS < 0 {
		bad("Done.CheckTimeoutS", "%d is negative; leave it unset for the default (600 s)", c.Done.CheckTimeoutS)
	}
	if c.Provider.IdleTimeoutS < 0 {
		bad("Provider.IdleTimeoutS", "%d is negative; leave it unset for the default (90 s)", c.Provider.IdleTimeoutS)
	}
	if c.Done.MaxRefusals < 1 {
		bad("Done.MaxRefusals", "%d: at least 1 (the model needs one chance to act on what the check found)", c.Done.MaxRefusals)
	}
	if c.Agents.MaxDepth < 0 {
		bad("Agents.MaxDepth", "%d is negative; use 0 to forbid subagents", c.Agents.MaxDepth)
	}
	if c.Lessons.MaxBytes < 200 || c.Lessons.MaxBytes > 16384 {
		bad("Lessons.MaxBytes", "%d: between 200 and 16384 bytes (to give no lessons, set enabled = false)", c.Lessons.MaxBytes)
	}
	if !slices.Contains(Placements(), c.Agents.Placement) {
		bad("Agents.Placement", "%q is not a placement; want one of %s", c.Agents.Placement, strings.Join(Placements(), ", "))
	}
	if c.Agents.MaxRunning < 1 {
		bad("Agents.MaxRunning", "%d: at least one agent must be able to run", c.Agents.MaxRunning)
	}
	for _, list := range []struct {
		key   string
		rules []string
	}{{"permissions.allow", c.Permissions.Allow}, {"permissions.ask", c.Permissions.Ask}, {"permissions.deny", c.Permissions.Deny}} {
		for _, r := range list.rules {
			if err := checkRule(r); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", list.key, err))
			}
		}
	}
	c.validateBus(bad)
	errs = append(errs, c.validateHooks()...)
	for _, name := range c.Env.Pass {
		if !validEnvName(name) {
			errs = append(errs, fmt.Errorf("env.pass: %q is not a variable name", name))
		}
	}
	for name := range c.Env.Set {
		if !validEnvName(name) {
			errs = append(errs, fmt.Errorf("env.set: %q is not a variable name", name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("invalid configuration: %w", err)
	}
	return nil
}

// checkRule accepts "tool" and "tool(pattern)", the shape of a permission rule.
func checkRule(rule string) error {
	name, rest, hasArg := strings.Cut(rule, "(")
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("rule %q names no tool; want tool or tool(pattern)", rule)
	case strings.ContainsAny(name, ") \t"):
		return fmt.Errorf("rule %q: tool name %q has a space or ')'; want tool or tool(pattern)", rule, name)
	case hasArg && !strings.HasSuffix(rest, ")"):
		return fmt.Errorf("rule %q has no closing ')'", rule)
	}
	return nil
}

// validEnvName accepts POSIX-ish variable names.
func validEnvName(name string) bool {
	if name == "" || (name[0] >= '0' && name[0] <= '9') {
		return false
	}
	for _, r := range name {
		if r != '_' && (r < 'A' || r > 'Z') && (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// fieldKey names a Config field as users write it in a file.
func fieldKey(field string) string {
	if k := busFieldKey(field); k != "" {
		return k
	}
	switch field {
	case "BaseURL":
		return "base_url"
	case "NATS":
		return "nats"
	case "Context.Window":
		return "context.window"
	case "Context.IdleGap":
		return "context.idle_gap"
	case "Done.Check":
		return "done.check"
	case "Done.CheckTimeoutS":
		return "done.check_timeout_s"
	case "Done.MaxRefusals":
		return "done.max_refusals"
	case "Provider.IdleTimeoutS":
		return "provider.idle_timeout_s"
	case "Agents.MaxDepth":
		return "agents.max_depth"
	case "Agents.MaxRunning":
		return "agents.max_running"
	case "Agents.Placement":
		return "agents.placement"
	case "Web.SearchProvider":
		return "web.search_provider"
	case "Web.SearchURL":
		return "web.search_url"
	case "Web.SearchServer":
		return "web.search_server"
	case "Lessons.MaxBytes":
		return "lessons.max_bytes"
	}
	return strings.ToLower(field)
}
