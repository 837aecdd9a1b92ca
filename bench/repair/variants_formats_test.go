package main

import "testing"

// Text-format rules added for issue 20's development misses, each in several spellings of
// its format's documentation, through the session's path (repair on).
func TestVariantsFormats(t *testing.T) {
	m := "some-local-model"
	lsBlank := call("bash", "command", "ls -la")
	runVariants(t, []variant{
		// Values written one per line in the template (Qwen3-Coder's "<parameter=K>\nV\n</parameter>",
		// GLM's <arg_value>, the invoke form) arrive with their line breaks flattened to one
		// space each side: the value is what sits between.
		{"qwen3-coder flattened", m, "<tool_call> <function=read_file> <parameter=path> a.go </parameter> </function> </tool_call>", nil, calls(readA)},
		{"qwen3-coder flattened two params", m, "<tool_call> <function=bash> <parameter=command> ls -la </parameter> <parameter=timeout> 30 </parameter> </function> </tool_call>", nil, calls(call("bash", "command", "ls -la", "timeout_s", float64(30)))},
		{"qwen3-coder flattened two calls", m, "<tool_call> <function=read_file> <parameter=path> a.go </parameter> </function> </tool_call> <tool_call> <function=bash> <parameter=command> ls -la </parameter> </function> </tool_call>", nil, calls(readA, lsBlank)},
		{"qwen3-coder line breaks kept", m, "<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\n  indented\n</parameter>\n</function>\n</tool_call>", nil, calls(call("write_file", "path", "a.txt", "content", "  indented"))},
		{"invoke flattened", m, `<function_calls> <invoke name="read_file"> <parameter name="path"> a.go </parameter> </invoke> </function_calls>`, nil, calls(readA)},
		{"glm flattened", "glm-4.6", "<tool_call>read_file <arg_key>path</arg_key> <arg_value> a.go </arg_value> </tool_call>", nil, calls(readA)},
	})
}

// The invoke form under any XML namespace prefix: Anthropic's antml:, Step-3's steptml:,
// MiniMax's minimax: wrapper, and others' own (hermes-agent#83824's atem:).
func TestVariantsInvokeNamespaces(t *testing.T) {
	m := "some-local-model"
	runVariants(t, []variant{
		{"atem wrapper", m, "<atem:function_calls>\n  <atem:invoke name=\"bash\">\n    <atem:parameter name=\"command\">ls -la</atem:parameter>\n  </atem:invoke>\n</atem:function_calls>", nil, calls(lsla)},
		{"other prefix no wrapper", m, `<acme:invoke name="read_file"><acme:parameter name="path">a.go</acme:parameter></acme:invoke>`, nil, calls(readA)},
		{"prefix tool_calls wrapper", m, "Reading it.\n<x-1:tool_calls><x-1:invoke name=\"read_file\">\n<x-1:parameter name=\"path\">a.go</x-1:parameter>\n</x-1:invoke></x-1:tool_calls>", nil, calls(readA)},
		{"two prefixes", m, "<a:invoke name=\"read_file\"><a:parameter name=\"path\">a.go</a:parameter></a:invoke>\n<b:invoke name=\"bash\"><b:parameter name=\"command\">ls -la</b:parameter></b:invoke>", nil, calls(readA, lsla)},
	})
}
