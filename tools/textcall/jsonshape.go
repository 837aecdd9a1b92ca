package textcall

import (
	"bytes"
	"encoding/json"
	"html"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/internal/jsonfix"
	"github.com/troupe-dev/troupe/internal/lazyre"
)

// argKeys are the keys models use for a call's arguments, in the order they are tried
// ("tool_args" beside "tool_name": the JSON reply many agent prompts teach, CAMEL's MCPAgent
// in camel#3086 among them; "params" beside "function", MemGPT's function-call JSON).
var argKeys = [...]string{"arguments", "parameters", "args", "input", "tool_input", "action_input", "tool_args", "params"}

// nameKeys are the keys that hold a call's tool name ("tool": 7836246/cursor2api#15;
// "tool_call" beside "parameters": gemma4:e2b in toolcall-repair-bench; "function_name" and
// "toolName", the spellings agent prompts teach beside "tool_name").
var nameKeys = [...]string{"name", "tool_name", "tool", "tool_call", "function_name", "toolName"}

// emptyArgs is the Args of a call written without arguments.
var emptyArgs = json.RawMessage("{}")

// repairMax is the longest text handed to the repair library: its running time grows with
// the square of the length on unclosed or single-quoted input (about 90 ms for 16 KiB, 12 s
// for 256 KiB measured here), so longer broken text is left for argument repair in tools/ to
// report from Call.Raw. Raw line breaks in strings, the common large case, are fixed without it.
const repairMax = 4 << 10

// repairText runs the JSON repair library on text no longer than repairMax.
func repairText(text string) (fixed string, ok bool) {
	if len(text) > repairMax {
		return "", false
	}
	return jsonfix.Repair(text)
}

// looseValue decodes text as JSON, repairing trailing commas, single quotes, Python literals
// and the like when it is not valid as written. Valid text is returned as written, so the
// values inside it keep their original spelling for Call.Raw.
func looseValue(text string) (json.RawMessage, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, false
	}
	if !json.Valid([]byte(text)) {
		if escaped := escapeRawControls(text); json.Valid([]byte(escaped)) {
			return json.RawMessage(escaped), true
		}
		if q := asciiQuotes(text); q != text { // “typographic” quotes for JSON's own
			return looseValue(q)
		}
		if u := unfuseJSON(text); u != text && json.Valid([]byte(u)) {
			return json.RawMessage(u), true
		}
		if strings.Contains(text, "&quot;") { // the JSON's own quotes escaped as HTML entities
			if u := html.UnescapeString(text); json.Valid([]byte(u)) {
				return json.RawMessage(u), true
			}
		}
		fixed, ok := repairText(text)
		if !ok {
			return nil, false
		}
		text = strings.TrimSpace(fixed)
	}
	return json.RawMessage(text), true
}

// compactJSON removes insignificant white space from valid JSON.
func compactJSON(v json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return v
	}
	return buf.Bytes()
}

// argsFromText turns argument text into a JSON object: "{}" for empty text, nil when the text
// is not (and cannot be repaired into) an object. A JSON string holding an object is unwrapped.
func argsFromText(text string) json.RawMessage {
	if strings.TrimSpace(text) == "" {
		return emptyArgs
	}
	v, ok := looseValue(text)
	if !ok {
		return nil
	}
	return argsFromValue(v)
}

// argsFromInnerText is argsFromText for the content of a JSON string: it unwraps no further,
// so repair turning text into yet another string cannot recurse.
func argsFromInnerText(text string) json.RawMessage {
	if v, ok := looseValue(text); ok && v[0] == '{' {
		return compactJSON(v)
	}
	return nil
}

// argsFromValue turns a decoded arguments value into a JSON object, or nil.
func argsFromValue(v json.RawMessage) json.RawMessage {
	switch {
	case len(v) == 0 || string(v) == "null":
		return emptyArgs
	case v[0] == '{':
		return compactJSON(v)
	case v[0] == '"':
		var inner string
		if json.Unmarshal(v, &inner) != nil || strings.TrimSpace(inner) == "" {
			return emptyArgs
		}
		return argsFromInnerText(inner)
	}
	return nil
}

// newCall builds a Call from a name and its raw argument text.
func newCall(name, rawArgs string, f Format) Call {
	return Call{Name: strings.TrimSpace(name), Args: argsFromText(rawArgs), Raw: strings.TrimSpace(rawArgs), Format: f}
}

// callsFromJSON reads the calls in a decoded JSON value: a call object, an array of them, an
// OpenAI-shaped {"function":{…}} or {"tool_calls":[…]}. It returns nil when the value does not
// have the shape of a call.
func callsFromJSON(v json.RawMessage, f Format) []Call {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return nil
	}
	if v[0] == '[' {
		var items []json.RawMessage
		if json.Unmarshal(v, &items) != nil {
			return nil
		}
		var calls []Call
		for _, item := range items {
			calls = append(calls, callsFromJSON(item, f)...)
		}
		return calls
	}
	var obj map[string]json.RawMessage
	if v[0] != '{' || json.Unmarshal(v, &obj) != nil {
		return nil
	}
	return callsFromObject(obj, f)
}

func callsFromObject(obj map[string]json.RawMessage, f Format) []Call {
	if list, ok := obj["tool_calls"]; ok {
		return callsFromJSON(list, f)
	}
	if list, ok := obj["tool_uses"]; ok {
		return parallelCalls(list, f)
	}
	for _, key := range []string{"function", "function_call", "functionCall", "tool_call", "tool_use"} {
		if fn, ok := obj[key]; ok && len(fn) > 0 && fn[0] == '{' {
			return callsFromJSON(fn, f)
		}
	}
	name := stringField(obj, nameKeys[:]...)
	if _, ok := obj["action_input"]; ok && name == "" {
		name = stringField(obj, "action") // LangChain's JSON agent: {"action": N, "action_input": …}
	}
	if name == "" {
		name = stringField(obj, "function")
	}
	if name == "" {
		return nil
	}
	if f == FormatJSON && stringField(obj, "type") == "function" {
		if _, ok := obj["parameters"]; ok {
			f = FormatLlama
		}
	}
	for _, key := range argKeys {
		if raw, ok := obj[key]; ok {
			return []Call{{Name: name, Args: argsFromValue(raw), Raw: rawArgText(raw), Format: f}}
		}
	}
	for key := range obj {
		if !slices.Contains(nameKeys[:], key) && key != "function" && key != "type" && key != "id" {
			return nil // a name beside other data is a record, not a call
		}
	}
	return []Call{{Name: name, Args: emptyArgs, Format: f}}
}

// flatCallIn reads a call object inside a call marker whose arguments sit beside its name
// instead of under an arguments key: <tool_call>{"name": "glob", "pattern": "*.py"}, as
// tool-calling-benchmark's BitNet and gemma3:1b write it. Outside a marker such an object is a
// record, not a call (callsFromObject).
func flatCallIn(text string, f Format) []Call {
	v, ok := looseValue(text)
	var obj map[string]json.RawMessage
	if !ok || v[0] != '{' || json.Unmarshal(v, &obj) != nil {
		return nil
	}
	name := stringField(obj, nameKeys[:]...)
	if name == "" {
		return nil
	}
	args := map[string]json.RawMessage{}
	for k, val := range obj {
		if !slices.Contains(nameKeys[:], k) && k != "type" && k != "id" {
			args[k] = val
		}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil
	}
	return []Call{{Name: name, Args: raw, Raw: string(raw), Format: f}}
}

// rawArgText is the argument text as written: a string's content, or the JSON itself.
func rawArgText(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// stringField returns the first of keys that holds a non-empty JSON string.
func stringField(obj map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		var s string
		if raw, ok := obj[k]; ok && json.Unmarshal(raw, &s) == nil && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// jsonCallsIn reads the calls in argument-bearing JSON text, repairing it when needed.
func jsonCallsIn(text string, f Format) []Call {
	v, ok := looseValue(text)
	if !ok {
		return nil
	}
	return callsFromJSON(v, f)
}

// escapeRawControls escapes the raw line breaks and tabs models leave inside JSON strings
// (file contents above all). It is the most common breakage and, unlike general repair,
// costs one linear pass at any length.
func escapeRawControls(text string) string {
	var b strings.Builder
	inString := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\' && inString && i+1 < len(text):
			b.WriteByte(c)
			i++
			c = text[i]
		case c == '"':
			inString = !inString
		case inString && c == '\n':
			b.WriteString(`\n`)
			continue
		case inString && c == '\r':
			b.WriteString(`\r`)
			continue
		case inString && c == '\t':
			b.WriteString(`\t`)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// fusedKey is a member whose key's closing quote and colon became "=": {"name="bash", …}.
var fusedKey = lazyre.New(`([{,]\s*)"([A-Za-z_][A-Za-z0-9_]{0,63})="`)

// unfuseJSON rewrites the fused members of an object (tagpair.go) as JSON: "k="v" becomes
// "k": "v", and "arguments="{…}" with a raw object inside becomes "arguments": {…}. Text
// without a fused member is returned as it is.
func unfuseJSON(text string) string {
	if !strings.Contains(text, `="`) {
		return text
	}
	var b strings.Builder
	at, objects := 0, true // objects: no raw object has failed to close (one failed scan, not one per member)
	for _, m := range fusedKey.FindAllStringSubmatchIndex(text, -1) {
		if m[0] < at {
			continue
		}
		b.WriteString(text[at:m[0]])
		b.WriteString(text[m[2]:m[3]])
		b.WriteString(`"` + text[m[4]:m[5]] + `": `)
		at = m[1]
		if objects && at < len(text) && text[at] == '{' {
			end, ok := matchJSON(text, at)
			if ok && end < len(text) && text[end] == '"' {
				b.WriteString(text[at:end])
				at = end + 1
				continue
			}
			objects = ok
		}
		b.WriteByte('"')
	}
	b.WriteString(text[at:])
	return b.String()
}
