package config

// Template is the troupe.toml `troupe config --init` writes: every key, commented out with its
// default or an example, so a project turns settings on by removing a '#'. docs/CONFIG.md says
// more about each; config_docs_test.go checks both name every key.
const Template = `# troupe.toml: this project's troupe settings (docs/CONFIG.md describes every key).
# Layers, later wins: defaults < ~/.config/troupe/config.toml < this file < TROUPE_* < flags.
# This file comes with the repository, so it may narrow permissions but not widen them unless
# your own config lists the project in trusted_projects. 'troupe config' shows what is in effect.

# The model, as provider/model (openai/…, anthropic/…, gemini/…, openrouter/…, ollama/…).
#model = "openai/gpt-4o-mini"
# An OpenAI-compatible endpoint for the model's provider (a local server, a proxy).
#base_url = "http://127.0.0.1:11434/v1"
# Permission mode: plan, ask, auto-edit or yolo.
#mode = "ask"
# Sandbox for bash: auto, landlock, bwrap or off, set as [sandbox] mode below (sandbox = "off"
# is the short form, when the file has no [sandbox] table).
# Join this NATS server or cluster instead of starting an embedded one.
#nats = "nats://127.0.0.1:4222"
# Projects whose troupe.toml may widen permissions (read from your own config only).
#trusted_projects = ["/home/me/src/project"]

#[sandbox]
#mode = "auto"
# Paths hidden from commands, beside troupe's list of credential locations.
#deny_read = ["~/.config/gh"]
# Paths taken off that list after all.
#allow_read = ["~/.aws/config"]

#[permissions]
# Rules: tool(pattern). A deny always wins; ask beats allow.
#allow = ["bash(go test*)", "bash(git status*)"]
#ask = ["bash(git push*)"]
#deny = ["bash(rm -rf *)", "write_file(secrets/**)"]

#[done]
# A command that must pass before a final answer is accepted.
#check = "go test ./..."
# Seconds the check may run (0: 600).
#check_timeout_s = 600
# Final answers refused before the run fails.
#max_refusals = 3

#[context]
# The model's context window in tokens (0: the model's known window).
#window = 128000
# After this idle time older tool outputs become previews; "off" never.
#idle_gap = "30m"

#[provider]
# Seconds a reply stream, once begun, may stay silent before the call is retried (0: 90).
#idle_timeout_s = 90

#[env]
# Variables tool commands may see from troupe's environment (secrets are not passed otherwise).
#pass = ["NPM_CONFIG_REGISTRY"]
# Variables tool commands see with these values.
#set = { GOFLAGS = "-mod=mod" }

#[web]
# Hosts web_fetch may reach where they resolve to loopback, private or link-local addresses
# (your user config only, or a trusted project).
#allow_hosts = ["127.0.0.1"]
# web_search through a search API: "brave" or "tavily" (key in BRAVE_API_KEY or TAVILY_API_KEY,
# or the variable search_key_env names), or "searxng" with search_url (your user config only,
# or a trusted project).
#search_provider = "searxng"
#search_url = "http://localhost:8888"
#search_key_env = "SEARCH_API_KEY"
# Or an MCP server's search tool: search_provider = "mcp" with the server and its tool.
#search_server = "brave"
#search_tool = "brave_web_search"

#[lessons]
# Learn a lesson when a failure is followed by its fix, and hand the relevant ones to later
# sessions of this project (troupe lessons lists them).
#enabled = true
# The bound, in bytes, of the lessons put into each request.
#max_bytes = 1600

#[[hooks.PreToolUse]]
# A command run at a point of the loop, fed JSON on stdin as Claude Code's hooks are (events:
# SessionStart, UserPromptSubmit, PreModel, PostModel, PreToolUse, PostToolUse, PreCompact, Stop,
# SubagentStop, SessionEnd). A project's hooks run only in a trusted project.
# matcher is a regular expression on the tool name (bash, or Claude Code's Bash).
#matcher = "bash"
#command = "./scripts/guard.sh"
#timeout_s = 60

#[mcp.servers.files]
# An MCP server run over stdio (or url = "https://…" with type = "http" or "sse").
#command = "npx"
#args = ["-y", "@modelcontextprotocol/server-filesystem", "."]
#env = { DEBUG = "0" }
#cwd = "."
#headers = { Authorization = "Bearer …" }
# Risk of its tools that do not say they only read: read, workspace_write, exec or network.
#risk = "exec"
# lazy (on first use) or session (when the node starts).
#start = "lazy"
#timeout_s = 120
#writable = ["~/.cache/server-files"]
#disabled = false

#[agents]
# How deep subagents may nest (0: no subagents).
#max_depth = 3
# Subagents of one session running at once; more wait their turn.
#max_running = 8
# Where subagents run: local, workers (troupe worker processes), or auto.
#placement = "local"

#[project]
# Names this project's subjects on the bus: Nodes and workers with one id meet (default: derived
# from the git remote and the root commit, so every checkout of the repository agrees).
#id = "my-service"

#[workers]
# A git remote the workers can reach: they fetch the base commit from it and push a writing
# child's work there as refs/troupe/<task> (never your branches). Default: origin's URL;
# "none" sends the code as bundles through the NATS object store.
#remote = "none"

#[bus]
# How to authenticate to the NATS server 'nats' names (your user config, TROUPE_NATS_* or
# --nats-creds only; docs/WORKERS.md). One of token, user/password, nkey (a seed file) or creds
# (a JWT .creds file), plus TLS.
#token = ""
#user = ""
#password = ""
#nkey = ""
#creds = ""
#tls_ca = ""
#tls_cert = ""
#tls_key = ""
`
