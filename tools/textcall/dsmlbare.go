package textcall

import (
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// DeepSeek's DSML call block (invoke.go) rendered by a chat client that drops tags: each tag
// on its own line loses its angle brackets and the full-width bars around DSML become " | "
// (hermes-agent#115475, DeepSeek V4 Flash as it reached Telegram):
//
//	DSML | tool_calls
//	DSML | invoke name="terminal"
//	DSML | parameter name="command" string="true"
//	ls -la
//	DSML | /parameter
//	DSML | /invoke
//	DSML | /tool_calls
//
// Such lines are written back as the template's tags when one of them is an invoke, so the
// invoke scanner reads the block; other text is left as it is.

// dsmlBareLine is one tag line of the rendered block: its slash, tag name and attributes.
var dsmlBareLine = lazyre.New(`(?m)^[ \t]*DSML[ \t]*[|｜][ \t]*(/?)(tool_calls|function_calls|invoke|parameter)\b([^\n<>]*?)[ \t]*\r?$`)

// restoreDSMLLines rewrites the rendered DSML tag lines of text as the template's tags.
func restoreDSMLLines(text string) string {
	if !strings.Contains(text, "DSML") || !dsmlBareLine.MatchString(text) {
		return text
	}
	invoked := false
	for _, m := range dsmlBareLine.FindAllStringSubmatch(text, -1) {
		invoked = invoked || m[2] == "invoke" && m[1] == "" && strings.Contains(m[3], "name=")
	}
	if !invoked {
		return text
	}
	return dsmlBareLine.ReplaceAllString(text, "<${1}｜DSML｜$2$3>")
}
