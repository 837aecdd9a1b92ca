package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// profiler takes pprof profiles of every troupe process of a scenario, when the binary was built
// with -tags troupe_pprof (cmd/troupe/pprof_on.go): each process writes its pprof address to
// dir, and the profiler takes a CPU profile of each for the run's first seconds and an
// allocation profile of each at its end. It prints nothing; the profiles are dir/<label>-*.pprof.
type profiler struct {
	dir     string
	seconds int
	wg      sync.WaitGroup
	done    chan struct{} // closed when the scenario's run is over: the CPU windows stop
}

// env is what a troupe process needs in its environment to be profiled ("" when off).
func (p *profiler) env() string {
	if p == nil {
		return ""
	}
	return "TROUPE_PPROF_DIR=" + p.dir
}

// cpu takes CPU profiles of the processes up now and of those that come up within a few
// seconds, in windows of p.seconds, one after another until allocs is called (go tool pprof
// merges the windows: go tool pprof DIR/<label>-<process>.cpu.*.pprof).
func (p *profiler) cpu(label string) {
	if p == nil {
		return
	}
	p.done = make(chan struct{})
	seen := map[string]bool{}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for range 20 {
			for _, a := range p.addrs() {
				if seen[a[0]] {
					continue
				}
				seen[a[0]] = true
				p.wg.Add(1)
				go func() {
					defer p.wg.Done()
					for i := 1; ; i++ {
						to := filepath.Join(p.dir, fmt.Sprintf("%s-%s.cpu.%d.pprof", label, a[0], i))
						if !p.fetch(a[1], fmt.Sprintf("profile?seconds=%d", p.seconds), to) {
							return
						}
						select {
						case <-p.done:
							return
						default:
						}
					}
				}()
			}
			time.Sleep(500 * time.Millisecond)
		}
	}()
}

// allocs takes the allocation profile of every live process.
func (p *profiler) allocs(label string) {
	if p == nil {
		return
	}
	close(p.done)
	p.wg.Wait()
	for _, a := range p.addrs() {
		p.fetch(a[1], "allocs", filepath.Join(p.dir, label+"-"+a[0]+".allocs.pprof"))
		os.Remove(filepath.Join(p.dir, a[0]+".addr")) // the next scenario's processes are others
	}
}

// addrs are the (process name, address) pairs the processes wrote.
func (p *profiler) addrs() [][2]string {
	files, _ := filepath.Glob(filepath.Join(p.dir, "*.addr"))
	var out [][2]string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil {
			out = append(out, [2]string{strings.TrimSuffix(filepath.Base(f), ".addr"), string(b)})
		}
	}
	return out
}

// fetch saves one profile; false when the process did not answer (it is gone).
func (p *profiler) fetch(addr, what, to string) bool {
	resp, err := http.Get("http://" + addr + "/debug/pprof/" + what)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	f, err := os.Create(to)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = io.Copy(f, resp.Body)
	return err == nil && resp.StatusCode == http.StatusOK
}
