package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// versionAB runs `troupe version` of each binary in turn (a, b, a, b, …) b.runs times and
// prints each one's median wall time, CPU time (rusage), minor page faults and exec → main (the
// start-up trace's first phase: the runtime's start and package initialisation, as the client
// of every command pays them). The traced run is a second run of each round, so the other
// columns stay those of a plain `troupe version`. A before/after pair taken this way shares
// the load, which the halves of a BEFORE= run of bench/startup.sh do not. Binaries to compare
// should be in the same page-cache state (both as the linker left them, or both dropped and
// read back), which moves the figure by milliseconds (bench/SIZES.md).
func (b *bench) versionAB(bins []string) error {
	wall := make([][]float64, len(bins))
	cpu := make([][]float64, len(bins))
	faults := make([][]float64, len(bins))
	toMain := make([][]float64, len(bins))
	for range b.runs {
		for i, bin := range bins {
			start := time.Now()
			cmd := exec.Command(bin, "version")
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("%s version: %w", bin, err)
			}
			wall[i] = append(wall[i], sinceMS(start))
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				cpu[i] = append(cpu[i], float64(ru.Utime.Nano()+ru.Stime.Nano())/1e6)
				faults[i] = append(faults[i], float64(ru.Minflt))
			}
			ms, err := execToMain(bin)
			if err != nil {
				return err
			}
			toMain[i] = append(toMain[i], ms)
		}
	}
	fmt.Printf("troupe version, %d interleaved runs, load %s\n", b.runs, loadAvg())
	for i, bin := range bins {
		row("  "+bin, fmt.Sprintf("wall %.2f ms · exec→main %.2f ms · CPU %.2f ms · minor faults %.0f",
			median(wall[i]), median(toMain[i]), median(cpu[i]), median(faults[i])))
	}
	return nil
}

// execToMain runs `bin version` with the start-up trace on and returns the time from just
// before the exec to its "main" phase, in milliseconds.
func execToMain(bin string) (float64, error) {
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "TROUPE_TRACE_START=1")
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s version (traced): %w", bin, err)
	}
	for line := range strings.Lines(stderr.String()) {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "troupe-start" && f[1] == "main" {
			ns, err := strconv.ParseInt(f[2], 10, 64)
			if err != nil {
				break
			}
			return float64(ns-start.UnixNano()) / 1e6, nil
		}
	}
	return 0, fmt.Errorf("%s version: no \"troupe-start main\" line with TROUPE_TRACE_START=1", bin)
}

// loadAvg is the machine's 1, 5 and 15 minute load averages, to print beside a figure.
func loadAvg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(raw))
	return strings.Join(f[:min(3, len(f))], " ")
}
