// Command repair is the repair bench (issue 9): a scripted noisy model works through the task
// suite in examples/repair with turn repair on and off, on a real Node (bus, store, tools), and
// the figures are printed. Nothing is asserted.
//
// The model makes one family of mistake per section of issue 9: every call written as text in
// one of twelve formats (Hermes, Qwen3-Coder, fenced JSON, bare JSON, Llama, Mistral, DeepSeek,
// GLM, Kimi, gpt-oss harmony, Gemma tool_code, Python call), the call written in its reasoning,
// one argument defect (aliases, a Python dict, double-encoded JSON, a wrapper object, numbers
// as strings), another harness's tool names (Claude Code, Codex, Gemini CLI, OpenHands), a
// re-sent previous call, and a write that leaves a syntax error (fixed only when the harness
// reports it). "Repair off" is troupe without issue 9's layer (StartSession.NoRepair). A task is
// done when its check holds and every file it wrote parses. Run from the repository root:
//
//	go run ./bench/repair [-rate 0.35] [-seed 9] [-rounds 2]
//	go run ./bench/repair -replay   (the real malformed calls: development and held-out sets, see replay.go)
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools/syntaxcheck"
)

// Task is one task of the suite.
type Task struct {
	Name  string            `json:"name"`
	Task  string            `json:"task"`
	Files map[string]string `json:"files"`
	Steps []Step            `json:"steps"`
	Check struct {
		Path     string `json:"path"`
		Contains string `json:"contains"`
	} `json:"check"`
}

// outcome is one task's run.
type outcome struct {
	done  bool
	turns int
}

// modeResult is the whole suite under one setting.
type modeResult struct {
	outcomes []outcome
	counts   *familyCount
	repairs  store.RepairStats
}

func main() {
	suite := flag.String("suite", "examples/repair/tasks.json", "the task suite")
	rate := flag.Float64("rate", 0.35, "the mistake rate: of turns (i.i.d. noise), of habits (persona)")
	stickiness := flag.Float64("stickiness", -1, "the persona's chance of repeating a mistake after an error (default: from the evidence in persona.go)")
	seed := flag.Int64("seed", 9, "the noisy model's seed")
	maxTurns := flag.Int("max-turns", 30, "each task's turn budget")
	rounds := flag.Int("rounds", 2, "runs of the whole suite per setting, each with its own seeds")
	replay := flag.Bool("replay", false, "replay the corpus of real malformed calls instead of running the tasks")
	corpus := flag.String("corpus", "bench/repair/corpus", "the replay's development set")
	heldout := flag.String("heldout", "bench/repair/heldout", "the replay's held-out set (frozen by its SHA256SUMS)")
	devOnly := flag.Bool("dev-only", false, "with -replay, replay the development set only, never reading the held-out set (what whoever writes parsers runs)")
	showHeldout := flag.Bool("show-heldout", false, "name the held-out set's misses (never while writing parsers: see bench/repair/heldout/README.md)")
	flag.Usage = usage
	flag.Parse()
	if *replay {
		dev, err := loadCorpus(*corpus)
		var held []Case
		if err == nil && !*devOnly {
			held, err = loadHeldout(*heldout)
		}
		switch {
		case err == nil && *devOnly:
			err = replayDevOnly(os.Stdout, dev, *corpus)
		case err == nil:
			err = replayReport(os.Stdout, dev, held, *corpus, *heldout, *showHeldout)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "repair bench:", err)
			os.Exit(2)
		}
		return
	}
	tasks, err := loadSuite(*suite)
	if err != nil {
		fmt.Fprintln(os.Stderr, "repair bench:", err)
		os.Exit(2)
	}
	fmt.Printf("repair bench · %d tasks × %d rounds · seed %d · families %s\n\n", len(tasks), *rounds, *seed, strings.Join(families, ", "))
	run := func(s setting) map[bool]*modeResult {
		results := map[bool]*modeResult{}
		for _, repair := range []bool{true, false} {
			res, err := runSuite(tasks, repair, s, *seed, *rounds, *maxTurns)
			if err != nil {
				fmt.Fprintln(os.Stderr, "repair bench:", err)
				os.Exit(1)
			}
			results[repair] = res
		}
		return results
	}
	fmt.Printf("i.i.d. noise (the first model: every turn redraws a mistake at the rate, rate %.0f%%)\n", *rate*100)
	report(run(iidSetting(*rate)))

	sticky, repeated, total := evidenceStickiness()
	if *stickiness >= 0 {
		sticky = *stickiness
	}
	fmt.Printf("\npersona model: each task's model has each habit at the rate, drawn once; after an error it\n"+
		"repeats the same mistake with probability %.2f (%d of %d reports in persona.go show a repeat)\n\n", sticky, repeated, total)
	fmt.Printf("%-28s %-9s %-9s %-7s %-11s %s\n", "setting", "done on", "done off", "on/off", "turns on/off", "calls repaired (on)")
	var detail map[bool]*modeResult
	for _, r := range []float64{0.1, 0.2, *rate, 0.6} {
		res := run(personaSetting(r, sticky))
		summaryRow(personaSetting(r, sticky).label, res[true], res[false])
		if r == *rate {
			detail = res
		}
	}
	for _, st := range []float64{0.5, 1} {
		res := run(personaSetting(*rate, st))
		summaryRow(personaSetting(*rate, st).label, res[true], res[false])
	}
	fmt.Printf("\npersona model at %.0f%%, sticky %.2f, in detail\n", *rate*100, sticky)
	report(detail)
	throughput()
}

func usage() {
	out := flag.CommandLine.Output()
	fmt.Fprintf(out, `usage: go run ./bench/repair [flags]   (from the repository root)

The repair bench of issue 9: a scripted noisy model runs the task suite with turn repair on and
off and the figures are printed: tasks finished on vs off, turns per task, calls repaired by
kind, mistakes recovered per family and per variant, and the text-call parser's throughput.

Families of mistake: %s
  text            every call as text in one format: %s
  reasoning_call  the call written (Hermes form) in the reasoning, no answer text
  args            one argument defect: %s
  tool_name       one other harness's tool names: %s
  loop            re-sends its previous call once per step
  syntax_error    an edit or write left with a syntax error, fixed only when reported
The i.i.d. model draws a family (and variant) per call at -rate; a persona has each family at
-rate, drawn once per task, with one variant, and repeats a failed call with -stickiness.

-replay instead replays real malformed calls through the session's classifier and admission:
the development set (-corpus) with every miss named, and the held-out set (-heldout, frozen
by its SHA256SUMS) as aggregates only (see bench/repair/heldout/README.md). With -dev-only
the held-out set is not read at all: parsers are written against the development set alone.

Flags:
`, strings.Join(families, ", "), strings.Join(textFormats, ", "), strings.Join(argDefects, ", "), strings.Join(harnesses, ", "))
	flag.PrintDefaults()
}

// runSuite runs every task rounds times under one setting, with repair on or off.
func runSuite(tasks []Task, repair bool, s setting, seed int64, rounds, maxTurns int) (*modeResult, error) {
	res := &modeResult{counts: newFamilyCount(), repairs: store.RepairStats{ByKind: map[string]int{}}}
	for round := range rounds {
		for i, t := range tasks {
			o, err := runTask(t, repair, s.make(seed+int64(round*len(tasks)+i)), maxTurns, res)
			if err != nil {
				return nil, fmt.Errorf("task %s: %w", t.Name, err)
			}
			res.outcomes = append(res.outcomes, o)
		}
	}
	return res, nil
}

func loadSuite(path string) ([]Task, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the suite: %w (run from the repository root)", err)
	}
	var s struct{ Tasks []Task }
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(s.Tasks) == 0 {
		return nil, fmt.Errorf("%s has no tasks", path)
	}
	for _, t := range s.Tasks {
		for i, st := range t.Steps {
			var args map[string]any
			if st.Name == "" || json.Unmarshal(st.Args, &args) != nil {
				return nil, fmt.Errorf("%s: task %s, step %d: a step needs a name and args as a JSON object", path, t.Name, i+1)
			}
		}
	}
	return s.Tasks, nil
}

// runTask runs one task in a fresh project on its own Node and checks the result.
func runTask(t Task, repair bool, choose mistakes, maxTurns int, res *modeResult) (outcome, error) {
	root, err := os.MkdirTemp("", "troupe-repair-"+t.Name+"-")
	if err != nil {
		return outcome{}, err
	}
	defer os.RemoveAll(root)
	if root, err = filepath.EvalSymlinks(root); err != nil {
		return outcome{}, err
	}
	for name, body := range t.Files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return outcome{}, err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return outcome{}, err
		}
	}
	model := newNoisyModel(t.Steps, root, choose, res.counts)
	node, err := actors.StartNode(actors.NodeOptions{Root: root,
		Provider: func(string, string, func(string) string) (llm.Provider, string, error) { return model, "noisy", nil },
		Environ:  []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root},
		Retry:    llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		return outcome{}, err
	}
	defer node.Close()
	client, err := node.Client()
	if err != nil {
		return outcome{}, err
	}
	defer client.Close()
	finished := make(chan *messages.SessionFinishedData, 1)
	var once sync.Once
	if _, err := client.Subscribe(messages.ProjectEventsSubject(node.NS), func(e *messages.Envelope) {
		if e.Type == messages.EventSessionFinished && e.Agent == "root" {
			v, _ := e.DecodeData()
			once.Do(func() { finished <- v.(*messages.SessionFinishedData) })
		}
	}); err != nil {
		return outcome{}, err
	}
	start := &messages.StartSession{ID: "bench-" + t.Name, Task: t.Task, Model: "noisy", Mode: "yolo", Workspace: root,
		MaxTurns: maxTurns, NoRepair: !repair}
	if err := client.StartSession(start); err != nil {
		return outcome{}, err
	}
	select {
	case <-finished:
	case <-time.After(2 * time.Minute):
		return outcome{}, fmt.Errorf("no session.finished within 2 minutes")
	}
	stats, err := client.RepairStats()
	if err != nil {
		return outcome{}, err
	}
	for _, s := range stats {
		res.repairs.Calls += s.Calls
		res.repairs.Repaired += s.Repaired
		for k, n := range s.ByKind {
			res.repairs.ByKind[k] += n
		}
	}
	body, _ := os.ReadFile(filepath.Join(root, t.Check.Path))
	done := strings.Contains(string(body), t.Check.Contains) && writtenFilesParse(root, t)
	model.mu.Lock()
	defer model.mu.Unlock()
	return outcome{done: done, turns: model.turns}, nil
}

// writtenFilesParse says whether every file the task's steps write parses, as far as
// tools/syntaxcheck knows the file's kind (a broken write nobody fixed fails the task).
func writtenFilesParse(root string, t Task) bool {
	var checker syntaxcheck.Checker
	for _, s := range t.Steps {
		if newTextArg(s) == "" {
			continue
		}
		rel := stringArg(decodeArgs(s), "path")
		content, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			continue // never written: the task's check says so
		}
		abs := filepath.Join(root, rel)
		if esm := esModule(rel); esm != rel {
			abs = filepath.Join(root, esm)
			if err := os.WriteFile(abs, content, 0o644); err != nil {
				return false
			}
		}
		if p, _ := checker.Check(context.Background(), abs, esModule(rel), content); p != nil {
			return false
		}
	}
	return true
}

// esModule is the path a .js file is checked under: node 20's --check passes any .js file
// with ES module syntax (export, import) whatever follows, so the bench checks it as .mjs.
// The harness's own check (tools/syntaxcheck) still checks it as .js: what it misses shows.
func esModule(rel string) string {
	if strings.EqualFold(filepath.Ext(rel), ".js") {
		return strings.TrimSuffix(rel, filepath.Ext(rel)) + ".bench-check.mjs"
	}
	return rel
}

// repairedShare is the share of calls the stored counters say were repaired.
func repairedShare(r *modeResult) string {
	if r.repairs.Calls == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.0f%% of %d", 100*float64(r.repairs.Repaired)/float64(r.repairs.Calls), r.repairs.Calls)
}

func report(results map[bool]*modeResult) {
	on, off := results[true], results[false]
	row := func(label, a, b string) { fmt.Printf("%-36s %-16s %s\n", label, a, b) }
	row("", "repair on", "repair off")
	dOn, tOn := finished(on)
	dOff, tOff := finished(off)
	row("tasks finished", fmt.Sprintf("%d of %d", dOn, len(on.outcomes)), fmt.Sprintf("%d of %d", dOff, len(off.outcomes)))
	ratio := "∞"
	if dOff > 0 {
		ratio = fmt.Sprintf("%.1f×", float64(dOn)/float64(dOff))
	}
	row("finished, on vs off", ratio, "")
	row("turns per task (mean)", fmt.Sprintf("%.1f", tOn), fmt.Sprintf("%.1f", tOff))
	row("calls repaired (tool.repaired)", repairedShare(on), repairedShare(off))
	fmt.Println("\nmistakes recovered by family and variant (recovered / made: the task moved on right after\n" +
		"the call; for a syntax error, the fix after the harness's report landed)")
	share := func(r *modeResult, key string) string {
		return fmt.Sprintf("%d / %d", r.counts.recovered[key], r.counts.made[key])
	}
	for _, f := range families {
		if f == "loop" {
			// a repeated call is not an attempt to recover; it is steered, not repaired
			row("  loop (repeated calls made)", fmt.Sprint(on.counts.made["loop"]), fmt.Sprint(off.counts.made["loop"]))
			continue
		}
		row("  "+f, share(on, f), share(off, f))
		for _, v := range variantsMade(f, on, off) {
			key := mistake{f, v}.key()
			row("    "+v, share(on, key), share(off, key))
		}
	}
	fmt.Println("\nrepairs by kind, repair on (the stored per-model counters)")
	for _, k := range slices.Sorted(maps.Keys(on.repairs.ByKind)) {
		row("  "+k, fmt.Sprint(on.repairs.ByKind[k]), "")
	}
}

// variantsMade are family's variants made in either mode, in the order the family lists
// them (a syntax error's variants, the file extensions, sorted).
func variantsMade(family string, on, off *modeResult) []string {
	prefix := family + "/"
	seen := map[string]bool{}
	for _, r := range []*modeResult{on, off} {
		for key := range r.counts.made {
			if v, ok := strings.CutPrefix(key, prefix); ok {
				seen[v] = true
			}
		}
	}
	order := variants[family]
	if len(order) == 0 {
		order = slices.Sorted(maps.Keys(seen))
	}
	var out []string
	for _, v := range order {
		if seen[v] {
			out = append(out, v)
		}
	}
	return out
}
