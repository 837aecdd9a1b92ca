package messages

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// A shortened payload still decodes into its struct, keeps short strings whole, and cuts long
// ones to a preview that names the artifact holding the whole.
func TestShortenJSONKeepsTheShapeAndNamesTheWhole(t *testing.T) {
	long := strings.Repeat("é", 10_000) // multi-byte: the cut must not split a rune
	raw, _ := json.Marshal(&ToolCallData{Turn: 3, CallID: "c1", Tool: "write_file", Args: long, Summary: "write_file big.txt"})
	out, err := ShortenJSON(raw, "artifact sha256:abc")
	if err != nil {
		t.Fatal(err)
	}
	var d ToolCallData
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatal(err)
	}
	if d.Turn != 3 || d.CallID != "c1" || d.Tool != "write_file" || d.Summary != "write_file big.txt" {
		t.Errorf("short fields changed: %+v", d)
	}
	if len(d.Args) > previewString+200 || !strings.Contains(d.Args, "20000 bytes in all") || !strings.Contains(d.Args, "sha256:abc") {
		t.Errorf("preview: %d bytes, ends %q", len(d.Args), d.Args[len(d.Args)-80:])
	}
	if !json.Valid(out) || strings.ContainsRune(d.Args, '\uFFFD') {
		t.Error("the cut split a rune")
	}
}

// An event the bus refuses is replaced under the same seq by a fatal error event, and the next
// event follows it: a monitor sees the loss, not a gap.
func TestEmitReplacesAnUnpublishableEventWithAnErrorUnderItsSeq(t *testing.T) {
	var got []Envelope
	em := NewEmitter("ns", "s", "root", "", 1, func(subject string, data []byte) error {
		var e Envelope
		if err := json.Unmarshal(data, &e); err != nil {
			return err
		}
		if e.Type == EventToolProposed {
			return errors.New("maximum payload exceeded")
		}
		got = append(got, e)
		return nil
	})
	if _, err := em.Emit(TurnStartedEvent.Of(&TurnStartedData{Turn: 1})); err != nil {
		t.Fatal(err)
	}
	if _, err := em.Emit(ToolProposedEvent.Of(&ToolCallData{Tool: "bash"})); err == nil {
		t.Fatal("a refused event reported no error")
	}
	if _, err := em.Emit(TurnFinishedEvent.Of(&TurnFinishedData{Turn: 1})); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[1].Type != EventError || got[1].Seq != 2 || got[2].Seq != 3 {
		t.Fatalf("published: %+v", got)
	}
	var d ErrorData
	if json.Unmarshal(got[1].Data, &d) != nil || !d.Fatal || !strings.Contains(d.Message, "tool.proposed") || !strings.Contains(d.Message, "maximum payload") {
		t.Errorf("stand-in error: %s", got[1].Data)
	}
}
