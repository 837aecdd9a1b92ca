package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// runSample is one measured troupe process. Times are milliseconds after exec; -1 when unseen
// (phases: absent from the map).
type runSample struct {
	exitMS, firstOutMS      float64
	phases                  map[string]float64 // the trace's phases; the background node's as "node PHASE"
	startNS                 int64              // when the process was started (Unix ns): the phases' zero
	cpuMS, nodeCPUMS        float64            // CPU time of the process (rusage) and of the node it started (-1: none)
	maxRSSKiB               int                // VmHWM, exact, from wait4's rusage
	peakAnonKiB, peakPSSKiB int                // polled every few milliseconds: close to the peak, not exact
	peakFileKiB             int                // file-backed pages mapped (the binary's text and data, Badger's files)
}

// phase is the time of phase p, NaN when unseen.
func (s *runSample) phase(p string) float64 {
	if v, ok := s.phases[p]; ok {
		return v
	}
	return math.NaN()
}

// memPoll is how often a running process's private memory and PSS are sampled. Sampling costs
// CPU on a small machine, so it is not finer.
const memPoll = 3 * time.Millisecond

// runOnce runs `troupe run` once in dir with the start-up trace on and measures it: against
// the scripted model, or, when loopback is set, against the OpenAI-compatible llmtest server
// on 127.0.0.1 (the real wire, llm/openai).
func (b *bench) runOnce(dir, script string, loopback string) (*runSample, error) {
	args := []string{"run", "--model", "scripted:" + script, "hello"}
	if loopback != "" {
		args = []string{"run", "--model", "openai/fake", "--base-url", loopback, "hello"}
	}
	cmd := exec.Command(b.bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TROUPE_TRACE_START=1", "OPENAI_API_KEY=sk-bench")
	// A node the run starts in the background (troupe serve) inherits the trace and writes it
	// to its log: its phases are read from there, on the same clock, as "node PHASE".
	serveLog := filepath.Join(dir, ".troupe", "serve.log")
	var offset int64
	if fi, err := os.Stat(serveLog); err == nil {
		offset = fi.Size()
	}
	s, err := measure(cmd)
	if err != nil {
		return nil, err
	}
	if s.nodePhases(serveLog, offset) {
		s.nodeCPUMS = nodeCPU(dir)
	}
	return s, nil
}

// nodeCPU is the CPU time the project's node process has used so far, in milliseconds (the
// sum of its threads' time on a CPU, /proc/PID/task/*/schedstat), or -1.
func nodeCPU(dir string) float64 {
	raw, err := os.ReadFile(filepath.Join(dir, ".troupe", "node.json"))
	if err != nil {
		return -1
	}
	var info struct {
		PID int `json:"pid"`
	}
	if json.Unmarshal(raw, &info) != nil || info.PID <= 0 {
		return -1
	}
	tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(info.PID), "task", "*", "schedstat"))
	var ns int64
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			v, _ := strconv.ParseInt(f[0], 10, 64)
			ns += v
		}
	}
	if len(tasks) == 0 {
		return -1
	}
	return float64(ns) / 1e6
}

// nodePhases adds the start-up trace lines the background node wrote to its log after offset,
// and reports whether there were any (this run started the node).
func (s *runSample) nodePhases(serveLog string, offset int64) bool {
	f, err := os.Open(serveLog)
	if err != nil {
		return false
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return false
	}
	found := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && fields[0] == "troupe-start" {
			if ns, err := strconv.ParseInt(fields[2], 10, 64); err == nil {
				s.phases["node "+fields[1]] = float64(ns-s.startNS) / 1e6
				found = true
			}
		}
	}
	return found
}

func measure(cmd *exec.Cmd) (*runSample, error) {
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	s := &runSample{exitMS: -1, firstOutMS: -1, nodeCPUMS: -1, phases: map[string]float64{}}
	start := time.Now()
	s.startNS = start.UnixNano()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	outDone := make(chan float64, 1)
	go func() { // owned by measure: ends when the process closes stdout
		var b [1]byte
		first := -1.0
		if n, _ := stdout.Read(b[:]); n > 0 {
			first = sinceMS(start)
		}
		_, _ = io.Copy(io.Discard, stdout)
		outDone <- first
	}()
	errDone := make(chan map[string]float64, 1)
	var tail strings.Builder
	go func() { // owned by measure: ends when the process closes stderr
		phases := map[string]float64{}
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) == 3 && f[0] == "troupe-start" {
				if ns, err := strconv.ParseInt(f[2], 10, 64); err == nil {
					phases[f[1]] = float64(ns-start.UnixNano()) / 1e6
				}
				continue
			}
			tail.WriteString(sc.Text() + "\n")
		}
		errDone <- phases
	}()
	stopPoll := make(chan struct{})
	polled := make(chan memory, 1)
	go func() { // owned by measure: stopped through stopPoll
		var peak memory
		t := time.NewTicker(memPoll)
		defer t.Stop()
		for {
			m := treeMemory(cmd.Process.Pid)
			peak.rssAnon = max(peak.rssAnon, m.rssAnon)
			peak.pss = max(peak.pss, m.pss)
			peak.rssFile = max(peak.rssFile, m.rssFile)
			select {
			case <-stopPoll:
				polled <- peak
				return
			case <-t.C:
			}
		}
	}()
	s.firstOutMS = <-outDone
	s.phases = <-errDone
	err = cmd.Wait()
	s.exitMS = sinceMS(start)
	close(stopPoll)
	peak := <-polled
	s.peakAnonKiB, s.peakPSSKiB, s.peakFileKiB = peak.rssAnon, peak.pss, peak.rssFile
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.maxRSSKiB = int(ru.Maxrss)
		s.cpuMS = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w\n%s", strings.Join(cmd.Args, " "), err, tail.String())
	}
	return s, nil
}

// idleChat measures `troupe chat` idle for 4 s after its Node started (stdin held open).
func (b *bench) idleChat(script string) error {
	dir, err := b.project("idle")
	if err != nil {
		return err
	}
	cmd := exec.Command(b.bin, "chat", "--model", "scripted:"+script)
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	time.Sleep(4 * time.Second) // the measure itself: memory after four idle seconds
	m := treeMemory(cmd.Process.Pid)
	status := filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "status")
	threads := statusKiB(status, "Threads")["Threads"]
	client := statusKiB(status, "RssAnon")["RssAnon"]
	stdin.Close()
	_ = cmd.Wait()
	if err := b.stopNode(dir); err != nil {
		return err
	}
	row("chat idle after 4 s: RSS / RssAnon", fmt.Sprintf("%.1f / %.1f MiB (%d threads)", float64(m.rss)/1024, float64(m.rssAnon)/1024, threads))
	row("chat idle after 4 s: RssAnon client / node", fmt.Sprintf("%.1f / %.1f MiB", float64(client)/1024, float64(m.rssAnon-client)/1024))
	row("chat idle after 4 s: PSS of the process tree", fmt.Sprintf("%.1f MiB", float64(m.pss)/1024))
	return nil
}

// attach measures `troupe run` in a project whose Node already runs under `troupe serve`.
func (b *bench) attach(script string) error { // the Node keeps running: a warm start
	dir, err := b.project("attach")
	if err != nil {
		return err
	}
	serve := exec.Command(b.bin, "serve")
	serve.Dir = dir
	if err := serve.Start(); err != nil {
		return err
	}
	defer func() {
		_ = serve.Process.Signal(syscall.SIGTERM)
		_ = serve.Wait()
	}()
	nodeFile := filepath.Join(dir, ".troupe", "node.json")
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(nodeFile); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("troupe serve did not write %s in 30 s", nodeFile)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, m := range []struct{ what, url string }{{"attach to serve", ""}, {"attach to serve, loopback model", b.loopback}} {
		var samples []*runSample
		for range b.runs {
			s, err := b.runOnce(dir, script, m.url)
			if err != nil {
				return err
			}
			samples = append(samples, s)
		}
		report(m.what, samples, b.runs)
	}
	return nil
}
