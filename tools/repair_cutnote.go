package tools

import (
	"encoding/json"
	"slices"
	"strings"
)

// Arguments cut off inside a note (issue 20): {"command": "node -c a.js", "description": "Check
// syntax — the text ends in the description, a note the tool drops (dropNotes), with every
// argument before it complete (MiniMax M2.5 in opencode, which refused it as an unterminated
// string). What runs is what the model sent in full: the note is cut away with its key, so
// nothing is completed on a guess. A cut anywhere else (a command, a file's content) is still
// refused as cut off (prepare).

// cutInNote is text without its last member, when text ends inside the string value of a
// top-level note argument and the members before it form a valid object.
func cutInNote(text string) (string, bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "{") {
		return text, false
	}
	depth, memberStart := 0, 0 // memberStart: where the last top-level member's separator is
	var lastKey string
	prev := byte(0)
	for i := 0; i < len(t); i++ {
		switch c := t[i]; c {
		case '"':
			end, closed := stringEnd(t, i, '"')
			if !closed {
				if depth != 1 || prev != ':' || !isNoteKey(lastKey) {
					return text, false
				}
				head := strings.TrimRight(t[:memberStart], " \t\r\n") + "}"
				if memberStart == 0 || !json.Valid([]byte(head)) {
					return text, false
				}
				return head, true
			}
			if depth == 1 && (prev == '{' || prev == ',') {
				_ = json.Unmarshal([]byte(t[i:end]), &lastKey)
			}
			i = end - 1
			prev = 'v'
		case '{', '[':
			if depth == 1 && c == '{' && prev != ':' && prev != '[' && prev != ',' {
				return text, false
			}
			depth++
			prev = c
		case '}', ']':
			depth--
			prev = 'v'
			if depth <= 0 {
				return text, false // the object closed: not cut off
			}
		case ',':
			if depth == 1 {
				memberStart = i
			}
			prev = c
		case ':':
			prev = c
		case ' ', '\t', '\r', '\n':
		default:
			prev = 'v'
		}
	}
	return text, false
}

// isNoteKey says whether key is one of the note arguments, in any spelling.
func isNoteKey(key string) bool {
	norm := normalizedName(key)
	return slices.ContainsFunc(noteArgs, func(n string) bool { return normalizedName(n) == norm })
}
