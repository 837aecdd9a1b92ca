package actors

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

// A 10 MB tool argument (over the bus's 8 MB message limit) goes by reference: the executor
// runs the call, every event is published with a gap-free seq, and the event that carries the
// argument points at an artifact holding it whole. (Issue 10 item 7: it broke the seq and
// surfaced as "could not reach the tool executor".)
func TestTenMegabyteToolArgumentGoesByReference(t *testing.T) {
	content := strings.Repeat("0123456789abcdef", 10<<20/16)
	args, _ := json.Marshal(map[string]string{"path": "big.txt", "content": content})
	call, _ := json.Marshal(map[string]any{"name": "write_file", "args": json.RawMessage(args)})
	tn := startTestNode(t, fmt.Sprintf(`{"turns": [{"tool_calls": [%s]}, {"text": "wrote it"}]}`, call))
	if err := tn.client.StartSession(&messages.StartSession{ID: "big", Task: "write", Model: "scripted", Mode: "yolo",
		Workspace: tn.Root, ContextWindow: 64 << 20}); err != nil {
		t.Fatal(err)
	}
	fin := tn.waitFinishedEvent(t, "big")
	if fin.Status != messages.StatusDone || fin.Final != "wrote it" {
		t.Fatalf("finished: %+v", fin)
	}
	if data, err := os.ReadFile(filepath.Join(tn.Root, "big.txt")); err != nil || len(data) != len(content) {
		t.Fatalf("big.txt: %d bytes, %v; want %d", len(data), err, len(content))
	}
	events := tn.sessionEvents("big")
	var byRef int
	for i, e := range events {
		if e.Seq != uint64(i+1) {
			t.Fatalf("event %d (%s) has seq %d: the seq has a gap", i, e.Type, e.Seq)
		}
		if e.Type == messages.EventError {
			t.Errorf("error event: %s", e.Data)
		}
		if e.DataRef == "" {
			continue
		}
		byRef++
		full, err := tn.store.Artifact(e.DataRef)
		if err != nil {
			t.Fatalf("%s event's artifact: %v", e.Type, err)
		}
		var d messages.ToolCallData
		if err := json.Unmarshal(full, &d); err != nil || !strings.Contains(d.Args, content) || e.DataBytes != len(full) {
			t.Fatalf("%s event's artifact (%d bytes, says %d) does not hold the argument: %v", e.Type, len(full), e.DataBytes, err)
		}
		if len(e.Data) > 64<<10 {
			t.Errorf("%s event still carries %d bytes inline", e.Type, len(e.Data))
		}
		if v, err := e.DecodeData(); err != nil || v.(*messages.ToolCallData).Tool != "write_file" {
			t.Errorf("%s event's inline preview does not decode: %v", e.Type, err)
		}
	}
	if byRef == 0 {
		t.Error("no event went by reference")
	}
}

// waitFinishedEvent waits for a session's session.finished event. Its deadline is long: a
// 10 MB payload is encoded, hashed and stored several times, which under -race on a loaded
// two-core machine took 75-95 s.
func (tn *testNode) waitFinishedEvent(t *testing.T, id string) *messages.SessionFinishedData {
	t.Helper()
	return tn.waitFinishedWithin(t, id, 4*time.Minute)
}

// memoryPayloads is a PayloadStore in memory; refuse makes it fail every write.
type memoryPayloads struct {
	refuse bool
	mu     sync.Mutex
	data   map[string][]byte
}

func (m *memoryPayloads) PutArtifact(data []byte) (string, error) {
	if m.refuse {
		return "", errors.New("value too large")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ref := fmt.Sprintf("sha256:%064d", len(m.data))
	m.data[ref] = data
	return ref, nil
}

func (m *memoryPayloads) Artifact(ref string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if d, ok := m.data[ref]; ok {
		return d, nil
	}
	return nil, errors.New("no such artifact")
}

// Small messages travel as they are; a large one becomes a reference the receiving side turns
// back into the same message; a store that refuses it is an error, never a silent drop.
func TestBridgeSendsLargeMessagesByReference(t *testing.T) {
	st := &memoryPayloads{data: map[string][]byte{}}
	b := &Bridge{artifacts: st}
	small, _ := messages.Encode(&messages.ToolStarted{CallID: "c1"})
	if out, err := b.messageByReference(small); err != nil || string(out) != string(small) {
		t.Fatalf("small message changed: %s, %v", out, err)
	}
	big := &messages.ToolRequest{CallID: "c2", Name: "write_file", Args: strings.Repeat("y", 3<<20)}
	data, _ := messages.Encode(big)
	out, err := b.messageByReference(data)
	if err != nil || len(out) > 1<<10 {
		t.Fatalf("large message: %d bytes on the bus, %v", len(out), err)
	}
	back, err := b.decode(out)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := back.(*messages.ToolRequest); !ok || got.Args != big.Args || got.CallID != "c2" {
		t.Fatalf("decoded %T", back)
	}
	// An event keeps its envelope; a follower in the node gets its whole Data back.
	whole := json.RawMessage(fmt.Sprintf(`{"args":%q}`, big.Args))
	line, _ := json.Marshal(&messages.Envelope{V: 1, Seq: 7, Type: messages.EventToolProposed, Data: whole})
	sent, err := b.eventByReference(line)
	if err != nil || len(sent) > 64<<10 {
		t.Fatalf("large event: %d bytes on the bus, %v", len(sent), err)
	}
	var env messages.Envelope
	if err := json.Unmarshal(sent, &env); err != nil || env.Seq != 7 || env.DataRef == "" || env.DataBytes != len(whole) {
		t.Fatalf("event by reference: %+v, %v", env, err)
	}
	if err := b.wholeEventData(&env); err != nil || string(env.Data) != string(whole) || env.DataRef != "" {
		t.Fatalf("whole data back: %d bytes, %v", len(env.Data), err)
	}
	st.refuse = true
	if _, err := b.messageByReference(data); err == nil || !strings.Contains(err.Error(), "value too large") {
		t.Fatalf("a refused artifact: %v", err)
	}
	if _, err := b.eventByReference(line); err == nil {
		t.Fatal("an oversized event with nowhere to keep it was let through")
	}
}
