package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// The "syntax_error" family: on an edit or write of a file the post-edit syntax check knows,
// the model writes the new text with one plain syntax error. Told of it (the tool result says
// "syntax check: ..."), its next call fixes it; not told, it believes the step done.

// syntaxReport is what tools/lifecycle.go's check appends to a write's result.
const syntaxReport = "\n\nsyntax check: "

// newTextArg is the argument holding the text a write step puts in the file.
func newTextArg(s Step) string {
	switch s.Name {
	case "edit_file":
		return "new_string"
	case "write_file":
		return "content"
	}
	return ""
}

// brokenStep is s with its new text broken, and the edit that fixes it; ok is false when s
// writes no file the syntax check knows.
func brokenStep(s Step) (broken, fix Step, ok bool) {
	key := newTextArg(s)
	var args map[string]any
	if key == "" || json.Unmarshal(s.Args, &args) != nil {
		return Step{}, Step{}, false
	}
	path, _ := args["path"].(string)
	text, _ := args[key].(string)
	bad, ok := breakSyntax(strings.ToLower(filepath.Ext(path)), text)
	if !ok {
		return Step{}, Step{}, false
	}
	args[key] = bad
	broken = Step{Name: s.Name, Args: json.RawMessage(jsonText(args))}
	fix = Step{Name: "edit_file", Args: json.RawMessage(jsonText(map[string]any{"path": path, "old_string": bad, "new_string": text}))}
	return broken, fix, true
}

// breakSyntax writes text with one plain syntax error for a file of extension ext.
func breakSyntax(ext, text string) (string, bool) {
	switch ext {
	case ".go": // a missing closing brace
		return appendBeforeNewline(text, " {"), true
	case ".json": // a trailing comma
		if i := strings.LastIndex(text, "}"); i >= 0 {
			return text[:i] + "," + text[i:], true
		}
		return appendBeforeNewline(text, ","), true
	case ".yaml", ".yml": // an unclosed quote
		return `"` + text, true
	case ".toml", ".py", ".sh", ".bash": // an unclosed quote, else a missing closing paren
		if bad, ok := unclosedQuote(text); ok {
			return bad, true
		}
		if ext == ".toml" {
			return appendBeforeNewline(text, ` = "`), true
		}
		return appendBeforeNewline(text, " ("), true
	case ".js", ".mjs", ".cjs": // a missing closing paren
		return appendBeforeNewline(text, "("), true
	}
	return "", false
}

// unclosedQuote drops the closing quote text ends with (trailing newlines aside).
func unclosedQuote(text string) (string, bool) {
	body := strings.TrimRight(text, "\n")
	if body == "" || !strings.ContainsAny(body[len(body)-1:], `"'`) {
		return "", false
	}
	return body[:len(body)-1] + text[len(body):], true
}

// appendBeforeNewline adds s at the end of text's last line.
func appendBeforeNewline(text, s string) string {
	body := strings.TrimRight(text, "\n")
	return body + s + text[len(body):]
}
