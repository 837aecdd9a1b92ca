package llm

import "strings"

// Quirks is what the harness knows about a model family's habits with tools: how it writes a
// call when it writes one as text, whether it handles parallel calls and tool_choice, its
// usual sampling defaults, and one line of steering for the families that need it.
type Quirks struct {
	Family string
	// TextFormat is the text-call format the family falls back to (a tools/textcall Format
	// name); parsers try it first.
	TextFormat string
	// Parallel says several calls in one reply are reliable; ToolChoice says the provider's
	// tool_choice is honoured.
	Parallel, ToolChoice bool
	// Temperature and TopP are the family's recommended sampling (0: the provider's default).
	// The Request has no sampling fields yet; they are recorded for adapters that add them.
	Temperature, TopP float64
	// PromptHint is one line added to the system prompt for families that need steering.
	PromptHint string
	// Vision says the model accepts images (llm/images.go lists which); images sent to a
	// model without it become a line saying what they are.
	Vision bool
}

// The one-line hints: families that fall back to calls written as text, and of those the ones
// that also garble several calls in one reply.
const (
	hintStructured = "Call tools through the tool-call interface with JSON object arguments; never write a call as text."
	hintOneCall    = "Call tools through the tool-call interface, one call per reply, with JSON object arguments; never write a call as text."
)

// quirkTable lists the families in match order: a more specific name before its prefix (qwen3
// before qwen2.5, devstral before mistral). Match is a substring of the lower-case model name.
var quirkTable = []struct {
	match []string
	q     Quirks
}{
	{[]string{"qwen3-coder", "qwen3"}, Quirks{Family: "qwen3-coder", TextFormat: "qwen3_coder", Parallel: true, ToolChoice: false, Temperature: 0.7, TopP: 0.8, PromptHint: hintStructured}},
	{[]string{"qwen2.5-coder", "qwen2.5", "qwen"}, Quirks{Family: "qwen2.5-coder", TextFormat: "hermes", Parallel: false, ToolChoice: false, Temperature: 0.7, TopP: 0.8, PromptHint: hintOneCall}},
	{[]string{"glm"}, Quirks{Family: "glm", TextFormat: "glm", Parallel: true, ToolChoice: false, Temperature: 0.6, TopP: 0.95, PromptHint: hintStructured}},
	{[]string{"deepseek"}, Quirks{Family: "deepseek", TextFormat: "deepseek", Parallel: true, ToolChoice: true, Temperature: 0.6, TopP: 0.95}},
	{[]string{"devstral", "mistral", "codestral", "mixtral"}, Quirks{Family: "mistral", TextFormat: "mistral", Parallel: true, ToolChoice: true, Temperature: 0.15}},
	{[]string{"llama"}, Quirks{Family: "llama", TextFormat: "llama", Parallel: false, ToolChoice: false, Temperature: 0.6, TopP: 0.9, PromptHint: hintOneCall}},
	{[]string{"gpt-oss"}, Quirks{Family: "gpt-oss", TextFormat: "harmony", Parallel: false, ToolChoice: true, Temperature: 1.0, TopP: 1.0}},
	{[]string{"kimi", "moonshot"}, Quirks{Family: "kimi", TextFormat: "kimi", Parallel: true, ToolChoice: true, Temperature: 0.6}},
	{[]string{"gemma"}, Quirks{Family: "gemma", TextFormat: "gemma", Parallel: false, ToolChoice: false, Temperature: 1.0, TopP: 0.95, PromptHint: hintOneCall}},
	{[]string{"minimax"}, Quirks{Family: "minimax", TextFormat: "qwen3_coder", Parallel: true, ToolChoice: true, Temperature: 1.0, TopP: 0.95}},
	{[]string{"lfm"}, Quirks{Family: "lfm", TextFormat: "lfm", Parallel: false, ToolChoice: false, Temperature: 0.3, PromptHint: hintOneCall}},
	{[]string{"claude"}, Quirks{Family: "claude", Parallel: true, ToolChoice: true}},
	{[]string{"gemini"}, Quirks{Family: "gemini", Parallel: true, ToolChoice: true}},
	{[]string{"gpt-", "chatgpt", "codex"}, Quirks{Family: "gpt", Parallel: true, ToolChoice: true}},
}

// QuirksFor returns the quirks of model (with or without its provider prefix). An unknown
// model gets the cautious defaults: Hermes text calls, no parallel calls, no tool_choice.
func QuirksFor(model string) Quirks {
	name := strings.ToLower(model)
	if _, rest, ok := strings.Cut(name, "/"); ok {
		name = rest
	}
	for _, e := range quirkTable {
		for _, m := range e.match {
			if strings.Contains(name, m) {
				q := e.q
				q.Vision = acceptsImages(name)
				return q
			}
		}
	}
	return Quirks{Family: "unknown", TextFormat: "hermes", Vision: acceptsImages(name)}
}
