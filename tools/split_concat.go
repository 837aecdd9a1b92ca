package tools

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Arguments that are several complete JSON objects one after another: a client that appends
// every streamed delta of a call's arguments under one call index when the server repeats
// them, or when the model sent several calls under one index ({"query":"A"}{"query":"B"}:
// open-webui#22235; the same object twice: async-openai#329 with Mistral's API, AstrBot#7735).
// The same object repeated is one call; different objects are one call each, in order, all
// or none: every object must map to a tool, else the call is left to the usual mapping, which
// refuses it as invalid JSON.

// concatenatedObjects splits raw into the JSON objects it holds back to back (white space
// apart), when it holds at least two and nothing else.
func concatenatedObjects(raw string) ([]string, bool) {
	text := strings.TrimSpace(raw)
	if !strings.HasPrefix(text, "{") || !strings.HasSuffix(text, "}") || json.Valid([]byte(text)) {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(text))
	var objects []string
	for dec.More() {
		if len(objects) == maxPieces {
			return nil, false
		}
		var obj json.RawMessage
		if dec.Decode(&obj) != nil || len(obj) == 0 || obj[0] != '{' {
			return nil, false
		}
		objects = append(objects, string(obj))
	}
	return objects, len(objects) >= 2
}

// concatenatedCalls maps a call whose arguments are concatenated objects to its calls: one
// when every object is the same, else one per object, each through Split or Resolve.
func (r *Registry) concatenatedCalls(name, raw string) ([]Piece, bool) {
	if strings.HasPrefix(name, "mcp__") {
		return nil, false
	}
	objects, ok := concatenatedObjects(raw)
	if !ok {
		return nil, false
	}
	if allSameJSON(objects) {
		objects = objects[:1]
	}
	var pieces []Piece
	for _, obj := range objects {
		if split, ok := r.Split(name, obj); ok {
			pieces = append(pieces, split...)
			continue
		}
		canonical, translated, ok := r.Resolve(name, obj)
		if !ok {
			return nil, false
		}
		pieces = append(pieces, Piece{Name: canonical, Args: translated})
	}
	if len(pieces) > maxPieces {
		return nil, false
	}
	return pieces, true
}

// allSameJSON reports whether every object is the first one (compared compacted).
func allSameJSON(objects []string) bool {
	var first bytes.Buffer
	if json.Compact(&first, []byte(objects[0])) != nil {
		return false
	}
	for _, o := range objects[1:] {
		var b bytes.Buffer
		if json.Compact(&b, []byte(o)) != nil || !bytes.Equal(b.Bytes(), first.Bytes()) {
			return false
		}
	}
	return true
}
