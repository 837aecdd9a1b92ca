package actors

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

// The tool events name what ran: the resolved tool and its repaired arguments, with the
// model's own name and arguments beside them (issue 20, item 3); a call in our own form
// carries no requested_* fields.
func TestToolEventsNameWhatRan(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "Read", "args": {"file_path": "a.txt"}}, {"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "it says alpha"}]}`)
	if fin := tn.run(t, "ev1", "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	check := func(what, tool, args, reqTool, reqArgs string) {
		t.Helper()
		if tool != "read_file" || !strings.Contains(args, `"path":"a.txt"`) {
			t.Errorf("%s: ran %s %s, want read_file with path a.txt", what, tool, args)
		}
		if reqTool != "Read" || !strings.Contains(reqArgs, "file_path") {
			t.Errorf("%s: requested %q %q, want Read with file_path", what, reqTool, reqArgs)
		}
	}
	for _, typ := range []messages.EventType{messages.EventToolProposed, messages.EventToolStarted} {
		evs := tn.eventsOf("ev1", typ)
		if len(evs) != 2 {
			t.Fatalf("%s events: %d, want 2", typ, len(evs))
		}
		d := evs[0].(*messages.ToolCallData)
		check(string(typ), d.Tool, d.Args, d.RequestedTool, d.RequestedArgs)
		if own := evs[1].(*messages.ToolCallData); own.Tool != "read_file" || own.RequestedTool != "" || own.RequestedArgs != "" {
			t.Errorf("%s of a call in our own form: %+v", typ, own)
		}
	}
	fins := tn.eventsOf("ev1", messages.EventToolFinished)
	if len(fins) != 2 {
		t.Fatalf("tool.finished events: %d, want 2", len(fins))
	}
	f := fins[0].(*messages.ToolFinishedData)
	if f.Tool != "read_file" || f.RequestedTool != "Read" || f.IsError || !strings.Contains(f.Output, "alpha") {
		t.Errorf("tool.finished: %+v", f)
	}
}

// A call standing for several runs as those calls, each with its own events, in order.
func TestASplitCallRunsAsItsPieces(t *testing.T) {
	tn := startTestNode(t, `{"turns": [
		{"tool_calls": [{"name": "bash", "args": {"commands": [{"command": "echo one"}, {"command": "echo two"}]}}]},
		{"text": "done"}]}`)
	if fin := tn.run(t, "split1", "go"); fin.Status != messages.StatusDone {
		t.Fatalf("finished: %+v", fin)
	}
	fins := tn.eventsOf("split1", messages.EventToolFinished)
	if len(fins) != 2 {
		t.Fatalf("tool.finished events: %d, want 2", len(fins))
	}
	for i, want := range []string{"one", "two"} {
		f := fins[i].(*messages.ToolFinishedData)
		if f.Tool != "bash" || f.IsError || !strings.Contains(f.Output, want) || !strings.HasSuffix(f.CallID, []string{"-1", "-2"}[i]) {
			t.Errorf("piece %d: %+v", i+1, f)
		}
	}
	var kinds []string
	for _, v := range tn.eventsOf("split1", messages.EventToolRepaired) {
		kinds = append(kinds, v.(*messages.ToolRepairedData).Kind)
	}
	if strings.Count(strings.Join(kinds, ","), "split_call") != 2 {
		t.Errorf("repairs %v, want a split_call for each piece", kinds)
	}
}
