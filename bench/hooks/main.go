// Command hooks measures what a hook costs a tool call, and prints it (nothing is asserted).
// It runs the real binary against the scripted provider: one session of -calls read_file
// calls, once per setting — no hook, one trivial PreToolUse hook that matches (exit 0, read
// from the user config), and one that does not match (matcher "bash") — repeated -runs times.
// A call's time is from its tool.started event to its tool.finished event (the envelopes'
// nanosecond timestamps), so it includes the executor's work and the hop back to the session,
// the same in every setting. It prints the median and p90 over all calls of all runs.
//
// Usage: go run ./bench/hooks [-calls 60] [-runs 3]
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/messages"
)

func main() {
	calls := flag.Int("calls", 60, "read_file calls per session")
	runs := flag.Int("runs", 3, "sessions per setting")
	flag.Parse()
	work, err := os.MkdirTemp("", "bench-hooks-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(work)
	bin := filepath.Join(work, "troupe")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/troupe").CombinedOutput(); err != nil {
		fail(fmt.Errorf("build: %v\n%s", err, out))
	}
	repo := filepath.Join(work, "repo")
	os.MkdirAll(repo, 0o755)
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		fail(fmt.Errorf("git init: %v\n%s", err, out))
	}
	var turns []string
	for i := range *calls { // a different file each time: the loop detector stops repeats
		name := fmt.Sprintf("f%03d.txt", i)
		os.WriteFile(filepath.Join(repo, name), []byte(fmt.Sprintf("file %d\n", i)), 0o644)
		turns = append(turns, `{"tool_calls": [{"name": "read_file", "args": {"path": "`+name+`"}}]}`)
	}
	turns = append(turns, `{"text": "done"}`)
	script := filepath.Join(work, "script.json")
	os.WriteFile(script, []byte(`{"turns": [`+strings.Join(turns, ",")+`]}`), 0o644)

	settings := []struct{ name, config string }{
		{"no hook", ""},
		{"one trivial matching hook (exit 0)", "[[hooks.PreToolUse]]\nmatcher = \"read_file\"\ncommand = \"exit 0\"\n"},
		{"one non-matching hook", "[[hooks.PreToolUse]]\nmatcher = \"bash\"\ncommand = \"exit 0\"\n"},
	}
	fmt.Printf("hook overhead per tool call: tool.started → tool.finished, %d read_file calls × %d sessions each\n", *calls, *runs)
	for _, s := range settings {
		home := filepath.Join(work, "home-"+fmt.Sprint(len(s.name)))
		os.MkdirAll(filepath.Join(home, ".config", "troupe"), 0o755)
		os.WriteFile(filepath.Join(home, ".config", "troupe", "config.toml"), []byte(s.config), 0o644)
		var all []time.Duration
		for range *runs {
			d, err := session(bin, repo, home, script)
			if err != nil {
				fail(fmt.Errorf("%s: %w", s.name, err))
			}
			all = append(all, d...)
		}
		slices.Sort(all)
		fmt.Printf("  %-38s median %8s   p90 %8s   (%d calls)\n", s.name, all[len(all)/2].Round(time.Microsecond), all[len(all)*9/10].Round(time.Microsecond), len(all))
	}
}

// session runs one session and returns each call's started→finished time.
func session(bin, repo, home, script string) ([]time.Duration, error) {
	cmd := exec.Command(bin, "run", "--json", "--model", "scripted:"+script, "--mode", "yolo", "--sandbox", "off", "read it")
	cmd.Dir = repo
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, stderr.String())
	}
	started := map[string]time.Time{}
	var took []time.Duration
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var env messages.Envelope
		if json.Unmarshal(sc.Bytes(), &env) != nil {
			continue
		}
		var call struct {
			CallID string `json:"call_id"`
		}
		json.Unmarshal(env.Data, &call)
		switch env.Type {
		case messages.EventToolStarted:
			started[call.CallID] = env.TS
		case messages.EventToolFinished:
			if t, ok := started[call.CallID]; ok {
				took = append(took, env.TS.Sub(t))
			}
		}
	}
	return took, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench/hooks:", err)
	os.Exit(1)
}
