package config

// Front matter: the "---" YAML header of the Markdown files a project keeps for roles
// (.troupe/agents), prompt modes (.troupe/prompts) and skills (SKILL.md).

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// splitFrontMatter cuts "---\n<yaml>\n---\n<body>". offset is the number of file lines before
// the YAML, so YAML line numbers can be turned into file line numbers.
func splitFrontMatter(data []byte) (front []byte, body string, offset int, err error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // editors on Windows add a BOM
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return nil, "", 0, errors.New(`missing front matter: the file must start with a "---" line, then keys such as description: and tools:, then a closing "---" line, then the prompt`)
	}
	lines := strings.SplitAfter(rest, "\n")
	for i, l := range lines {
		if strings.TrimRight(l, " \t\n") == "---" {
			return []byte(strings.Join(lines[:i], "")), strings.Join(lines[i+1:], ""), 1, nil
		}
	}
	return nil, "", 0, errors.New(`front matter is not closed: add a "---" line after the keys, before the prompt`)
}

// shiftYAMLLines rewrites "line N" in a YAML error so N counts from the top of the file.
// yaml.v3 numbers its parser errors ("did not find expected …") from 0 and its scanner errors
// from 1, so the former get one more.
func shiftYAMLLines(msg string, offset int) string {
	msg = strings.TrimPrefix(msg, "yaml: ")
	if strings.Contains(msg, "did not find expected") {
		offset++
	}
	return yamlLineRE.ReplaceAllStringFunc(msg, func(s string) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(s, "line "))
		return "line " + strconv.Itoa(n+offset)
	})
}

// scalarString accepts a YAML scalar (a null is ""), and refuses lists and maps.
func scalarString(v *yaml.Node) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", errors.New("must be a single value, not a list or map")
	}
	if v.Tag == "!!null" {
		return "", nil
	}
	return strings.TrimSpace(v.Value), nil
}

// toolList accepts a YAML list of names or a comma-separated string; duplicates are dropped. An
// absent value (null) is nil, meaning the parent's tools; an empty list is refused, since a nil
// and an empty slice are too easy to confuse downstream.
func toolList(v *yaml.Node) ([]string, error) {
	var raw []string
	switch {
	case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
		return nil, nil
	case v.Kind == yaml.ScalarNode:
		raw = strings.Split(v.Value, ",")
	case v.Kind == yaml.SequenceNode:
		for _, item := range v.Content {
			if item.Kind != yaml.ScalarNode {
				return nil, errors.New("must list tool names (read_file, grep, …), not nested lists or maps")
			}
			raw = append(raw, item.Value)
		}
	default:
		return nil, errors.New("must be a list of tool names or a comma-separated string")
	}
	var out []string
	for _, t := range raw {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		if !toolNameRE.MatchString(t) {
			return nil, fmt.Errorf("has %q, which is not a tool name", t)
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("is empty; leave the key out for all of the parent's tools")
	}
	return out, nil
}
