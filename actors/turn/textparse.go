package turn

import "encoding/json"

// TextCall is one tool call the model wrote as text instead of as a structured call.
type TextCall struct {
	Name   string
	Args   json.RawMessage
	Raw    string // the text the call was read from
	Format string // the format it was written in (hermes, json, …)
}

// Parsed is what a TextParser found in a reply's text: the calls, the prose around them (the
// assistant's words), and whether an attempted call could not be read (Partial).
type Parsed struct {
	Calls   []TextCall
	Prose   string
	Partial bool
}

// TextParser finds tool calls written as text. known says whether a name is (or repairs to)
// one of the session's tools: a parser uses it to tell a call from prose that mentions a tool.
// Textcall is the parser of every model family's format.
type TextParser func(text string, known func(name string) bool) Parsed
