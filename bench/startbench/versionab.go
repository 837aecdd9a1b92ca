package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// versionAB runs `troupe version` of each binary in turn (a, b, a, b, …) b.runs times and
// prints each one's median wall time, CPU time (rusage) and minor page faults: a before/after
// pair taken under the same load, which the halves of a BEFORE= run of bench/startup.sh are
// not. Binaries to compare should be in the same page-cache state (both as the linker left
// them, or both dropped and read back), which moves the figure by milliseconds
// (bench/SIZES.md).
func (b *bench) versionAB(bins []string) error {
	wall := make([][]float64, len(bins))
	cpu := make([][]float64, len(bins))
	faults := make([][]float64, len(bins))
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
		}
	}
	fmt.Printf("troupe version, %d interleaved runs, load %s\n", b.runs, loadAvg())
	for i, bin := range bins {
		row("  "+bin, fmt.Sprintf("wall %.2f ms · CPU %.2f ms · minor faults %.0f",
			median(wall[i]), median(cpu[i]), median(faults[i])))
	}
	return nil
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
