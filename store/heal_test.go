package store

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// parseLog builds entries from a compact notation, one token per entry:
//
//	U            user message      S   system note
//	A:x,y        assistant with calls x and y (tool names "tx", "ty")
//	R:x          result for call x
func parseLog(t testing.TB, spec string) []*Entry {
	t.Helper()
	var out []*Entry
	for i, tok := range strings.Fields(spec) {
		kind, arg, _ := strings.Cut(tok, ":")
		e := &Entry{Seq: uint64(i + 1)}
		switch kind {
		case "U":
			e.Kind, e.Text = KindUser, fmt.Sprint("u", i+1)
		case "S":
			e.Kind, e.Text = KindSystem, fmt.Sprint("s", i+1)
		case "A":
			e.Kind = KindAssistant
			if arg != "" {
				for _, id := range strings.Split(arg, ",") {
					e.Calls = append(e.Calls, Call{ID: id, Name: "t" + id})
				}
			}
		case "R":
			e.Kind, e.CallID, e.ToolName = KindToolResult, arg, "t"+arg
		default:
			t.Fatalf("bad token %q", tok)
		}
		out = append(out, e)
	}
	return out
}

// render writes entries back in the notation; a synthetic result shows as R:x! and every
// entry from the input keeps its original seq as #n, so reordering is visible.
func render(entries []*Entry) string {
	var parts []string
	for _, e := range entries {
		var s string
		switch e.Kind {
		case KindAssistant:
			ids := make([]string, len(e.Calls))
			for i, c := range e.Calls {
				ids[i] = c.ID
			}
			s = "A:" + strings.Join(ids, ",")
		case KindToolResult:
			s = "R:" + e.CallID
			if e.Text == InterruptedText && e.IsError {
				s += "!"
			}
		case KindUser:
			s = "U"
		default:
			s = "S"
		}
		if e.Seq != 0 {
			s += fmt.Sprintf("#%d", e.Seq)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestHeal(t *testing.T) {
	tests := []struct {
		name, log, view, synthetic string
	}{
		{"empty", "", "", ""},
		{"clean log is untouched", "U A:a R:a A:", "U#1 A:a#2 R:a#3 A:#4", ""},
		{"missing result", "U A:a,b R:a", "U#1 A:a,b#2 R:a#3 R:b!", "R:b!"},
		{"all results missing", "A:a,b", "A:a,b#1 R:a! R:b!", "R:a! R:b!"},
		{"results put in call order", "A:a,b,c R:c R:a R:b", "A:a,b,c#1 R:a#3 R:b#4 R:c#2", ""},
		{"orphan result dropped", "U R:z A:a R:a R:q", "U#1 A:a#3 R:a#4", ""},
		{"duplicate result dropped", "A:a R:a R:a U", "A:a#1 R:a#2 U#4", ""},
		{"entries during calls follow the results", "A:a,b R:a U S R:b A:", "A:a,b#1 R:a#2 R:b#5 U#3 S#4 A:#6", ""},
		{"synthetic result precedes later entries", "A:a,b R:a U", "A:a,b#1 R:a#2 R:b! U#3", "R:b!"},
		{"multiple assistants", "A:a R:a A:b,c R:c A:d", "A:a#1 R:a#2 A:b,c#3 R:b! R:c#4 A:d#5 R:d!", "R:d! R:b!"},
		{"reused call ids pair with the latest assistant", "A:x R:x A:x R:x", "A:x#1 R:x#2 A:x#3 R:x#4", ""},
		{"reused id, earlier call unanswered", "A:x A:x R:x", "A:x#1 R:x! A:x#2 R:x#3", "R:x!"},
		{"late result reaches its earlier assistant", "A:a A:b R:b R:a", "A:a#1 R:a#4 A:b#2 R:b#3", ""},
		{"same id twice in one turn", "A:x,x R:x", "A:x,x#1 R:x#2 R:x!", "R:x!"},
		{"result before any call is an orphan", "R:a U", "U#2", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := parseLog(t, tt.log)
			before := render(in)
			view, synthetic := Heal(in)
			if got := render(view); got != tt.view {
				t.Errorf("view\n got  %s\n want %s", got, tt.view)
			}
			if got := render(synthetic); got != tt.synthetic {
				t.Errorf("synthetic\n got  %s\n want %s", got, tt.synthetic)
			}
			if render(in) != before {
				t.Errorf("Heal modified its input: %s → %s", before, render(in))
			}
			checkHealed(t, in, view, synthetic)
		})
	}
}

// TestHealSyntheticNames checks a synthetic result carries the call's tool name and is an error.
func TestHealSyntheticNames(t *testing.T) {
	_, synthetic := Heal(parseLog(t, "A:a,b R:a"))
	if len(synthetic) != 1 {
		t.Fatalf("got %d synthetic entries, want 1", len(synthetic))
	}
	s := synthetic[0]
	if s.Kind != KindToolResult || s.CallID != "b" || s.ToolName != "tb" || !s.IsError || s.Text != InterruptedText {
		t.Errorf("synthetic = %+v", s)
	}
}

// checkHealed asserts the properties Heal promises, for any input log:
// pairing holds in the view, non-result entries survive in order, the view is a fixed point,
// and the log with the synthetic entries appended heals to the same view with nothing new.
func checkHealed(t testing.TB, log, view, synthetic []*Entry) {
	t.Helper()
	if err := pairing(view); err != nil {
		t.Fatalf("view %s: %v", render(view), err)
	}
	keep := func(es []*Entry) []*Entry {
		return slices.DeleteFunc(slices.Clone(es), func(e *Entry) bool { return e.Kind == KindToolResult })
	}
	if !slices.Equal(keep(log), keep(view)) {
		t.Fatalf("non-result entries changed: log %s, view %s", render(log), render(view))
	}
	again, more := Heal(view)
	if !slices.Equal(again, view) || len(more) != 0 {
		t.Fatalf("not a fixed point: %s → %s (+%d synthetic)", render(view), render(again), len(more))
	}
	healedLog := append(slices.Clone(log), synthetic...)
	reloaded, more := Heal(healedLog)
	if !slices.Equal(reloaded, view) || len(more) != 0 {
		t.Fatalf("log + synthetic heals differently: %s → %s (+%d synthetic), want %s",
			render(healedLog), render(reloaded), len(more), render(view))
	}
}

// pairing reports the first place where view breaks "each assistant entry is followed by
// exactly one result per call, in call order, and results appear nowhere else".
func pairing(view []*Entry) error {
	for i := 0; i < len(view); i++ {
		e := view[i]
		switch e.Kind {
		case KindToolResult:
			return fmt.Errorf("entry %d: result for %q not right after its assistant", i, e.CallID)
		case KindAssistant:
			for j, c := range e.Calls {
				k := i + 1 + j
				if k >= len(view) || view[k].Kind != KindToolResult || view[k].CallID != c.ID {
					return fmt.Errorf("entry %d: call %d (%q) not answered in place", i, j, c.ID)
				}
			}
			i += len(e.Calls)
		}
	}
	return nil
}

// FuzzHeal decodes random bytes into logs of user, system, assistant and result entries over a
// small alphabet of call IDs (so reuse, orphans and duplicates are common) and checks that Heal
// always keeps its promises.
func FuzzHeal(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0x21, 2, 0, 2, 1})
	f.Add([]byte{1, 0x31, 0, 0, 2, 2, 1, 0x11, 2, 0, 2, 0, 3, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var log []*Entry
		for i := 0; i+1 < len(data) && len(log) < 200; i += 2 {
			op, arg := data[i]%4, data[i+1]
			e := &Entry{Seq: uint64(len(log) + 1)}
			switch op {
			case 0:
				e.Kind = KindUser
			case 1:
				e.Kind = KindAssistant
				for c := range int(arg>>4) % 4 {
					id := string(rune('a' + (int(arg)+c)%4))
					e.Calls = append(e.Calls, Call{ID: id, Name: "t" + id})
				}
			case 2:
				e.Kind, e.CallID = KindToolResult, string(rune('a'+arg%5)) // 'e' is never called
			case 3:
				e.Kind = KindSystem
			}
			log = append(log, e)
		}
		view, synthetic := Heal(log)
		checkHealed(t, log, view, synthetic)
	})
}
