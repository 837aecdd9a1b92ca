package textcall

import "strings"

// attemptTokens are substrings that only appear when a model tries to write a call.
var attemptTokens = []string{
	hermesOpen, hermesClose, qwenFunctionOpen, glmKeyOpen, llamaTag, mistralToken,
	"tool▁call", kimiCallBegin, "<|tool_calls_section_begin|>", "<invoke ", "<function_calls>",
	"｜DSML｜", "|DSML|", "<minimax:tool_call>", gemmaOpen, funcGemmaOpen, "to=functions.", harmonyCall,
	"```tool_code", "```tool_call", "```function_call", "default_api.", lfmStart,
	"{tool => ", calledFunctionOpen, "✿FUNCTION✿", ":function_calls>", functoolsMarker + "{", xtmlOpen + "call ",
	qwenParamOpen, toolCodeOpen,
}

// Looks reports, cheaply, whether text contains something that looks like an attempted tool
// call: a marker token, a fenced tool block, or a {"name": … / {"function": … / "tool_calls"
// object. A reply where Looks is true but Parse finds no call is a malformed call, not a final
// answer.
func Looks(text string) bool {
	for _, tok := range attemptTokens {
		if strings.Contains(text, tok) {
			return true
		}
	}
	for _, key := range []string{`"name"`, `"function"`, `"tool_calls"`, `'name'`} {
		for at := 0; ; {
			i := strings.Index(text[at:], key)
			if i < 0 {
				break
			}
			at += i + len(key)
			if j := skipSpace(text, at); j < len(text) && text[j] == ':' && openedObject(text, at-len(key)) {
				return true
			}
		}
	}
	return false
}

// openedObject reports whether the key at i is the first key of an object: "{" before it.
func openedObject(text string, i int) bool {
	j := backOver(text, i, " \t\r\n")
	return j > 0 && text[j-1] == '{'
}
