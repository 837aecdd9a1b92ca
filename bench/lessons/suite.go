package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
)

// trap is one pitfall of the suite's project: a command that fails until the fix is made, and
// what the model must see in its request to make it.
type trap struct {
	name   string
	plain  string   // the command a model runs first
	knows  []string // any of these in the request, and the model knows the fix
	reveal string   // the file whose reading shows the fix ("" when the failure says it)
	edit   *[3]string
	fixed  string // the command that passes once the fix is made
	passed string // the passing command's output
	tasks  []string
}

// suiteFiles is the project, written afresh before each session (the traps come back).
var suiteFiles = map[string]string{
	"check.sh": "# the fixtures are generated on demand: run it as TROUPE_FIXTURES=1 sh check.sh\n" +
		"if [ -z \"$TROUPE_FIXTURES\" ]; then echo 'check: fixtures are missing'; exit 1; fi\necho 'check: all good'\n",
	"build.sh": "# config/build.env must say MODE=release for a build\n. ./config/build.env\n" +
		"if [ \"$MODE\" != release ]; then echo 'build: MODE is not release in config/build.env'; exit 1; fi\necho 'build: done'\n",
	"config/build.env": "MODE=debug\n",
	"test.sh":          "if [ \"$1\" != --offline ]; then echo 'test: the network is off here; pass --offline'; exit 1; fi\necho 'test: 12 passed'\n",
}

var traps = []trap{
	{name: "fixtures", plain: "sh check.sh", knows: []string{"TROUPE_FIXTURES=1 sh check.sh"}, reveal: "check.sh",
		fixed: "TROUPE_FIXTURES=1 sh check.sh", passed: "check: all good",
		tasks: []string{"run the checks", "make sure the checks pass before the release", "verify the fixtures check is green", "check the project"}},
	{name: "build-mode", plain: "sh build.sh", knows: []string{"MODE=release"}, reveal: "build.sh",
		edit: &[3]string{"config/build.env", "MODE=debug", "MODE=release"}, fixed: "sh build.sh", passed: "build: done",
		tasks: []string{"build the project", "make a release build", "see that the build works", "build it again"}},
	{name: "offline", plain: "sh test.sh", knows: []string{"sh test.sh --offline", "pass --offline"},
		fixed: "sh test.sh --offline", passed: "test: 12 passed",
		tasks: []string{"run the tests", "make sure the test suite passes", "run the unit tests once more", "test the project"}},
}

// trapModel plays a model meeting one trap. Each reply is a function of the request alone: with
// the fix's text anywhere in it (a lesson, a file it read, the failure) it makes the fix;
// without, it runs the command plainly, then reads the file that explains it.
type trapModel struct {
	t trap
}

func (m *trapModel) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Reply, error) {
	var text strings.Builder
	called := map[string]bool{}
	for _, msg := range req.Messages {
		text.WriteString(msg.Content + "\n")
		for _, c := range msg.ToolCalls {
			called[c.Name+" "+c.Args] = true
		}
	}
	all := text.String()
	knows := false
	for _, k := range m.t.knows {
		knows = knows || strings.Contains(all, k)
	}
	call := func(name, args string) *llm.Reply {
		return &llm.Reply{ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("c%d", len(req.Messages)), Name: name, Args: args}}, Stop: llm.StopToolCalls}
	}
	var reply *llm.Reply
	bash := func(cmd string) string { return fmt.Sprintf(`{"command":%q}`, cmd) }
	switch {
	case strings.Contains(all, m.t.passed+"\n[exit code 0]"): // the command passed, not a file read
		reply = &llm.Reply{Text: "DONE", Stop: llm.StopEnd}
	case knows && m.t.edit != nil && !called["read_file "+fmt.Sprintf(`{"path":%q}`, m.t.edit[0])]:
		reply = call("read_file", fmt.Sprintf(`{"path":%q}`, m.t.edit[0])) // troupe edits only a file read
	case knows && m.t.edit != nil && !called["edit_file "+editArgs(m.t.edit)]:
		reply = call("edit_file", editArgs(m.t.edit))
	case knows:
		reply = call("bash", bash(m.t.fixed))
	case !called["bash "+bash(m.t.plain)]:
		reply = call("bash", bash(m.t.plain))
	case m.t.reveal != "" && !called["read_file "+fmt.Sprintf(`{"path":%q}`, m.t.reveal)]:
		reply = call("read_file", fmt.Sprintf(`{"path":%q}`, m.t.reveal))
	default:
		reply = &llm.Reply{Text: "GAVE UP", Stop: llm.StopEnd}
	}
	in := 0
	for _, msg := range req.Messages {
		in += len(msg.Content) + len(msg.Reasoning)
		for _, c := range msg.ToolCalls {
			in += len(c.Args) + len(c.Name)
		}
	}
	reply.Usage = llm.Usage{InputTokens: (len(req.System) + in) / 4, OutputTokens: 20}
	emit(llm.Event{Kind: llm.EventUsage, Usage: &reply.Usage})
	return reply, nil
}

func editArgs(e *[3]string) string {
	return fmt.Sprintf(`{"path":%q,"old_string":%q,"new_string":%q}`, e[0], e[1], e[2])
}

// sessionResult is one session of the suite.
type sessionResult struct {
	trap          string
	turns, tokens int
	done          bool
	given         int
}

// runSuite plays the sessions with lessons on and off, each mode in its own project.
func runSuite(w io.Writer, sessions int) error {
	fmt.Fprintf(w, "\nscripted suite: %d sessions of one project through the real Node, traps recurring (%d traps, in turn)\n", sessions, len(traps))
	res := map[bool][]sessionResult{}
	for _, on := range []bool{true, false} {
		root, err := os.MkdirTemp("", "troupe-lessons-suite-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(root)
		if root, err = filepath.EvalSymlinks(root); err != nil {
			return err
		}
		for i := 0; i < sessions; i++ {
			t := traps[i%len(traps)]
			task := t.tasks[(i/len(traps))%len(t.tasks)]
			r, err := runSession(root, t, task, i, on)
			if err != nil {
				return fmt.Errorf("lessons %v, session %d: %w", on, i+1, err)
			}
			res[on] = append(res[on], r)
		}
	}
	fmt.Fprintf(w, "  %-8s %-11s %-14s %-14s %s\n", "session", "trap", "turns on/off", "tokens on/off", "lessons given (on)")
	for i := range res[true] {
		a, b := res[true][i], res[false][i]
		fmt.Fprintf(w, "  %-8d %-11s %2d / %-9d %5d / %-8d %d%s\n", i+1, a.trap, a.turns, b.turns, a.tokens, b.tokens, a.given, failMark(a, b))
	}
	for _, on := range []bool{true, false} {
		turns, tokens := column(res[on], func(r sessionResult) int { return r.turns }), column(res[on], func(r sessionResult) int { return r.tokens })
		fmt.Fprintf(w, "  lessons %-3s turns per task: mean %.2f, median %d; tokens per task: mean %.0f, median %d\n",
			onOff(on), mean(turns), median(turns), mean(tokens), median(tokens))
	}
	later := func(on bool) []int {
		var out []int
		for i, r := range res[on] {
			if i >= len(traps) { // the sessions that meet a trap met before
				out = append(out, r.turns)
			}
		}
		return out
	}
	fmt.Fprintf(w, "  sessions meeting a trap met before (%d): mean turns %.2f with lessons, %.2f without\n", len(later(true)), mean(later(true)), mean(later(false)))
	return nil
}

func failMark(a, b sessionResult) string {
	if !a.done || !b.done {
		return "  (a session did not finish its task)"
	}
	return ""
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func column(rs []sessionResult, f func(sessionResult) int) []int {
	out := make([]int, len(rs))
	for i, r := range rs {
		out[i] = f(r)
	}
	return out
}

func mean(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0
	for _, x := range xs {
		s += x
	}
	return float64(s) / float64(len(xs))
}

func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	return s[len(s)/2]
}

// runSession runs one session of the suite on a Node of its own over the project at root.
func runSession(root string, t trap, task string, i int, on bool) (sessionResult, error) {
	for name, body := range suiteFiles {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return sessionResult{}, err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return sessionResult{}, err
		}
	}
	model := &trapModel{t: t}
	node, err := actors.StartNode(actors.NodeOptions{Root: root,
		Provider: func(string, string, func(string) string) (llm.Provider, string, error) { return model, "trap", nil },
		Environ:  []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root},
		Retry:    llm.RetryPolicy{MaxAttempts: 1},
		Lessons:  actors.LessonOptions{Off: !on}})
	if err != nil {
		return sessionResult{}, err
	}
	defer node.Close()
	client, err := node.Client()
	if err != nil {
		return sessionResult{}, err
	}
	defer client.Close()
	r := sessionResult{trap: t.name}
	var mu sync.Mutex
	finished := make(chan *messages.SessionFinishedData, 1)
	if _, err := client.Subscribe(messages.ProjectEventsSubject(node.NS), func(e *messages.Envelope) {
		v, _ := e.DecodeData()
		mu.Lock()
		defer mu.Unlock()
		switch d := v.(type) {
		case *messages.UsageData:
			r.tokens = d.TotalInputTokens + d.TotalOutputTokens
		case *messages.LessonsGivenData:
			r.given += len(d.IDs)
		case *messages.SessionFinishedData:
			select {
			case finished <- d:
			default:
			}
		}
	}); err != nil {
		return r, err
	}
	start := &messages.StartSession{ID: fmt.Sprintf("suite-%d", i+1), Task: task, Model: "trap", Mode: "yolo", Workspace: root, MaxTurns: 12}
	if err := client.StartSession(start); err != nil {
		return r, err
	}
	select {
	case fin := <-finished:
		mu.Lock()
		defer mu.Unlock()
		r.turns, r.done = fin.Turns, fin.Status == messages.StatusDone && fin.Final == "DONE"
		return r, nil
	case <-time.After(2 * time.Minute):
		return r, fmt.Errorf("no session.finished within 2 minutes")
	}
}
