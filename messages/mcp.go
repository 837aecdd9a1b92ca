package messages

import "encoding/json"

// MCPState is where an MCP server's actor is with its server.
type MCPState string

// The states of an MCP server.
const (
	MCPStopped  MCPState = "stopped"  // not started yet (lazy) or stopped with the Node
	MCPStarting MCPState = "starting" // the process or connection is coming up
	MCPReady    MCPState = "ready"    // initialized; its tools are listed
	MCPFailed   MCPState = "failed"   // the last start failed; the next use retries after a backoff
)

// MCPCall asks an MCP server's actor to call one of its tools for a session. The answer is an
// MCPCallResult to the sender.
type MCPCall struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// Op is what to ask: "" calls Tool; MCPOpListResources and MCPOpReadResource (Args
	// {"uri": …}) ask for the server's resources, MCPOpGetPrompt for one of its prompts.
	Op        string          `json:"op,omitempty"`
	Args      json.RawMessage `json:"args,omitempty"`
	Session   string          `json:"session,omitempty"`
	TimeoutMS int64           `json:"timeout_ms,omitempty"` // 0: the server's own timeout
}

// MCPCallResult is a tool's result as text. IsError is the server's verdict or a failure to
// get a result (not installed, crashed, timed out); Output says which.
type MCPCallResult struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// Session is the calling session, from its MCPCall: a shared server's answers and its log
	// lines say whose call they were.
	Session    string `json:"session,omitempty"`
	Output     string `json:"output"`
	IsError    bool   `json:"is_error,omitempty"`
	DurationMS int64  `json:"duration_ms"`
	// Images are the result's image content as the server sent it (bounded by the result
	// bound); the calling executor fits and stores them.
	Images []MCPImage `json:"images,omitempty"`
}

// MCPImage is one image of an MCP tool result.
type MCPImage struct {
	MediaType string `json:"media_type"`
	Data      []byte `json:"data"`
}

// MCPListTools asks an MCP server's actor for its tools, starting the server if it has not
// started. The answer is an MCPServerStatus once the server is ready or has failed.
type MCPListTools struct {
	Start bool `json:"start"` // false: answer at once with what is known
}

// MCPServerStatus is an MCP server's state, its tools and its last error.
type MCPServerStatus struct {
	Server    string        `json:"server"`
	State     MCPState      `json:"state"`
	Tools     []MCPToolSpec `json:"tools,omitempty"`
	LastError string        `json:"last_error,omitempty"`
	// Version counts the tool lists the server has given; it grows when the server says its
	// tools changed (notifications/tools/list_changed) and they were listed again.
	Version  int `json:"version"`
	Restarts int `json:"restarts"`
	// Resources says the server offers resources (mcp_resources, mcp_read_resource).
	Resources bool `json:"resources,omitempty"`
	// Prompts are the server's prompts, the chat's /mcp__<server>__<prompt> commands; listed
	// again after notifications/prompts/list_changed.
	Prompts []MCPPromptSpec `json:"prompts,omitempty"`
}

// MCPPromptSpec is one prompt a server offers, with its arguments in the server's order.
type MCPPromptSpec struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Arguments   []MCPPromptArg `json:"arguments,omitempty"`
}

// MCPPromptArg is one argument of a prompt.
type MCPPromptArg struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// MCPPromptArgs are an MCPCall's Args for MCPOpGetPrompt: the prompt and its arguments.
type MCPPromptArgs struct {
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments,omitempty"`
}

// The MCPCall operations besides calling a tool.
const (
	MCPOpListResources = "resources/list"
	MCPOpReadResource  = "resources/read"
	MCPOpGetPrompt     = "prompts/get" // Args: MCPPromptArgs; the answer's Output is the prompt's text
)

// MCPToolSpec is one tool a server offers, with its input schema as the server sent it.
type MCPToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema"`
	ReadOnly    bool            `json:"read_only,omitempty"`
}

// MCPWatch asks an MCP server's actor to tell the sender (a session) each time the server's
// tools change: MCPToolsChanged, after notifications/tools/list_changed and a new listing. The
// watch ends when the sender stops.
type MCPWatch struct{}

// MCPToolsChanged tells a watching session that a server's tools were listed again; Tools are
// their names.
type MCPToolsChanged struct {
	Server  string   `json:"server"`
	Version int      `json:"version"`
	Tools   []string `json:"tools"`
}

// MCPToolsChangedData is the event a session emits when it takes a server's new tool list in,
// between turns: the stable prefix changes only then. Added and Removed are tool names as the
// model sees them (mcp__<server>__<tool>).
type MCPToolsChangedData struct {
	Server  string   `json:"server"`
	Version int      `json:"version"`
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`
	Tools   int      `json:"tools"` // the session's tool count now
	Error   string   `json:"error,omitempty"`
}
