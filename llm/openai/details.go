package openai

import "encoding/json"

// detailBlocks merges the reasoning_details pieces of a stream into whole blocks, the shape
// OpenRouter wants sent back with the assistant message so that a model reasoning through a
// tool loop keeps its reasoning (signed or encrypted blocks included). The pieces of one block
// share its index; text, summary and data are appended; every other field (type, signature,
// format, id) is kept as last sent. Unknown fields travel verbatim.
type detailBlocks struct {
	blocks  []map[string]json.RawMessage
	byIndex map[int]int // a piece's index → position in blocks
}

// appended are the fields whose pieces are concatenated.
var appended = [...]string{"text", "summary", "data"}

// add merges one delta's reasoning_details array. It reports false when raw is not an
// array of objects (nothing is merged then).
func (d *detailBlocks) add(raw json.RawMessage) bool {
	var pieces []map[string]json.RawMessage
	if json.Unmarshal(raw, &pieces) != nil {
		return false
	}
	for _, p := range pieces {
		if p == nil {
			continue
		}
		d.merge(p)
	}
	return true
}

func (d *detailBlocks) merge(p map[string]json.RawMessage) {
	pos := -1
	var index int
	hasIndex := json.Unmarshal(p["index"], &index) == nil && p["index"] != nil
	switch {
	case hasIndex:
		if at, ok := d.byIndex[index]; ok {
			pos = at
		}
	case len(d.blocks) > 0 && string(d.blocks[len(d.blocks)-1]["type"]) == string(p["type"]):
		pos = len(d.blocks) - 1 // no index: a piece of the same type continues the last block
	}
	if pos < 0 {
		d.blocks = append(d.blocks, map[string]json.RawMessage{})
		pos = len(d.blocks) - 1
		if hasIndex {
			if d.byIndex == nil {
				d.byIndex = map[int]int{}
			}
			d.byIndex[index] = pos
		}
	}
	b := d.blocks[pos]
	for k, v := range p {
		if sofar, ok := b[k]; ok && isAppended(k) {
			var x, y string
			if json.Unmarshal(sofar, &x) == nil && json.Unmarshal(v, &y) == nil {
				v, _ = json.Marshal(x + y) // a string always marshals
			}
		}
		b[k] = v
	}
}

func isAppended(k string) bool {
	for _, a := range appended {
		if k == a {
			return true
		}
	}
	return false
}

// marshal is the merged blocks as a JSON array, nil when there are none.
func (d *detailBlocks) marshal() json.RawMessage {
	if len(d.blocks) == 0 {
		return nil
	}
	out, err := json.Marshal(d.blocks)
	if err != nil {
		return nil // values came from json.Unmarshal: they marshal
	}
	return out
}
