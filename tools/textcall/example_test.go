package textcall_test

import (
	"fmt"

	"github.com/troupe-dev/troupe/tools/textcall"
)

// A reply classifier recovers calls a model wrote as text; Known keeps prose that merely
// mentions a tool from becoming a call.
func ExampleParse() {
	reply := "I will read the file.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>"
	known := func(name string) bool { return name == "read_file" }
	res := textcall.Parse(reply, textcall.Options{Known: known})
	for _, c := range res.Calls {
		fmt.Println(c.Format, c.Name, string(c.Args))
	}
	fmt.Printf("prose: %q partial: %v\n", res.Prose, res.Partial)
	// Output:
	// hermes read_file {"path":"a.go"}
	// prose: "I will read the file." partial: false
}

// Looks separates a malformed attempt from a final answer when Parse finds no call.
func ExampleLooks() {
	broken := "<tool_call>read the file a.go please</tool_call>"
	fmt.Println(len(textcall.Parse(broken, textcall.Options{}).Calls), textcall.Looks(broken))
	fmt.Println(textcall.Looks("All tests pass."))
	// Output:
	// 0 true
	// false
}
