package tools

import (
	"encoding/json"
	"strings"
)

// GLM's argument markup inside JSON arguments: a serving stack that reads a GLM call half as
// JSON leaves the first value open and the rest as GLM's own pairs (its chat template writes
// each argument as <arg_key>k</arg_key><arg_value>v</arg_value>):
//
//	{"command": "git diff --stat</arg_value>\n<arg_key>description</arg_key>\n<arg_value>Show it</arg_value>
//
// The first value ends at its </arg_value> and each later pair is read whole; between them only
// blanks, literal \n escapes and a stray ':' may stand. Anything else is not guessed at.

const (
	glmValueClose = "</arg_value>"
	glmKeyOpen    = "<arg_key>"
	glmKeyClose   = "</arg_key>"
	glmValueOpen  = "<arg_value>"
)

// glmPairsInJSON reads such arguments as a JSON object; ok is false for any other text.
func glmPairsInJSON(text string) (string, bool) {
	key, ok := firstKey(text)
	if !ok || !strings.Contains(text, glmValueClose) {
		return "", false
	}
	rest := strings.TrimLeft(text[strings.Index(text, key)+len(key):], " \t\r\n")
	rest, ok = strings.CutPrefix(rest, ":")
	if !ok {
		return "", false
	}
	rest, ok = strings.CutPrefix(strings.TrimLeft(rest, " \t\r\n"), `"`)
	if !ok {
		return "", false
	}
	args := map[string]any{}
	value, rest, _ := strings.Cut(rest, glmValueClose)
	args[strings.Trim(key, `"`)] = jsonStringText(value)
	for {
		rest = skipGLMStray(rest)
		if rest == "" || rest == `"}` || rest == "}" {
			break
		}
		after, ok := strings.CutPrefix(rest, glmKeyOpen)
		if !ok {
			return "", false
		}
		k, after, ok := strings.Cut(after, glmKeyClose)
		if !ok || strings.TrimSpace(k) == "" || strings.Contains(k, "<") {
			return "", false
		}
		after, ok = strings.CutPrefix(skipGLMStray(after), glmValueOpen)
		if !ok {
			return "", false
		}
		v, after, ok := strings.Cut(after, glmValueClose)
		if !ok {
			return "", false
		}
		args[strings.TrimSpace(k)] = jsonStringText(v)
		rest = after
	}
	out, err := json.Marshal(args)
	return string(out), err == nil
}

// skipGLMStray drops the blanks, literal \n escapes and colons between GLM pairs.
func skipGLMStray(s string) string {
	for {
		t := strings.TrimLeft(s, " \t\r\n:")
		for _, esc := range []string{`\n`, `\r`, `\t`} {
			t = strings.TrimPrefix(t, esc)
		}
		if t == s {
			return s
		}
		s = t
	}
}

// jsonStringText is the text of a JSON string's contents with its escapes decoded, or the
// text as written when it does not decode.
func jsonStringText(s string) string {
	var out string
	if json.Unmarshal([]byte(`"`+s+`"`), &out) == nil {
		return out
	}
	return s
}
