// Command startbench measures how troupe starts and what memory it holds: a one-shot
// `troupe run` against the scripted model and against a loopback OpenAI-compatible model (exec → exit, exec → first output, each start-up
// phase from TROUPE_TRACE_START=1, peak RSS and peak private memory), `troupe version`, an idle
// `troupe chat`, and a `troupe run` attaching to a Node already running under `troupe serve`.
// Figures are medians over -runs runs in this one process; nothing is asserted. bench/startup.sh
// builds the binary and runs this. -cold and -version compare binaries interleaved instead.
package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/troupe-dev/troupe/llm/llmtest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "startbench:", err)
		var usage usageError
		if errors.As(err, &usage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// usageError is a command line startbench cannot run.
type usageError string

func (e usageError) Error() string { return string(e) }

func run() error {
	bin := flag.String("bin", "", "the troupe binary to measure")
	runs := flag.Int("runs", 11, "runs per measure (medians)")
	peer := flag.String("peer", "", "a peer harness's one-shot command line, run through sh -c, for a ratio (optional)")
	sizes := flag.String("sizes", "", "print what each module adds to this binary and exit")
	cold := flag.String("cold", "", "only the cold one-shot against the loopback model, for these binaries (comma-separated) run interleaved, with each phase's median moment")
	idle := flag.String("idle", "", "only the idle chat (line REPL and TUI) of these binaries (comma-separated), run interleaved: median RssAnon of client and node")
	idleWait := flag.Duration("idlefor", idleFor, "with -idle: how long each chat sits idle before its memory is read")
	versions := flag.String("version", "", "only `troupe version` of these binaries (comma-separated), run interleaved: median wall, exec→main, CPU and minor faults")
	flag.Parse()
	switch {
	case *versions != "":
		return (&bench{runs: *runs}).versionAB(strings.Split(*versions, ","))
	case *sizes != "":
		return moduleSizes(*sizes, 14)
	case *idle == "" && *cold == "" && *bin == "":
		return usageError("pass -bin PATH (the troupe binary to measure)")
	}
	work, err := os.MkdirTemp("", "troupe-startbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	b := &bench{bin: *bin, work: work, runs: *runs, idleFor: *idleWait}
	if *idle != "" {
		return b.idleAB(strings.Split(*idle, ","))
	}
	model := llmtest.NewOpenAI(func(int, map[string]any) llmtest.Reply { return llmtest.Reply{Text: "hi"} })
	defer model.Close()
	b.loopback = model.URL()
	if *cold != "" {
		return b.coldAB(strings.Split(*cold, ","))
	}
	return b.all(*peer)
}

type bench struct {
	bin, work string
	runs      int
	loopback  string        // the base URL of the loopback model
	idleFor   time.Duration // how long an idle chat sits before its memory is read
}

func row(name, value string) { fmt.Printf("%-44s %s\n", name, value) }

func (b *bench) all(peer string) error {
	script := filepath.Join(b.work, "script.json")
	if err := os.WriteFile(script, []byte(`{"turns":[{"text":"hi"}]}`), 0o644); err != nil {
		return err
	}
	if err := b.version(); err != nil {
		return err
	}
	oneShot, err := b.project("oneshot")
	if err != nil {
		return err
	}
	var samples []*runSample
	for range b.runs {
		if err := b.stopNode(oneShot); err != nil {
			return err
		}
		s, err := b.runOnce(oneShot, script, "")
		if err != nil {
			return err
		}
		samples = append(samples, s)
	}
	report("one-shot", samples, b.runs)
	// The same one-shot against a model on 127.0.0.1 speaking the OpenAI-compatible wire: a cold
	// start (no Node running; the Node's start is included) with a real HTTP call in it.
	var loop []*runSample
	for range b.runs {
		if err := b.stopNode(oneShot); err != nil {
			return err
		}
		s, err := b.runOnce(oneShot, script, b.loopback)
		if err != nil {
			return err
		}
		loop = append(loop, s)
	}
	report("one-shot, loopback model", loop, b.runs)
	// Each start flushes the memtable the last run left, a table per run; every run's table
	// holds the store's write stamp, so they overlap, and an open that finds four level-0
	// tables merges them first (store/compaction.go): the count stays at a handful.
	// bench/storecycles measures open time against the number of runs.
	if err := b.stopNode(oneShot); err != nil {
		return err
	}
	tables, _ := filepath.Glob(filepath.Join(oneShot, ".troupe", "db", "*.sst"))
	row(fmt.Sprintf("store tables after %d one-shots", b.runs), fmt.Sprintf("%d", len(tables)))
	if peer != "" {
		b.peer(peer, samples)
	}
	if err := b.idleChat(script); err != nil {
		return err
	}
	if err := b.idleTUI(script); err != nil {
		return err
	}
	return b.attach(script)
}

// project makes a fresh git repository to run troupe in.
func (b *bench) project(name string) (string, error) {
	dir := filepath.Join(b.work, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		return "", fmt.Errorf("git init: %v %s", err, out)
	}
	return dir, nil
}

func (b *bench) version() error {
	var ms, cpu []float64
	for range b.runs * 2 {
		start := time.Now()
		cmd := exec.Command(b.bin, "version")
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("troupe version: %w", err)
		}
		ms = append(ms, sinceMS(start))
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			cpu = append(cpu, float64(ru.Utime.Nano()+ru.Stime.Nano())/1e6)
		}
	}
	row(fmt.Sprintf("troupe version wall (median of %d)", len(ms)), fmt.Sprintf("%.1f ms", median(ms)))
	row("troupe version CPU time (median)", fmt.Sprintf("%.1f ms", median(cpu)))
	return nil
}

// phases are the start-up trace's phases in order; each row is the time from the previous one.
// "node …" are those of the node a cold run starts in the background (troupe serve): its
// exec and package initialisation (→ node awaiting, when it waits for its orders), the orders
// (→ node main), its store and bus (→ node store, → node bus: started together), the session
// start it is asked for (→ node start), that session's setup (→ node session) and the first
// model request it makes.
var phases = []string{"node awaiting", "main", "config", "node main", "node config", "node store", "node bus", "spawned", "store", "bus",
	"attached", "node start", "node session", "node request", "request", "event", "finished", "exit"}

func report(what string, samples []*runSample, n int) {
	pick := func(f func(*runSample) float64) float64 {
		var v []float64
		for _, s := range samples {
			if x := f(s); !math.IsNaN(x) {
				v = append(v, x)
			}
		}
		return median(v)
	}
	row(fmt.Sprintf("%s: exec → exit (median of %d)", what, n), fmt.Sprintf("%.1f ms", pick(func(s *runSample) float64 { return s.exitMS })))
	row(fmt.Sprintf("%s: exec → first event / first output", what), fmt.Sprintf("%.1f / %.1f ms",
		pick(func(s *runSample) float64 { return s.phase("event") }), pick(func(s *runSample) float64 { return unset(s.firstOutMS) })))
	prev := ""
	for _, p := range phases {
		if math.IsNaN(pick(func(s *runSample) float64 { return s.phase(p) })) {
			continue
		}
		from := prev
		label := map[string]string{"main": "init (exec → main)", "exit": "teardown (finished → exit)"}[p]
		if label == "" {
			label = fmt.Sprintf("%s → %s", from, p)
		}
		// A phase may end before the one listed before it: a node started early, in the
		// client's package initialisation, reaches its main before the client's configuration.
		d := pick(func(s *runSample) float64 {
			if from == "" {
				return s.phase(p)
			}
			return s.phase(p) - s.phase(from) // NaN when either is unseen
		})
		row("  phase "+label, fmt.Sprintf("%.2f ms", d))
		prev = p
	}
	cpu := fmt.Sprintf("%.1f ms", pick(func(s *runSample) float64 { return s.cpuMS }))
	if node := pick(func(s *runSample) float64 { return unset(s.nodeCPUMS) }); !math.IsNaN(node) {
		cpu += fmt.Sprintf(" / %.1f ms (node it started, up to the run's exit)", node)
	}
	row(fmt.Sprintf("%s: CPU time", what), cpu)
	row(fmt.Sprintf("%s: peak RSS (VmHWM) / peak RssAnon", what), fmt.Sprintf("%.1f / %.1f MiB",
		pick(func(s *runSample) float64 { return float64(s.maxRSSKiB) / 1024 }), pick(func(s *runSample) float64 { return float64(s.peakAnonKiB) / 1024 })))
	row(fmt.Sprintf("%s: peak RssFile (binary + store mappings)", what), fmt.Sprintf("%.1f MiB",
		pick(func(s *runSample) float64 { return float64(s.peakFileKiB) / 1024 })))
	row(fmt.Sprintf("%s: peak PSS of the process tree", what), fmt.Sprintf("%.1f MiB", pick(func(s *runSample) float64 { return float64(s.peakPSSKiB) / 1024 })))
}

func (b *bench) peer(cmdline string, troupe []*runSample) {
	var ms []float64
	for range b.runs {
		start := time.Now()
		if err := exec.Command("sh", "-c", cmdline).Run(); err != nil {
			row("peer one-shot", fmt.Sprintf("failed: %v", err))
			return
		}
		ms = append(ms, sinceMS(start))
	}
	var t []float64
	for _, s := range troupe {
		t = append(t, s.exitMS)
	}
	row("peer one-shot exec → exit (median)", fmt.Sprintf("%.1f ms (troupe/peer %.2f)", median(ms), median(t)/median(ms)))
}

// unset is v, or NaN for -1 (not measured): what pick leaves out.
func unset(v float64) float64 {
	if v == -1 {
		return math.NaN()
	}
	return v
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func sinceMS(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
