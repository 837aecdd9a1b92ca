package turn

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// TestBareArgumentsFittingOneToolAreAnInferredCall: a reply that is only arguments with no
// tool name is a call to the one tool they fit with a margin, marked inferred (the gate then
// asks before it writes or runs); without the margin it is steered with a note naming the tool;
// data that fits no tool, or arguments inside prose, stay the answer.
func TestBareArgumentsFittingOneToolAreAnInferredCall(t *testing.T) {
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	c := Classifier{Parse: parse, Known: reg.Knows, FitArgs: reg.ToolFittingArgs}
	cases := []struct {
		name, text string
		tool, args string // the inferred call's tool and arguments (the keys it takes); "" for none
		note       string // the steering note when the fit has no margin
	}{
		{"a bare command", `{"command":"make"}`, "bash", `{"command":"make"}`, ""},
		{"nanocoder-488: two of four keys are write_file's", `{"language": "python", "file_path": "main.py", "content": "print('Hello, World!')", "show_bash_commands": true}`,
			"write_file", `{"content":"print('Hello, World!')","file_path":"main.py"}`, ""},
		{"clawrouter-213-read: the action names the tool", `{"path":"/home/Blockrun/.openclaw/workspace/IDENTITY.md","action":"read"}`, "read_file",
			`{"path":"/home/Blockrun/.openclaw/workspace/IDENTITY.md"}`, ""},
		{"clawrouter-213-ls", `{"cmd":["bash","-lc","ls -1a"], "timeout": 10000}`, "bash", `{"cmd":["bash","-lc","ls -1a"],"timeout":10000}`, ""},
		{"one key of three fits: steered, not run", `{"command": "make", "os": "linux", "arch": "amd64"}`, "", "",
			"only the arguments for bash (command), without a tool name: call bash with them"},
		{"a path alone fits several tools", `{"path": "a.go"}`, "", "", ""},
		{"a package.json fits no tool", `{"name": "web", "version": "1.0.0"}`, "", "", ""},
		{"arguments inside prose are an answer", "Run it with:\n{\"command\":\"make\"}", "", "", ""},
		// harmony commentary with no recipient (the harmony guide's call without to=), and one
		// fenced object: the same inference, the same margin
		{"harmony commentary without a recipient", "<|channel|>commentary json<|message|>{\"command\":\"make\"}<|call|>", "bash", `{"command":"make"}`, ""},
		{"harmony with start and constrain", "<|start|>assistant<|channel|>commentary <|constrain|>json<|message|>{\"command\":\"make\"}", "bash", `{"command":"make"}`, ""},
		{"harmony below the margin is steered", "<|channel|>commentary<|message|>{\"command\": \"make\", \"os\": \"linux\", \"arch\": \"amd64\"}<|end|>", "", "",
			"only the arguments for bash (command), without a tool name"},
		// Codex's shell arguments in a commentary message without a recipient: the tool's name
		// in the argv does not make the reply an unreadable call
		{"harmony commentary holding an argv", "<|start|>assistant<|channel|>commentary json<|message|>{\"command\":[\"bash\",\"-lc\",\"ls -la\"]}<|call|>",
			"bash", `{"command":["bash","-lc","ls -la"]}`, ""},
		{"harmony commentary that fits several tools is steered", "<|channel|>commentary<|message|>{\"path\": \"a.go\"}<|call|>", "", "",
			"a tool call without a tool name (a commentary message with no recipient)"},
		{"a fenced object", "```json\n{\"command\":\"make\"}\n```", "bash", `{"command":"make"}`, ""},
		{"harmony analysis is not arguments", "<|channel|>analysis<|message|>{\"command\":\"make\"}<|end|>", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := c.Classify(&llm.Reply{Text: tc.text, Stop: llm.StopEnd}, 3)
			switch {
			case tc.tool != "":
				if d.Class != messages.ReplyTextCalls || len(d.Calls) != 1 || d.Calls[0].Name != tc.tool || d.Calls[0].Args != tc.args {
					t.Fatalf("class %s calls %+v, want one %s call with the arguments %s", d.Class, d.Calls, tc.tool, tc.args)
				}
				if len(d.Inferred) != 1 || d.Inferred[0] != d.Calls[0].ID {
					t.Fatalf("inferred %v, want the call %s marked", d.Inferred, d.Calls[0].ID)
				}
				if len(d.Repairs) != 1 || d.Repairs[0].Kind != string(tools.RepairInferredTool) || d.Repairs[0].CallID != d.Calls[0].ID || d.Repairs[0].Turn != 3 {
					t.Fatalf("repairs %+v, want one inferred_tool repair for the call", d.Repairs)
				}
				if d.Text != "" {
					t.Fatalf("text %q: the object became the call, no prose is left", d.Text)
				}
			case tc.note != "":
				if len(d.Calls) != 0 || d.Class != messages.ReplyMalformed || !strings.Contains(d.Note, tc.note) || !strings.Contains(d.Note, "otherwise give your answer in words") {
					t.Fatalf("class %s calls %+v note %q, want malformed with %q", d.Class, d.Calls, d.Note, tc.note)
				}
				if d.Text != tc.text {
					t.Fatalf("text %q, want the reply kept", d.Text)
				}
			default:
				if len(d.Calls) != 0 || d.Class != messages.ReplyFinal {
					t.Fatalf("class %s calls %+v (%q), want final", d.Class, d.Calls, d.Note)
				}
			}
		})
	}
	off := NewSteering(false, parse, reg.Knows)
	off.Classifier.FitArgs = reg.ToolFittingArgs
	if d := off.Classifier.Classify(&llm.Reply{Text: `{"command":"make"}`, Stop: llm.StopEnd}, 1); d.Class != messages.ReplyFinal {
		t.Fatalf("with repair off: %s, want final", d.Class)
	}
}
