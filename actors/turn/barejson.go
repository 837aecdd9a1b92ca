package turn

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools"
)

// bareArguments reads a reply that is only a JSON object of arguments, with no tool name
// (nanocoder#488, ClawRouter#213). When the object fits one tool with a margin (FitArgs:
// the one best fit, taking at least half of the object's keys), the reply is a call to that
// tool, marked inferred: it goes through the whole lifecycle, and outside yolo mode the gate
// asks before it does anything but read, so a final answer that happens to be
// {"command": "make"} never runs a command on a guess. When it fits without the margin, the
// reply is a malformed call and the note names the tool and the arguments; the model calls it
// or answers in words, and after the nudge limit the reply stands as the answer.
func (c Classifier) bareArguments(text string, turn int) (Decision, bool) {
	if c.FitArgs == nil {
		return Decision{}, false
	}
	t, commentary := argumentsOnly(text)
	if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") || !json.Valid([]byte(t)) {
		return Decision{}, false
	}
	fit, ok := c.FitArgs(t)
	if !ok && commentary {
		// harmony's commentary channel is where calls go: arguments there that fit no one
		// tool are a call without its tool, not an answer
		return Decision{Class: messages.ReplyMalformed, Text: text, Note: "Your last reply is a tool call without a tool name " +
			"(a commentary message with no recipient). Call the tool you meant by name, with these arguments; otherwise give your answer in words."}, true
	}
	if !ok {
		return Decision{}, false
	}
	if !fit.Certain {
		return Decision{Class: messages.ReplyMalformed, Text: text, Note: fmt.Sprintf("Your last reply is only the arguments for %[1]s (%[2]s), without a tool name: "+
			"call %[1]s with them if you meant to run it; otherwise give your answer in words.",
			fit.Tool, strings.Join(fit.Args, ", "))}, true
	}
	id := fmt.Sprintf("txt-%d-1", turn)
	return Decision{Class: messages.ReplyTextCalls,
		Calls:    []llm.ToolCall{{ID: id, Name: fit.Tool, Args: fit.Object}},
		Inferred: []string{id},
		Repairs: []messages.ToolRepairedData{{Turn: turn, CallID: id, Tool: fit.Tool, Kind: string(tools.RepairInferredTool),
			Before: Preview(t, previewBytes), After: Preview(fit.Tool+" "+compactJSON(fit.Object), previewBytes)}},
	}, true
}

// harmonyNoRecipient is a gpt-oss harmony commentary message with no to= recipient (the
// harmony guide's tool call without the tool): its body is only arguments.
var harmonyNoRecipient = lazyre.New(`^(?:<\|start\|>assistant)?<\|channel\|>commentary(?:\s*(?:<\|constrain\|>)?json)?\s*<\|message\|>([\s\S]*?)(?:<\|call\|>|<\|end\|>)?$`)

// fencedObject is a reply that is one fenced block (```json or bare ```).
var fencedObject = lazyre.New("^```(?:json|JSON)?\\s*\\n([\\s\\S]*?)\\n?```$")

// argumentsOnly strips the framing around a reply that is only an arguments object: a harmony
// commentary header without a recipient (commentary is then true), or one code fence. Other
// text is returned trimmed.
func argumentsOnly(text string) (t string, commentary bool) {
	t = strings.TrimSpace(text)
	if m := harmonyNoRecipient.FindStringSubmatch(t); m != nil {
		t, commentary = strings.TrimSpace(m[1]), true
	}
	if m := fencedObject.FindStringSubmatch(t); m != nil {
		t = strings.TrimSpace(m[1])
	}
	return t, commentary
}
