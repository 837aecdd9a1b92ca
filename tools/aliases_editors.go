package tools

import (
	"fmt"
	"strings"
)

// More harnesses' editor and search tools, each as its own tool definition declares it:
// Anthropic's text editor tool (str_replace_based_edit_tool from text_editor_20250429,
// str_replace_editor before it: command view / create / str_replace / insert, view_range),
// which Goose (text_editor, its developer__text_editor without the namespace, with write for
// create) and the OpenHands agent SDK (file_editor) share; OpenHands' security_risk, an
// annotation every one of its tools takes; Kimi CLI's StrReplaceFile (path, edit: one
// {old, new, replace_all} or a list of them); Mistral Vibe's search_replace (file_path and
// content holding SEARCH/REPLACE blocks). Their entries are in harnessTools.

// textEditor maps the text-editor family of tools by its command.
func textEditor(args map[string]any) (string, string) {
	delete(args, "security_risk")
	return gooseTextEditor(args)
}

// kimiStrReplace maps Kimi CLI's StrReplaceFile of one edit; a list of several is split into
// one edit_file each (split.go), so reaching here with several is refused with the way out.
func kimiStrReplace(args map[string]any) (string, string) {
	edit := objectOf(args["edit"])
	if edit == nil {
		list, ok := listArg(args["edit"])
		if !ok || len(list) != 1 {
			return "", fmt.Sprintf("edit must be one {old, new} object (it has %d); call edit_file once per edit, in order", len(list))
		}
		if edit = objectOf(list[0]); edit == nil {
			return "", "its edit is not an object; call edit_file with path, old_string and new_string"
		}
	}
	delete(args, "edit")
	for k, v := range edit {
		args[k] = v
	}
	return "", ""
}

// vibeSearchReplace maps Mistral Vibe's search_replace: its content is the SEARCH/REPLACE diff.
func vibeSearchReplace(args map[string]any) (string, string) {
	if _, hasContent := args["content"]; !hasContent && args["diff"] == nil {
		return "", "" // Cursor's search_replace (file_path, old_string, new_string) is edit_file as it is
	}
	if c, ok := args["content"]; ok && args["diff"] == nil {
		args["diff"] = c
		delete(args, "content")
	}
	return searchReplaceDiff(args)
}

// copilotTerminal maps GitHub Copilot's run_in_terminal. Its definition requires isBackground,
// so every call carries it and false says nothing: only true is our background.
func copilotTerminal(args map[string]any) (string, string) {
	v, ok := args["isBackground"]
	delete(args, "isBackground")
	if on, _ := v.(bool); on || v == "true" {
		args["background"] = true
	} else if ok && v != false && v != "false" {
		args["background"] = v // not a boolean: validation names it
	}
	return "", ""
}

// editorOrder is the text editor tools' required arguments in their definition's order.
var editorOrder = []string{"command", "path"}

// positionalArgs reads arguments sent as bare lines, one value a line, as the names given in
// order; ok only when the text is not JSON and holds exactly that many non-empty lines.
func positionalArgs(raw string, names []string) (map[string]any, bool) {
	text := strings.TrimSpace(raw)
	if len(names) == 0 || text == "" || strings.ContainsAny(text[:1], `{["`) {
		return nil, false
	}
	var values []string
	for line := range strings.SplitSeq(text, "\n") {
		if v := strings.TrimSpace(line); v != "" {
			values = append(values, v)
		}
	}
	if len(values) != len(names) {
		return nil, false
	}
	args := make(map[string]any, len(names))
	for i, n := range names {
		args[n] = values[i]
	}
	return args, true
}
