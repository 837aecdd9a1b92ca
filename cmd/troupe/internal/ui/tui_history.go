package ui

import "github.com/troupe-dev/troupe/messages"

// historyEntries is how much of a resumed session's conversation the chat shows on opening.
const historyEntries = 40

// history puts a resumed session's conversation into the transcript: what the user said and the
// model answered, the last historyEntries of them, under a note saying it was resumed.
func (t *transcript) history(id string, entries []messages.LogEntry) {
	var shown []messages.LogEntry
	for _, e := range entries {
		if (e.Kind == messages.LogUser || e.Kind == messages.LogAssistant) && e.Text != "" {
			shown = append(shown, e)
		}
	}
	if len(shown) > historyEntries {
		shown = shown[len(shown)-historyEntries:]
	}
	t.note("resumed session %s (%d earlier messages)", id, len(shown))
	for _, e := range shown {
		if e.Kind == messages.LogUser {
			t.addUser(e.Text)
		} else {
			t.add(&entry{kind: entryAnswer, text: e.Text})
		}
	}
}
