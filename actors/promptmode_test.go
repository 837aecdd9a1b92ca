package actors

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// toolNames lists a request's tools.
func toolNames(req *llm.Request) []string {
	var out []string
	for _, t := range req.Tools {
		out = append(out, t.Name)
	}
	return out
}

// ask and plan cannot write: the model is not offered the writing tools, and a write_file call
// anyway is refused with a result that says why and how to switch, and writes nothing.
func TestAskAndPlanPromptModesCannotWrite(t *testing.T) {
	for _, mode := range []string{"ask", "plan"} {
		t.Run(mode, func(t *testing.T) {
			tn := startContextNode(t, `{"turns": [
				{"tool_calls": [{"name": "write_file", "args": {"path": "new.txt", "content": "x"}}]},
				{"text": "could not write"}]}`, nil)
			id := "pm-" + mode
			if err := tn.client.StartSession(&messages.StartSession{ID: id, Task: "write new.txt", Model: "scripted", Mode: "yolo",
				Workspace: tn.Root, PromptMode: mode}); err != nil {
				t.Fatal(err)
			}
			checkFor(t, 30*time.Second, func() error {
				if tn.count(id, messages.EventSessionFinished) < 1 {
					return fmt.Errorf("not finished")
				}
				return nil
			})
			reqs := tn.requestsOf("root")
			for _, name := range []string{"write_file", "edit_file", "bash"} {
				if slices.Contains(toolNames(reqs[0]), name) {
					t.Errorf("prompt mode %s offers %s: %v", mode, name, toolNames(reqs[0]))
				}
			}
			res := tn.lastToolResults()
			if len(res) != 1 || !res[0].IsError {
				t.Fatalf("write_file in prompt mode %s: %+v", mode, res)
			}
			for _, want := range []string{`"write_file" cannot be used here`, "prompt mode " + mode + " does not offer it", "/prompt code"} {
				if !strings.Contains(res[0].Content, want) {
					t.Errorf("result %q does not say %q", res[0].Content, want)
				}
			}
			if _, err := os.Stat(filepath.Join(tn.Root, "new.txt")); !os.IsNotExist(err) {
				t.Errorf("prompt mode %s wrote new.txt", mode)
			}
		})
	}
}

// prefixOf is what a request's stable prefix is made of: the system prompt and the tool schemas.
func prefixOf(t *testing.T, req *llm.Request) string {
	t.Helper()
	data, err := json.Marshal(req.Tools)
	if err != nil {
		t.Fatal(err)
	}
	return req.System + "\n" + string(data)
}

// Within a prompt mode the stable prefix is byte-identical on every call, including after a
// resume that names no mode (the session keeps its own); two modes have different prefixes.
func TestStablePrefixFollowsThePromptMode(t *testing.T) {
	prefixes := map[string]string{}
	for _, mode := range []string{"code", "plan", "review"} {
		tn := startContextNode(t, `{"turns": [
			{"tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
			{"tool_calls": [{"name": "grep", "args": {"pattern": "alpha"}}]},
			{"text": "first"},
			{"tool_calls": [{"name": "list_dir", "args": {"path": "."}}]},
			{"text": "second"}]}`, nil)
		id := "prefix-" + mode
		for run, start := range []messages.StartSession{
			{ID: id, Task: "look", PromptMode: mode},
			{ID: id, Task: "look again", Resume: true},
		} {
			start.Model, start.Mode, start.Workspace = "scripted", "yolo", tn.Root
			if err := tn.client.StartSession(&start); err != nil {
				t.Fatal(err)
			}
			checkFor(t, 30*time.Second, func() error {
				if n := tn.count(id, messages.EventSessionFinished); n < run+1 {
					return fmt.Errorf("run %d of mode %s not finished", run+1, mode)
				}
				return nil
			})
		}
		reqs := tn.requestsOf("root")
		if len(reqs) != 5 {
			var finished []string
			for _, e := range tn.sessionEvents(id) {
				if e.Type == messages.EventSessionFinished || e.Type == messages.EventError {
					v, _ := e.DecodeData()
					finished = append(finished, fmt.Sprintf("%s %+v", e.Type, v))
				}
			}
			t.Fatalf("mode %s: %d requests, want 5; the runs ended: %s", mode, len(reqs), strings.Join(finished, "; "))
		}
		first := prefixOf(t, reqs[0])
		for i, req := range reqs[1:] {
			if prefixOf(t, req) != first {
				t.Errorf("mode %s: request %d has another stable prefix", mode, i+2)
			}
		}
		if mode != "code" && !strings.Contains(reqs[0].System, "Prompt mode "+mode) {
			t.Errorf("mode %s: the prefix lacks the mode's instructions", mode)
		}
		prefixes[mode] = first
	}
	if prefixes["code"] == prefixes["plan"] || prefixes["plan"] == prefixes["review"] || prefixes["code"] == prefixes["review"] {
		t.Error("two prompt modes share a stable prefix")
	}
}
