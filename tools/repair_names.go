package tools

import (
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Two spellings of a name that hide a known one: the name inside quotes or backticks, as a
// model that writes tool names as code in its prose also writes them in the name field
// ("`bash`", "\"read_file\""), and Anthropic's versioned tool types, which its tool-use docs
// list beside each tool's name (bash_20250124, text_editor_20250728, str_replace_based_edit_tool
// is the name of text_editor_20250429): a model trained on them sends the type as the name.
// Either resolves only when what remains is a name resolve maps.

// maxUnwrappedName bounds the names these unwraps read: tool names are short (OpenAI's limit is
// 64 characters), and a hostile megabyte of name must cost nothing here.
const maxUnwrappedName = 128

// nameQuotes are the quote pairs a name comes wrapped in.
var nameQuotes = [][2]string{{"`", "`"}, {`"`, `"`}, {"'", "'"}, {"“", "”"}, {"‘", "’"}}

// unquotedName is name without the one pair of quotes around it.
func unquotedName(name string) (string, bool) {
	if len(name) > maxUnwrappedName {
		return "", false
	}
	for _, q := range nameQuotes {
		if inner, ok := strings.CutPrefix(name, q[0]); ok {
			if inner, ok = strings.CutSuffix(inner, q[1]); ok && inner != "" && !strings.ContainsAny(inner, "`\"'“”‘’") {
				return strings.TrimSpace(inner), true
			}
		}
	}
	return "", false
}

// versionSuffix is the date Anthropic's tool types end with (_20250124).
var versionSuffix = lazyre.New(`^([A-Za-z][A-Za-z_]*[A-Za-z])_20[0-9]{6}$`)

// versionedName is the tool type's name without its version date.
func versionedName(name string) (string, bool) {
	if len(name) > maxUnwrappedName {
		return "", false
	}
	m := versionSuffix.FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	return m[1], true
}
