package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// memory is what /proc says about a process tree at one moment, in KiB.
type memory struct {
	rss, rssAnon, rssFile, hwm, pss int
}

// statusKiB reads the named "Key: N kB" fields of /proc/PID/status or smaps_rollup.
func statusKiB(path string, keys ...string) map[string]int {
	out := map[string]int{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		for _, want := range keys {
			if k == want {
				fields := strings.Fields(v)
				if len(fields) > 0 {
					out[k], _ = strconv.Atoi(fields[0])
				}
			}
		}
	}
	return out
}

// treeMemory sums the memory of pid and its descendants: PSS from smaps_rollup (shared pages
// split between the processes that map them), RSS and RssAnon from status; hwm is pid's own.
func treeMemory(pid int) memory {
	var m memory
	for _, p := range append([]int{pid}, descendants(pid)...) {
		st := statusKiB(filepath.Join("/proc", strconv.Itoa(p), "status"), "VmRSS", "RssAnon", "RssFile", "VmHWM")
		m.rss += st["VmRSS"]
		m.rssAnon += st["RssAnon"]
		m.rssFile += st["RssFile"]
		if p == pid {
			m.hwm = st["VmHWM"]
		}
		m.pss += statusKiB(filepath.Join("/proc", strconv.Itoa(p), "smaps_rollup"), "Pss")["Pss"]
	}
	return m
}

// descendants lists the processes below pid (children, grandchildren, …).
func descendants(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so parse after the last ')'.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 {
			parent[p], _ = strconv.Atoi(f[1])
		}
	}
	var out []int
	frontier := []int{pid}
	for len(frontier) > 0 {
		next := frontier[0]
		frontier = frontier[1:]
		for p, pp := range parent {
			if pp == next {
				out = append(out, p)
				frontier = append(frontier, p)
			}
		}
	}
	return out
}
