package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// proc is a long-running troupe process and the lines it prints.
type proc struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
}

func (p *proc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

type stamped struct {
	at   time.Time
	text string
}

type lineLog struct {
	mu    sync.Mutex
	lines []stamped
}

func (l *lineLog) all() []stamped {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]stamped(nil), l.lines...)
}

func (l *lineLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.lines)
}

// settle waits until no line has come for quiet (at most limit): the last events reach the log.
func (l *lineLog) settle(quiet, limit time.Duration) {
	deadline := time.Now().Add(limit)
	n, since := l.count(), time.Now()
	for time.Now().Before(deadline) && time.Since(since) < quiet {
		time.Sleep(100 * time.Millisecond)
		if m := l.count(); m != n {
			n, since = m, time.Now()
		}
	}
}

// startProc starts bin args in dir and, when ready is not "", waits until a line contains it.
func startProc(bin, dir string, env []string, ready string, args ...string) (*proc, *lineLog, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	p := &proc{cmd: cmd, stderr: &bytes.Buffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	log := &lineLog{}
	up := make(chan struct{})
	var once sync.Once
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			line := sc.Text()
			log.mu.Lock()
			log.lines = append(log.lines, stamped{time.Now(), line})
			log.mu.Unlock()
			if ready != "" && strings.Contains(line, ready) {
				once.Do(func() { close(up) })
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	if ready == "" {
		return p, log, nil
	}
	select {
	case <-up:
		return p, log, nil
	case <-time.After(2 * time.Minute):
		p.stop()
		return nil, nil, fmt.Errorf("troupe %s did not print %q: %s", args[0], ready, p.stderr.String())
	}
}

// memory is one process's peak resident set (VmHWM, kept by the kernel) and peak anonymous
// resident memory (RssAnon, sampled), in KiB.
type memory struct{ peak, anon int64 }

// sampler polls the processes' /proc status while a scenario runs: the kernel keeps the peak
// RSS, but RssAnon (the heap and stacks, without the mapped binary) only as it is now.
type sampler struct {
	mu   sync.Mutex
	pids map[string]int
	mem  map[string]memory
	stop chan struct{}
	done chan struct{}
}

func newSampler() *sampler {
	s := &sampler{pids: map[string]int{}, mem: map[string]memory{}, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			s.sample()
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

func (s *sampler) watch(name string, pid int) {
	s.mu.Lock()
	s.pids[name] = pid
	s.mu.Unlock()
	s.sample()
}

func (s *sampler) sample() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, pid := range s.pids {
		hwm, anon := procStatus(pid)
		m := s.mem[name]
		m.peak, m.anon = max(m.peak, hwm), max(m.anon, anon)
		s.mem[name] = m
	}
}

// finish takes a last sample and stops polling.
func (s *sampler) finish() map[string]memory {
	s.sample()
	close(s.stop)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mem
}

// procStatus reads a live process's VmHWM and RssAnon in KiB (0 when it cannot).
func procStatus(pid int) (hwm, anon int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	field := func(l, name string) (int64, bool) {
		v, ok := strings.CutPrefix(l, name)
		if !ok {
			return 0, false
		}
		n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		return n, true
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if n, ok := field(l, "VmHWM:"); ok {
			hwm = n
		} else if n, ok := field(l, "RssAnon:"); ok {
			anon = n
		}
	}
	return hwm, anon
}

// loadAvg is the machine's 1-minute load average as /proc/loadavg says it.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
