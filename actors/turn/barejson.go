package turn

import (
	"encoding/json"
	"fmt"
	"strings"
)

// bareArguments steers a reply that is only a JSON object of arguments, with no tool name
// (nanocoder#488, ClawRouter#213): such a reply is never run, since a final answer that
// happens to be {"command": "make"} must not run bash. When the object fits exactly one tool
// (Classifier.FitArgs), the reply is a malformed call and the note names the tool and the
// arguments; the model calls it or answers in words. After the nudge limit the reply stands
// as the answer (Steering, the session's nudgeReply).
func (c Classifier) bareArguments(text string) (note string, ok bool) {
	if c.FitArgs == nil {
		return "", false
	}
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") || !json.Valid([]byte(t)) {
		return "", false
	}
	fit, ok := c.FitArgs(t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("Your last reply is only the arguments for %[1]s (%[2]s), without a tool name: "+
		"call %[1]s with them if you meant to run it; otherwise give your answer in words.",
		fit.Tool, strings.Join(fit.Args, ", ")), true
}
