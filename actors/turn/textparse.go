package turn

import (
	"encoding/json"
	"strings"
)

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
// one of the session's tools: a parser uses it to tell a call from prose that mentions a tool. tools/textcall provides the full
// parser (every model family's format); HermesParser is the small stand-in used until it is
// wired in.
type TextParser func(text string, known func(name string) bool) Parsed

const (
	hermesOpen  = "<tool_call>"
	hermesClose = "</tool_call>"
)

// HermesParser reads Hermes/Qwen calls, <tool_call>{"name":…,"arguments":…}</tool_call>, also
// with the closing tag missing (the call then ends at the next opening tag or the reply's end). An opening tag whose JSON does not read
// makes the result Partial.
func HermesParser(text string, known func(name string) bool) Parsed {
	var out Parsed
	var prose strings.Builder
	rest := text
	for {
		i := strings.Index(rest, hermesOpen)
		if i < 0 {
			prose.WriteString(rest)
			break
		}
		prose.WriteString(rest[:i])
		body := rest[i+len(hermesOpen):]
		raw := rest[i:]
		// A call whose closing tag is missing ends at the next opening tag; the closing tag is
		// looked for only before it, so a reply of many broken calls is still read in linear time.
		k := strings.Index(body, hermesOpen)
		scope := body
		if k >= 0 {
			scope = body[:k]
		}
		j := strings.Index(scope, hermesClose)
		switch {
		case k >= 0 && j < 0:
			raw = rest[i : i+len(hermesOpen)+k]
			rest = body[k:]
			body = body[:k]
		case j >= 0:
			raw = rest[i : i+len(hermesOpen)+j+len(hermesClose)]
			rest = body[j+len(hermesClose):]
			body = body[:j]
		default:
			rest = ""
		}
		call, ok := hermesCall(body)
		if !ok {
			out.Partial = true
			continue
		}
		call.Raw = raw
		out.Calls = append(out.Calls, call)
	}
	out.Prose = strings.TrimSpace(prose.String())
	return out
}

func hermesCall(body string) (TextCall, bool) {
	var v struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Params    json.RawMessage `json:"parameters"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(body)), &v) != nil || v.Name == "" {
		return TextCall{}, false
	}
	args := v.Arguments
	if len(args) == 0 {
		args = v.Params
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	return TextCall{Name: v.Name, Args: args, Format: "hermes"}, true
}
