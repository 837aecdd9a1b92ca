package main

import (
	"context"
	"testing"

	"github.com/troupe-dev/troupe/llm"
)

// script plays the given mistakes in order, then clean calls.
type script struct{ plays []mistake }

func (s *script) next(callContext) mistake {
	if len(s.plays) == 0 {
		return mistake{}
	}
	m := s.plays[0]
	s.plays = s.plays[1:]
	return m
}

// conversation is the log a session would send, grown turn by turn.
type conversation struct {
	t     *testing.T
	model *noisyModel
	msgs  []llm.Message
}

func (c *conversation) ask() *llm.Reply {
	c.t.Helper()
	r, err := c.model.Stream(context.Background(), &llm.Request{Messages: append([]llm.Message(nil), c.msgs...)}, func(llm.Event) {})
	if err != nil {
		c.t.Fatal(err)
	}
	return r
}

// commit adds the reply's calls and a result for each.
func (c *conversation) commit(r *llm.Reply, output string, isError bool) {
	c.msgs = append(c.msgs, llm.Message{Role: llm.RoleAssistant, ToolCalls: r.ToolCalls})
	for _, tc := range r.ToolCalls {
		c.msgs = append(c.msgs, llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, Content: output, IsError: isError})
	}
}

func callOf(t *testing.T, r *llm.Reply) (string, map[string]any) {
	t.Helper()
	if len(r.ToolCalls) != 1 {
		t.Fatalf("reply %+v: want one structured call", r)
	}
	return r.ToolCalls[0].Name, decodeArgs(Step{Args: []byte(r.ToolCalls[0].Args)})
}

// A reply the session answered with a note (here reasoning only) is not committed, so no result
// follows it: the model must not take the previous step's successful result for its own.
func TestNoisyModelJudgesOnlyResultsSinceItsLastReply(t *testing.T) {
	counts := newFamilyCount()
	c := &conversation{t: t, model: newNoisyModel([]Step{readStep, goEdit}, "/ws", &script{plays: []mistake{{}, {family: "reasoning_call"}}}, counts),
		msgs: []llm.Message{{Role: llm.RoleUser, Content: "task"}}}
	r := c.ask()
	if name, _ := callOf(t, r); name != "read_file" {
		t.Fatalf("first call %s, want read_file", name)
	}
	c.commit(r, "1\talpha", false)
	if r = c.ask(); r.Reasoning == "" || len(r.ToolCalls) != 0 {
		t.Fatalf("want the edit written in the reasoning, got %+v", r)
	}
	c.msgs = append(c.msgs, llm.Message{Role: llm.RoleUser, Content: "Your last reply had reasoning but no answer and no tool call."})
	r = c.ask()
	if name, _ := callOf(t, r); name != "edit_file" {
		t.Fatalf("after the note: %s, want the edit again (the step did not land)", name)
	}
	if counts.recovered["reasoning_call"] != 0 || counts.made["reasoning_call"] != 1 {
		t.Errorf("reasoning_call recovered %d of %d, want 0 of 1", counts.recovered["reasoning_call"], counts.made["reasoning_call"])
	}
	c.commit(r, "edited", true) // an error result: the same step again
	if name, _ := callOf(t, c.ask()); name != "edit_file" {
		t.Fatalf("after an error: %s, want the edit again", name)
	}
}

// Told of the syntax error its write left, the model's next call is the fix; not told, it
// believes the step done and moves on.
func TestNoisyModelFixesOnlyReportedSyntaxErrors(t *testing.T) {
	for _, reported := range []bool{true, false} {
		counts := newFamilyCount()
		c := &conversation{t: t, model: newNoisyModel([]Step{goEdit, readStep}, "/ws", &script{plays: []mistake{{family: "syntax_error"}}}, counts)}
		r := c.ask()
		_, args := callOf(t, r)
		broken := stringArg(args, "new_string")
		if broken == "2" {
			t.Fatal("the syntax_error call wrote the intended text")
		}
		out := "edited a.go"
		if reported {
			out += syntaxReport + "a.go:3:1: expected ';'"
		}
		c.commit(r, out, false)
		name, args := callOf(t, c.ask())
		if !reported {
			if name != "read_file" || counts.made["syntax_error/.go"] != 1 || counts.recovered["syntax_error"] != 0 {
				t.Fatalf("unreported: next %s, counts %+v; want the next step and nothing recovered", name, counts)
			}
			continue
		}
		if name != "edit_file" || stringArg(args, "old_string") != broken || stringArg(args, "new_string") != "2" {
			t.Fatalf("reported: next %s %v, want the fix from %q to 2", name, args, broken)
		}
		c.commit(&llm.Reply{ToolCalls: []llm.ToolCall{{ID: "f", Name: name}}}, "edited a.go", false)
		if name, _ := callOf(t, c.ask()); name != "read_file" || counts.recovered["syntax_error/.go"] != 1 {
			t.Fatalf("after the fix: %s, recovered %+v; want the next step and the fix counted", name, counts.recovered)
		}
	}
}

func TestResultsSince(t *testing.T) {
	ok := llm.Message{Role: llm.RoleTool, Content: "fine"}
	bad := llm.Message{Role: llm.RoleTool, Content: "no", IsError: true}
	call := llm.Message{Role: llm.RoleAssistant}
	note := llm.Message{Role: llm.RoleUser, Content: "a note"}
	for _, c := range []struct {
		name string
		msgs []llm.Message
		from int
		want callResults
	}{
		{"results after the reply", []llm.Message{note, call, ok, ok}, 1, callResults{succeeded: true}},
		{"one error", []llm.Message{note, call, ok, bad}, 1, callResults{}},
		{"only a note since (the reply was not committed)", []llm.Message{call, ok, note}, 2, callResults{}},
		{"a syntax report", []llm.Message{call, {Role: llm.RoleTool, Content: "edited" + syntaxReport + "x"}}, 0, callResults{succeeded: true, syntaxReported: true}},
		{"compacted below the mark", []llm.Message{note}, 4, callResults{}},
	} {
		if got := resultsSince(c.msgs, c.from); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
