// Package jsonfix is the one place troupe calls the JSON repair library: it turns almost-JSON
// (trailing commas, single quotes, unclosed brackets, Python literals) into valid JSON.
package jsonfix

import (
	"encoding/json"
	"strings"

	"github.com/kaptinlin/jsonrepair"
)

// Repair returns text made valid JSON, or false when the library cannot. The library is
// third-party code that has been seen to panic on hostile input, so a panic is a failed repair
// here, never a crash of the caller. Its running time grows with the square of the length on
// unclosed input: callers that face untrusted megabytes bound the length first.
func Repair(text string) (fixed string, ok bool) {
	defer func() {
		if recover() != nil {
			fixed, ok = "", false
		}
	}()
	fixed, err := jsonrepair.Repair(text)
	if err != nil || !json.Valid([]byte(fixed)) {
		return "", false
	}
	return strings.TrimSpace(fixed), true
}
