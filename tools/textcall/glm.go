package textcall

import "strings"

// GLM-4.5/4.6/4.7, from the zai-org chat templates and vLLM's glm4_moe tool parser:
//
//	<tool_call>read_file
//	<arg_key>path</arg_key>
//	<arg_value>a.go</arg_value>
//	</tool_call>
//
// The block is scanned by the Hermes scanner (same tag); this reads its body. A missing
// </arg_value> ends at the next <arg_key>.

const (
	glmKeyOpen    = "<arg_key>"
	glmKeyClose   = "</arg_key>"
	glmValueOpen  = "<arg_value>"
	glmValueClose = "</arg_value>"
)

func glmBody(body string) ([]Call, bool) {
	nameEnd := len(body)
	if i := strings.IndexAny(body, "\n<"); i >= 0 {
		nameEnd = i
	}
	name := strings.TrimSpace(body[:nameEnd])
	rest := body[nameEnd:]
	if !plausibleName(name) || strings.TrimSpace(rest) != "" && !strings.Contains(rest, glmKeyOpen) {
		return nil, true
	}
	var pairs []kv
	complete := true
	for _, part := range strings.Split(rest, glmKeyOpen)[1:] {
		key, after, ok := strings.Cut(part, glmKeyClose)
		if !ok {
			complete = false
			break
		}
		_, value, ok := strings.Cut(after, glmValueOpen)
		if !ok {
			complete = false
			break
		}
		value, _, complete = strings.Cut(value, glmValueClose)
		pairs = append(pairs, kv{strings.TrimSpace(key), tagValue(value)})
	}
	return []Call{{Name: name, Args: objectOf(pairs), Raw: strings.TrimSpace(rest), Format: FormatGLM}}, complete
}
