package messages

// MemoryRequest asks a Node to show or change the cross-session memory (troupe memory,
// /memory): Action is list, add, replace, remove or clear; Target is user or project ("" lists
// both); Content and OldText are as for the memory tool.
type MemoryRequest struct {
	Action  string `json:"action"`
	Target  string `json:"target,omitempty"`
	Content string `json:"content,omitempty"`
	OldText string `json:"old_text,omitempty"`
}

// MemoryReply answers a MemoryRequest: what a change did (Refused: nothing changed, and Result
// says why) and the memory as it is after it.
type MemoryReply struct {
	Result  string       `json:"result,omitempty"`
	Refused bool         `json:"refused,omitempty"`
	Books   []MemoryBook `json:"books"`
}

// MemoryBook is one target's memory: where it is kept, its cap and use in characters, its
// entries, or why it cannot be read (Error: damaged, or off).
type MemoryBook struct {
	Target  string        `json:"target"`
	Where   string        `json:"where,omitempty"`
	Cap     int           `json:"cap"`
	Used    int           `json:"used"`
	Entries []MemoryEntry `json:"entries"`
	Error   string        `json:"error,omitempty"`
}

// MemoryEntry is one entry; Withheld says why it is left out of the prompt (it fails the scan).
type MemoryEntry struct {
	Text     string `json:"text"`
	Chars    int    `json:"chars"`
	Withheld string `json:"withheld,omitempty"`
}
