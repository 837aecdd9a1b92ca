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
	rate := flag.Float64("rate", 0.35, "the share of turns in which the model makes a mistake")
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
	fmt.Printf("repair bench · %d tasks × %d rounds · mistake rate %.0f%% · seed %d · families %s\n\n", len(tasks), *rounds, *rate*100, *seed, strings.Join(families, ", "))
	results := map[bool]*modeResult{}
	for _, repair := range []bool{true, false} {
		res := &modeResult{counts: newFamilyCount(), repairs: store.RepairStats{ByKind: map[string]int{}}}
		for round := range *rounds {
			for i, t := range tasks {
				o, err := runTask(t, repair, *rate, *seed+int64(round*len(tasks)+i), *maxTurns, res)
				if err != nil {
					fmt.Fprintf(os.Stderr, "repair bench: task %s: %v\n", t.Name, err)
					os.Exit(1)
				}
				res.outcomes = append(res.outcomes, o)
			}
		}
		results[repair] = res
	}
	report(results)
	throughput()
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
func runTask(t Task, repair bool, rate float64, seed int64, maxTurns int, res *modeResult) (outcome, error) {
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
	model := newNoisyModel(t.Steps, rate, seed, res.counts)
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

func report(results map[bool]*modeResult) {
	on, off := results[true], results[false]
	row := func(label, a, b string) { fmt.Printf("%-36s %-16s %s\n", label, a, b) }
	row("", "repair on", "repair off")
	done := func(r *modeResult) (int, float64) {
		n, turns := 0, 0
		for _, o := range r.outcomes {
			turns += o.turns
			if o.done {
				n++
			}
		}
		return n, float64(turns) / float64(len(r.outcomes))
	}
	dOn, tOn := done(on)
	dOff, tOff := done(off)
	row("tasks finished", fmt.Sprintf("%d of %d", dOn, len(on.outcomes)), fmt.Sprintf("%d of %d", dOff, len(off.outcomes)))
	ratio := "∞"
	if dOff > 0 {
		ratio = fmt.Sprintf("%.1f×", float64(dOn)/float64(dOff))
	}
	row("finished, on vs off", ratio, "")
	row("turns per task (mean)", fmt.Sprintf("%.1f", tOn), fmt.Sprintf("%.1f", tOff))
	pct := func(r store.RepairStats) string {
		if r.Calls == 0 {
			return "0%"
		}
		return fmt.Sprintf("%.0f%% of %d", 100*float64(r.Repaired)/float64(r.Calls), r.Calls)
	}
	row("calls repaired (tool.repaired)", pct(on.repairs), pct(off.repairs))
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
