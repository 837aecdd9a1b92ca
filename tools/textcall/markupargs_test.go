package textcall

import (
	"strings"
	"testing"
)

func TestMarkupArgs(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"<parameter=pattern>**</parameter>", `{"pattern":"**"}`},
		{"<parameter=path>\na.go\n</parameter>\n<parameter=limit>\n5\n</parameter>", `{"path":"a.go","limit":"5"}`},
		{" <parameter=command> ls -la </parameter> ", `{"command":"ls -la"}`},
		{"<arg_key>path</arg_key><arg_value>a.go</arg_value>", `{"path":"a.go"}`},
		{"<arg_key>path</arg_key>\n<arg_value>a.go</arg_value>\n<arg_key>limit</arg_key>\n<arg_value>5</arg_value>", `{"path":"a.go","limit":"5"}`},
		{`<parameter name="path">a.go</parameter>`, `{"path":"a.go"}`},
		{`<parameter name="path" string="true">a.go</parameter><parameter name="limit" string="false">5</parameter>`, `{"path":"a.go","limit":5}`},
	} {
		got, ok := MarkupArgs(tc.raw)
		if !ok || string(got) != tc.want {
			t.Errorf("MarkupArgs(%q) = %s, %v; want %s", tc.raw, got, ok, tc.want)
		}
	}
	for _, raw := range []string{
		"", "ls -R", `{"path": "a.go"}`, "<b>bold</b>", "<parameter=path>a.go", "<parameter=path>",
		"<arg_key>path</arg_key>", "<parameter=path>a.go</parameter> trailing words",
		`<parameter name="path">a.go`, strings.Repeat("<parameter=a>", 1<<17) + "</parameter>",
	} {
		if got, ok := MarkupArgs(raw); ok {
			t.Errorf("MarkupArgs(%q) = %s, want not markup", raw, got)
		}
	}
}

func FuzzMarkupArgs(f *testing.F) {
	for _, s := range []string{"<parameter=pattern>**</parameter>", "<arg_key>k</arg_key><arg_value>v</arg_value>", `<parameter name="k">v</parameter>`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if args, ok := MarkupArgs(raw); ok {
			checkCall(t, Call{Name: "x", Args: args, Format: FormatTagPair})
		}
	})
}
