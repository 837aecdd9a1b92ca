package turn

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// TestBareArgumentsAreSteeredNeverRun: a reply that is only arguments with no tool name is a
// malformed call with a note naming the tool when exactly one fits, and never a call.
func TestBareArgumentsAreSteeredNeverRun(t *testing.T) {
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	c := Classifier{Parse: parse, Known: reg.Knows, FitArgs: reg.ToolFittingArgs}
	cases := []struct {
		name, text string
		note       string // "" for a final answer
	}{
		{"a bare command", `{"command":"make"}`, "only the arguments for bash (command), without a tool name: call bash with them"},
		{"nanocoder-488", `{"language": "python", "file_path": "main.py", "content": "print('Hello, World!')", "show_bash_commands": true}`,
			"only the arguments for write_file (content, path)"},
		{"clawrouter-213-read: the action names the tool", `{"path":"/home/Blockrun/.openclaw/workspace/IDENTITY.md","action":"read"}`,
			"only the arguments for read_file (path)"},
		{"clawrouter-213-ls", `{"cmd":["bash","-lc","ls -1a"], "timeout": 10000}`, "only the arguments for bash (command, timeout_s)"},
		{"a path alone fits several tools", `{"path": "a.go"}`, ""},
		{"a package.json fits no tool", `{"name": "web", "version": "1.0.0"}`, ""},
		{"arguments inside prose are an answer", "Run it with:\n{\"command\":\"make\"}", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := c.Classify(&llm.Reply{Text: tc.text, Stop: llm.StopEnd}, 1)
			if len(d.Calls) != 0 {
				t.Fatalf("calls %+v from a reply with no tool name", d.Calls)
			}
			if tc.note == "" {
				if d.Class != messages.ReplyFinal {
					t.Fatalf("class %s (%q), want final", d.Class, d.Note)
				}
				return
			}
			if d.Class != messages.ReplyMalformed || !strings.Contains(d.Note, tc.note) || !strings.Contains(d.Note, "otherwise give your answer in words") {
				t.Fatalf("class %s note %q, want malformed with %q", d.Class, d.Note, tc.note)
			}
			if d.Text != tc.text {
				t.Fatalf("text %q, want the reply kept", d.Text)
			}
		})
	}
	off := NewSteering(false, parse, reg.Knows)
	off.Classifier.FitArgs = reg.ToolFittingArgs
	if d := off.Classifier.Classify(&llm.Reply{Text: `{"command":"make"}`, Stop: llm.StopEnd}, 1); d.Class != messages.ReplyFinal {
		t.Fatalf("with repair off: %s, want final", d.Class)
	}
}
