package hooks

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJudgeEachExitAndOutput(t *testing.T) {
	for _, c := range []struct {
		name     string
		event    Event
		run      Run
		decision string
		reason   string
		context  string
		notice   string
	}{
		{"exit 0 silent", PreToolUse, Run{Exit: 0}, DecisionContinue, "", "", ""},
		{"exit 2 pre", PreToolUse, Run{Exit: 2, Stderr: "no rm\n"}, DecisionDeny, "no rm", "", ""},
		{"exit 2 stop", Stop, Run{Exit: 2, Stderr: "tests fail"}, DecisionBlock, "tests fail", "", ""},
		{"exit 2 no reason", UserPromptSubmit, Run{Exit: 2}, DecisionBlock, "blocked by hook", "", ""},
		{"exit 2 cannot block", SessionEnd, Run{Exit: 2, Stderr: "x"}, DecisionError, "", "", "cannot be blocked"},
		{"exit 1", PreToolUse, Run{Exit: 1, Stderr: "oops\nmore"}, DecisionError, "", "", "exited 1: oops"},
		{"not found", PreToolUse, Run{Exit: -1, Failure: "command not found (exit 127): sh: x: not found"}, DecisionError, "", "", "not found"},
		{"timeout", PreToolUse, Run{Exit: -1, Failure: "timed out after 1s and was killed"}, DecisionError, "", "", "timed out"},
		{"plain stdout ups", UserPromptSubmit, Run{Stdout: "today is friday\n"}, DecisionContext, "", "today is friday", ""},
		{"plain stdout start", SessionStart, Run{Stdout: "branch main"}, DecisionContext, "", "branch main", ""},
		{"plain stdout pre ignored", PreToolUse, Run{Stdout: "log line"}, DecisionContinue, "", "", ""},
		{"invalid json", PreToolUse, Run{Stdout: "{not json"}, DecisionError, "", "", "cannot read"},
		{"json block", PostToolUse, Run{Stdout: `{"decision":"block","reason":"lint failed"}`}, DecisionBlock, "lint failed", "", ""},
		{"json block pre is deny", PreToolUse, Run{Stdout: `{"decision":"block","reason":"r"}`}, DecisionDeny, "r", "", ""},
		{"json approve legacy", PreToolUse, Run{Stdout: `{"decision":"approve","reason":"ok"}`}, DecisionAllow, "ok", "", ""},
		{"json allow", PreToolUse, Run{Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"safe"}}`}, DecisionAllow, "safe", "", ""},
		{"json ask", PreToolUse, Run{Stdout: `{"hookSpecificOutput":{"permissionDecision":"ask"}}`}, DecisionAsk, "", "", ""},
		{"json deny", PreToolUse, Run{Stdout: `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"nope"}}`}, DecisionDeny, "nope", "", ""},
		{"json bad permission", PreToolUse, Run{Stdout: `{"hookSpecificOutput":{"permissionDecision":"maybe"}}`}, DecisionError, "", "", "unknown permissionDecision"},
		{"json bad decision", Stop, Run{Stdout: `{"decision":"perhaps"}`}, DecisionError, "", "", "unknown decision"},
		{"json context", PostToolUse, Run{Stdout: `{"hookSpecificOutput":{"additionalContext":"ctx"}}`}, DecisionContext, "", "ctx", ""},
		{"json stop", Stop, Run{Stdout: `{"continue":false,"stopReason":"enough"}`}, DecisionStop, "", "", ""},
		{"json system message", PostToolUse, Run{Stdout: `{"systemMessage":"heads up"}`}, DecisionContinue, "", "", "heads up"},
		{"json block where none", PreCompact, Run{Stdout: `{"decision":"block"}`}, DecisionContinue, "", "", "cannot be blocked"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := Judge(c.event, c.run)
			if v.Decision != c.decision || !strings.Contains(v.Reason, c.reason) || v.Context != c.context || !strings.Contains(v.Notice, c.notice) {
				t.Errorf("%+v\nwant decision %s reason ~%q context %q notice ~%q", v, c.decision, c.reason, c.context, c.notice)
			}
		})
	}
}

func TestDecideMergesTheStrictest(t *testing.T) {
	in := Input{Event: PreToolUse, Tool: "bash", Cwd: "/p"}
	allow := Run{Stdout: `{"hookSpecificOutput":{"permissionDecision":"allow"}}`}
	ask := Run{Stdout: `{"hookSpecificOutput":{"permissionDecision":"ask"}}`}
	deny := Run{Exit: 2, Stderr: "no"}
	broken := Run{Exit: 3, Stderr: "crash"}
	for _, c := range []struct {
		name  string
		runs  []Run
		perm  string
		block bool
	}{
		{"allow alone", []Run{allow}, "allow", false},
		{"ask beats allow", []Run{allow, ask}, "ask", false},
		{"deny beats all", []Run{ask, deny, allow}, "deny", true},
		{"a crash decides nothing", []Run{broken, allow}, "allow", false},
		{"none", nil, "", false},
	} {
		o := Decide(in, c.runs)
		if o.Permission != c.perm || o.Block != c.block {
			t.Errorf("%s: permission %q block %v, want %q %v", c.name, o.Permission, o.Block, c.perm, c.block)
		}
	}
	o := Decide(in, []Run{broken, deny})
	if len(o.Notices) != 1 || !strings.Contains(o.Notices[0], "crash") || o.Reason != "no" {
		t.Errorf("notices %q reason %q", o.Notices, o.Reason)
	}
}

func TestDecideUpdatedInputIsOursAndFirstWins(t *testing.T) {
	in := Input{Event: PreToolUse, Tool: "edit_file", Cwd: "/p"}
	claude := Run{Hook: Hook{Claude: true, Command: "cc"}, Stdout: `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"file_path":"/p/x.go","old_string":"a","new_string":"b"}}}`}
	ours := Run{Hook: Hook{Command: "ours"}, Stdout: `{"hookSpecificOutput":{"updatedInput":{"path":"y.go","old_string":"a","new_string":"c"}}}`}
	o := Decide(in, []Run{claude, ours})
	var got map[string]any
	json.Unmarshal(o.UpdatedInput, &got)
	if got["path"] != "x.go" || got["file_path"] != nil {
		t.Errorf("updated input %s, want ours with path x.go", o.UpdatedInput)
	}
	if len(o.Notices) != 1 || !strings.Contains(o.Notices[0], "also rewrote") {
		t.Errorf("notices %q", o.Notices)
	}
	// A denying hook's rewrite is not used.
	o = Decide(in, []Run{{Stdout: `{"hookSpecificOutput":{"permissionDecision":"deny","updatedInput":{"path":"z"}}}`}})
	if o.UpdatedInput != nil || !o.Block {
		t.Errorf("deny with input: %+v", o)
	}
}

func TestDecideStopAndContext(t *testing.T) {
	in := Input{Event: UserPromptSubmit}
	o := Decide(in, []Run{{Stdout: "a"}, {Stdout: `{"hookSpecificOutput":{"additionalContext":"b"}}`}})
	if strings.Join(o.Context, ",") != "a,b" || o.Block {
		t.Errorf("context %q", o.Context)
	}
	o = Decide(in, []Run{{Stdout: `{"continue":false,"stopReason":"quiet hours"}`}})
	if !o.Stop || o.StopReason != "quiet hours" {
		t.Errorf("stop %+v", o)
	}
}
