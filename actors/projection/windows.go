package projection

import "strings"

// DefaultWindow is the context window assumed for a model the table does not know. It is
// small on purpose: an unknown model is most often a local one served with a 32K context, and
// compacting too early costs a summary, while overflowing costs the call.
const DefaultWindow = 32768

// windows maps a model-name prefix (lower case, no provider prefix) to its context window in
// tokens. Window picks the longest matching prefix, so "qwen3-coder" wins over "qwen3".
// Values are the providers' published limits; where one name is served with different limits
// (DeepSeek's API against the open weights), the API's is used for the API's name.
var windows = map[string]int{
	"gpt-4o":            128000,
	"gpt-4o-mini":       128000,
	"gpt-4.1":           1047576,
	"gpt-5":             400000,
	"o3":                200000,
	"o4-mini":           200000,
	"claude-":           200000,
	"gemini-2.5":        1048576,
	"gemini-2.0":        1048576,
	"gemini-1.5-pro":    2097152,
	"deepseek-chat":     65536, // the DeepSeek API serves 64K
	"deepseek-reasoner": 65536,
	"deepseek-v3":       131072,
	"qwen2.5-coder":     32768,
	"qwen3":             32768, // the local default; the model supports more when configured
	"qwen3-coder":       262144,
	"llama3.1":          131072,
	"llama3.2":          131072,
	"llama3.3":          131072,
	"llama-3.1":         131072, // the spelling OpenRouter and others use
	"llama-3.2":         131072,
	"llama-3.3":         131072,
	"mistral":           32768,
	"codestral":         262144,
}

// Window returns the context window of model, in tokens, and whether the table knows it;
// unknown models get DefaultWindow. model may carry provider prefixes ("openrouter/qwen/
// qwen3-coder") and tags ("qwen3:32b"): only the part after the last "/" is matched, case
// insensitively, by longest prefix.
func Window(model string) (tokens int, known bool) {
	name := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	best := ""
	for prefix, n := range windows {
		if len(prefix) > len(best) && strings.HasPrefix(name, prefix) {
			best, tokens = prefix, n
		}
	}
	if best == "" {
		return DefaultWindow, false
	}
	return tokens, true
}
