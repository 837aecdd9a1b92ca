// Command repair is the repair bench (issue 9): a scripted noisy model works through the task
// suite in examples/repair with turn repair on and off, on a real Node (bus, store, tools), and
// the figures are printed. Nothing is asserted. Run from the repository root:
//
//	go run ./bench/repair [-rate 0.35] [-seed 9] [-rounds 2]
//	go run ./bench/repair -replay   (the corpus of real malformed calls, see replay.go)
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
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
	corpus := flag.String("corpus", "bench/repair/corpus", "the replay corpus directory")
	flag.Parse()
	if *replay {
		cases, err := loadCorpus(*corpus)
		if err == nil {
			err = replayReport(cases)
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
	model := newNoisyModel(t.Steps, choose, res.counts)
	node, err := actors.StartNode(actors.NodeOptions{Root: root,
		Provider: func(string, string) (llm.Provider, string, error) { return model, "noisy", nil },
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
	model.mu.Lock()
	defer model.mu.Unlock()
	return outcome{done: strings.Contains(string(body), t.Check.Contains), turns: model.turns}, nil
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
	fmt.Println("\nmistakes recovered by family (recovered / made: the task moved on right after the call)")
	for _, f := range families {
		if f == "loop" {
			continue // a repeated call is not an attempt to recover; it is steered, not repaired
		}
		share := func(r *modeResult) string {
			return fmt.Sprintf("%d / %d", r.counts.recovered[f], r.counts.made[f])
		}
		row("  "+f, share(on), share(off))
	}
	row("  loop (repeated calls made)", fmt.Sprint(on.counts.made["loop"]), fmt.Sprint(off.counts.made["loop"]))
	kinds := make([]string, 0, len(on.repairs.ByKind))
	for k := range on.repairs.ByKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	fmt.Println("\nrepairs by kind, repair on (the stored per-model counters)")
	for _, k := range kinds {
		row("  "+k, fmt.Sprint(on.repairs.ByKind[k]), "")
	}
}
