package main

import (
	"bufio"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// releaseStartupPages asks the kernel to reclaim the read-only pages of troupe's own binary
// that are resident now. Most of them were touched once — package initialisation of the
// provider SDKs, the embedded NATS server and Badger — and are never needed again, yet they
// count against the process's RSS for its whole life. MADV_PAGEOUT only reclaims: a page that
// is needed again is faulted back in from the page cache or the file, so nothing can be lost.
// Writable mappings are left alone. Errors are ignored: this is an optimisation, and kernels
// before 5.4 do not know MADV_PAGEOUT.
func releaseStartupPages() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// 00400000-01e4e000 r-xp 00000000 08:01 1234 /path/to/troupe
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[5] != exe || strings.Contains(fields[1], "w") {
			continue
		}
		lo, hi, ok := strings.Cut(fields[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		_, _, _ = unix.Syscall(unix.SYS_MADVISE, uintptr(start), uintptr(end-start), unix.MADV_PAGEOUT)
	}
}

// releaseIdleMemory returns what an idle process holds without needing: freed heap goes back to
// the system and startup-only pages of the binary are reclaimed.
func releaseIdleMemory() {
	debug.FreeOSMemory()
	releaseStartupPages()
}
