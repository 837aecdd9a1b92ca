package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/actors/turn"
)

// throughput times the text-call parser the classifier uses over a 1 MB reply: prose, calls
// and broken calls mixed.
func throughput() {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		switch i % 4 {
		case 0:
			b.WriteString("Some prose about the change, naming read_file and bash without calling them. ")
		case 1:
			fmt.Fprintf(&b, "<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"f%d.go\"}}</tool_call>\n", i)
		case 2:
			b.WriteString("<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \n")
		default:
			b.WriteString(strings.Repeat("{[\"<", 8) + "\n")
		}
	}
	text := b.String()
	known := func(name string) bool { return name == "read_file" || name == "bash" }
	parse := turn.Textcall("")
	const rounds = 5
	start := time.Now()
	calls := 0
	for range rounds {
		calls = len(parse(text, known).Calls)
	}
	per := time.Since(start) / rounds
	fmt.Printf("\ntext-call parser on a %.1f MB reply: %v per parse (%.0f MB/s), %d calls found\n",
		float64(len(text))/(1<<20), per.Round(time.Microsecond), float64(len(text))/(1<<20)/per.Seconds(), calls)
}
