package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Values in another shape than the schema's type, where the meaning is certain (issue 20's
// value shapes): a string argument sent as an object holding only that argument again
// ({"command": {"command": "ls"}}, {"file": {"path": "a.go"}}: the whole argument object
// nested under one key), a file's content sent as its lines (["line 1", "line 2"]; a .json
// file's array is its JSON text), and a
// file filter sent as several globs (grep's glob: ["*.go", "*.ts"] is the alternatives
// {*.go,*.ts}, the brace syntax the glob matcher reads).

// maxValueLines bounds the lines a content array is joined from (a write is bounded anyway;
// this bounds the work on a hostile array).
const maxValueLines = 1 << 16

// valueShapes rewrites each value the schema types as a string and the call sent otherwise.
func (s *argsSchema) valueShapes(args map[string]any) []Repair {
	var repairs []Repair
	for _, key := range slices.Sorted(maps.Keys(args)) {
		if !s.takesOnlyString(key) {
			continue
		}
		before := args[key]
		var after string
		switch v := before.(type) {
		case map[string]any:
			inner, ok := s.sameArgument(key, v)
			if !ok {
				continue
			}
			after = inner
		case []any:
			text, ok := s.stringList(key, v)
			if p, _ := args["path"].(string); key == "content" && strings.HasSuffix(strings.ToLower(p), ".json") {
				b, err := json.Marshal(v) // a JSON file's content is the array itself, as an object's is
				text, ok = string(b), err == nil
			}
			if !ok {
				continue
			}
			after = text
		default:
			continue
		}
		args[key] = after
		b, _ := json.Marshal(before)
		repairs = append(repairs, newRepair(RepairCoercion, fmt.Sprintf("%s: %s", key, preview(string(b))), fmt.Sprintf("%s: %s", key, preview(after))))
	}
	return repairs
}

// takesOnlyString says whether the schema declares key as a string and nothing else.
func (s *argsSchema) takesOnlyString(key string) bool {
	for _, p := range s.props {
		if p.name == key {
			return len(p.types) == 1 && p.types[0] == "string"
		}
	}
	return false
}

// sameArgument is the string inside an object that holds only this argument again, under its
// own name or an alias of it.
func (s *argsSchema) sameArgument(key string, obj map[string]any) (string, bool) {
	if len(obj) != 1 {
		return "", false
	}
	for k, v := range obj {
		text, isText := v.(string)
		if !isText || (k != key && !slices.Contains(argAliases[normalizedName(k)], key)) {
			return "", false
		}
		return text, true
	}
	return "", false
}

// stringList reads a list sent for a string argument: a file's content as its lines, or
// grep's glob as alternatives. Anything else stays for validation to name.
func (s *argsSchema) stringList(key string, list []any) (string, bool) {
	if len(list) == 0 || len(list) > maxValueLines {
		return "", false
	}
	items := make([]string, len(list))
	for i, v := range list {
		text, ok := v.(string)
		if !ok {
			return "", false
		}
		items[i] = text
	}
	switch {
	case key == "content" && !s.has("old_string"):
		return strings.Join(items, "\n") + "\n", true
	case key == "glob" && s.has("pattern"):
		if len(items) == 1 {
			return strings.TrimSpace(items[0]), true
		}
		for i, g := range items {
			g = strings.TrimSpace(g)
			if g == "" || strings.ContainsAny(g, "{},") {
				return "", false
			}
			items[i] = g
		}
		return "{" + strings.Join(items, ",") + "}", true
	}
	return "", false
}

// promptURL reads a fetch given only a prompt that holds its one URL (Gemini CLI's web_fetch:
// "Summarize https://…") as that URL, and drops a prompt sent beside the URL (Claude Code's
// WebFetch runs it over the page; here the page comes back whole and the model reads it).
func (s *argsSchema) promptURL(args map[string]any) []Repair {
	prompt, ok := args["prompt"].(string)
	if !ok || !s.has("url") || s.has("prompt") {
		return nil
	}
	if _, has := args["url"]; !has {
		urls := urlInText.FindAllString(prompt, 3)
		if len(urls) != 1 {
			return nil
		}
		args["url"] = strings.TrimRight(urls[0], ".,;:")
	}
	delete(args, "prompt")
	return []Repair{newRepair(RepairArgAlias, "prompt: "+preview(prompt), fmt.Sprintf("url: %v", args["url"]))}
}
