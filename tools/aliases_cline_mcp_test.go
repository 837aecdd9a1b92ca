package tools

import (
	"testing"

	"github.com/troupe-dev/troupe/tools/textcall"
)

// Cline's use_mcp_tool (its system prompt's example: server_name, tool_name, arguments as
// JSON text in the XML form) is a call to that server's tool as this session offers it;
// a server or tool the session lacks is refused, never mapped onto a built-in tool.
func TestClineUseMCPTool(t *testing.T) {
	forecast := argsTool{name: MCPToolName("weather-server", "get_forecast"),
		schema: `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`}
	reg, err := NewRegistry(append(Builtins(), forecast)...)
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Root: t.TempDir()}
	cases := []struct{ args, tool, want string }{
		{`{"server_name":"weather-server","tool_name":"get_forecast","arguments":{"city":"San Francisco","days":5}}`, forecast.name, `{"city":"San Francisco","days":5}`},
		{`{"server_name":"weather-server","tool_name":"get_forecast","arguments":"{\n  \"city\": \"Oslo\"\n}"}`, forecast.name, `{"city":"Oslo"}`},
		{`{"server_name":"weather-server","tool_name":"get_alerts","arguments":{}}`, "", ""},
		{`{"server_name":"fs","tool_name":"read_file","arguments":{"path":"a.go"}}`, "", ""},
		{`{"tool_name":"get_forecast"}`, "", ""},
	}
	for _, tc := range cases {
		a := reg.Admit(env, Call{ID: "1", Name: "use_mcp_tool", Args: tc.args})
		switch {
		case tc.tool == "" && a.Refusal == "":
			t.Errorf("%s: admitted as %s %s, want refused", tc.args, a.Name, a.Args)
		case tc.tool != "" && (a.Refusal != "" || a.Name != tc.tool || !sameJSON(t, string(a.Args), tc.want)):
			t.Errorf("%s: got %s %s (refusal %q), want %s %s", tc.args, a.Name, a.Args, a.Refusal, tc.tool, tc.want)
		}
	}
	// the XML form as Cline's prompt teaches it, read by the text-call parser
	text := "<use_mcp_tool>\n<server_name>weather-server</server_name>\n<tool_name>get_forecast</tool_name>\n<arguments>\n{\n  \"city\": \"San Francisco\",\n  \"days\": 5\n}\n</arguments>\n</use_mcp_tool>"
	p := textcall.Parse(text, textcall.Options{Known: reg.Knows})
	if len(p.Calls) != 1 {
		t.Fatalf("parsed %+v, want one call", p)
	}
	a := reg.Admit(env, Call{ID: "1", Name: p.Calls[0].Name, Args: string(p.Calls[0].Args)})
	if a.Refusal != "" || a.Name != forecast.name || !sameJSON(t, string(a.Args), `{"city":"San Francisco","days":5}`) {
		t.Errorf("XML form: got %s %s (refusal %q)", a.Name, a.Args, a.Refusal)
	}
}
