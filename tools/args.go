package tools

import (
	"encoding/json"
	"fmt"
)

// decodeArgs unmarshals validated arguments into a tool's args struct. Failure here means the
// schema and the struct disagree, which is a bug in the tool.
func decodeArgs(name string, args json.RawMessage, into any) *Result {
	if err := json.Unmarshal(args, into); err != nil {
		res := errorResult(fmt.Sprintf("internal error: %s could not decode its validated arguments: %v", name, err))
		return &res
	}
	return nil
}
