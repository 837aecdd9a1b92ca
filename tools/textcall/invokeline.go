package textcall

import "strings"

// Python-style calls with an "invoke" prefix inside a bare <tool_calls> (or <function_calls>)
// wrapper: a DeepSeek model that half-remembers its DSML call block (<｜DSML｜function_calls>
// <｜DSML｜invoke name=…>, see invoke.go) writes the wrapper and the word invoke but the
// call itself in Python syntax (DevoxxGenieIDEAPlugin#1288):
//
//	<tool_calls>
//	invoke read_file("gradle.properties")
//	</tool_calls>
//
// The wrapper is the call marker, so the name needs no Known check; every line of the body
// must be a call, optionally after the word invoke, or the block stays prose. A positional
// argument is kept raw (Args nil): the tool layer gives a lone value to the tool's one
// required string argument (tools/repair_scalar.go).

// invokeLineWrappers are the open/close tags such a block is written in.
var invokeLineWrappers = [][2]string{{"<tool_calls>", "</tool_calls>"}, {"<function_calls>", "</function_calls>"}}

const invokeLinePrefix = "invoke"

func scanInvokeLines(text string, sc scanCtx) []span {
	var out []span
	for _, w := range invokeLineWrappers {
		out = mergeFree(out, scanTagged(text, w[0], w[1], func(body string) ([]Call, bool) {
			return invokeLineBody(body, sc.opt)
		}))
	}
	return out
}

// invokeLineBody reads the body's Python-style calls; it yields nothing unless the text
// between the calls is only blanks and invoke prefixes.
func invokeLineBody(body string, opt Options) ([]Call, bool) {
	spans := scanPython(body, scanCtx{opt: opt, inMarker: true})
	var calls []Call
	at := 0
	for _, s := range spans {
		if !onlyInvokePrefix(body[at:s.start]) {
			return nil, true
		}
		if s.partial {
			return nil, false
		}
		for _, c := range s.calls {
			c.Format = FormatInvoke
			calls = append(calls, c)
		}
		at = s.end
	}
	if !onlyInvokePrefix(body[at:]) {
		return nil, true
	}
	return calls, true
}

// onlyInvokePrefix reports whether gap holds nothing but blanks and at most one "invoke".
func onlyInvokePrefix(gap string) bool {
	gap = strings.TrimSpace(gap)
	return gap == "" || gap == invokeLinePrefix
}
