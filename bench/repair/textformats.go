package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The text formats of the "text" family: a persona writes every call in one of them, each as
// the format's documentation (and the golden files in tools/textcall/testdata) show it.
var textFormats = []string{"hermes", "qwen3_coder", "fenced_json", "bare_json", "llama", "mistral",
	"deepseek", "glm", "kimi", "harmony", "gemma", "python"}

// callText writes the call name(args) as text in format.
func callText(format, name string, args map[string]any) string {
	obj := jsonText(args)
	switch format {
	case "hermes": // Hermes 2 Pro / Qwen2.5 chat template
		return "I'll do that now.\n" + hermesBlock(name, args)
	case "qwen3_coder": // Qwen3-Coder's chat template: one tag per parameter, values as written
		var b strings.Builder
		fmt.Fprintf(&b, "<tool_call>\n<function=%s>\n", name)
		for _, k := range slices.Sorted(maps.Keys(args)) {
			fmt.Fprintf(&b, "<parameter=%s>\n%s\n</parameter>\n", k, plainValue(args[k]))
		}
		b.WriteString("</function>\n</tool_call>")
		return b.String()
	case "fenced_json":
		return fmt.Sprintf("Next step:\n```json\n{\"name\": %s, \"arguments\": %s}\n```", jsonText(name), obj)
	case "bare_json":
		return fmt.Sprintf("{\"name\": %s, \"arguments\": %s}", jsonText(name), obj)
	case "llama": // Llama 3.1 JSON tool calling after the python tag
		return fmt.Sprintf("<|python_tag|>{\"name\": %s, \"parameters\": %s}", jsonText(name), obj)
	case "mistral": // Mistral v3 tokenizer: [TOOL_CALLS] then a JSON array
		return fmt.Sprintf("[TOOL_CALLS][{\"name\": %s, \"arguments\": %s}]", jsonText(name), obj)
	case "deepseek": // DeepSeek V3.1 chat template
		return "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>" + name + "<｜tool▁sep｜>" + obj +
			"<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
	case "glm": // GLM-4.5 chat template: key/value tags after the name
		var b strings.Builder
		fmt.Fprintf(&b, "<tool_call>%s\n", name)
		for _, k := range slices.Sorted(maps.Keys(args)) {
			fmt.Fprintf(&b, "<arg_key>%s</arg_key>\n<arg_value>%s</arg_value>\n", k, plainValue(args[k]))
		}
		b.WriteString("</tool_call>")
		return b.String()
	case "kimi": // Kimi K2 chat template
		return "<|tool_calls_section_begin|><|tool_call_begin|>functions." + name + ":0<|tool_call_argument_begin|>" + obj +
			"<|tool_call_end|><|tool_calls_section_end|>"
	case "harmony": // gpt-oss harmony format, a call on the commentary channel
		return "<|channel|>commentary to=functions." + name + " <|constrain|>json<|message|>" + obj + "<|call|>"
	case "gemma": // Gemma's tool_code block
		return "```tool_code\nprint(default_api." + pythonCall(name, args) + ")\n```"
	case "python": // a Python call on its own line (Llama 3.2 pythonic)
		return "Let me do that.\n" + pythonCall(name, args)
	}
	return "" // not a format of textFormats
}

// hermesBlock is one Hermes call block.
func hermesBlock(name string, args map[string]any) string {
	return fmt.Sprintf("<tool_call>\n{\"name\": %s, \"arguments\": %s}\n</tool_call>", jsonText(name), jsonText(args))
}

// jsonText is v as compact JSON, without HTML escaping (a model writes < and > as they are).
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // only values decoded from JSON reach here, and they always encode
	return strings.TrimSuffix(b.String(), "\n")
}

// plainValue is a value as a tag-based format writes it: strings raw, the rest as JSON.
func plainValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return jsonText(v)
}

// pythonCall writes name(k=v, ...) with Python literals.
func pythonCall(name string, args map[string]any) string {
	parts := make([]string, 0, len(args))
	for _, k := range slices.Sorted(maps.Keys(args)) {
		parts = append(parts, k+"="+pythonLiteral(args[k], `"`))
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// pythonLiteral writes v as Python source: strings in the given quote, True/False/None.
func pythonLiteral(v any, quote string) string {
	switch x := v.(type) {
	case string:
		return quote + strings.NewReplacer(`\`, `\\`, quote, `\`+quote, "\n", `\n`, "\t", `\t`).Replace(x) + quote
	case bool:
		return map[bool]string{true: "True", false: "False"}[x]
	case nil:
		return "None"
	}
	return fmt.Sprint(v)
}
