// Package pprofserve serves net/http/pprof from a troupe process built with -tags troupe_pprof.
package pprofserve

import (
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof" // the profiles bench/workers fetches
	"os"
	"path/filepath"
	"strings"
)

// Built only with -tags troupe_pprof (bench/workers -pprof DIR): every troupe process serves
// net/http/pprof on a loopback port of its own and writes that address to
// $TROUPE_PPROF_DIR/<command>-<pid>.addr, so a bench can take CPU and allocation profiles of the
// Node, the workers and the watcher while they run. Ordinary builds carry none of it.
func init() {
	dir := os.Getenv("TROUPE_PPROF_DIR")
	if dir == "" {
		return
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return
	}
	name := "troupe"
	if len(os.Args) > 1 {
		name = strings.Map(func(r rune) rune {
			if r == '/' || r == ' ' {
				return '_'
			}
			return r
		}, os.Args[1])
	}
	file := filepath.Join(dir, fmt.Sprintf("%s-%d.addr", name, os.Getpid()))
	if os.WriteFile(file, []byte(l.Addr().String()), 0o644) != nil {
		l.Close()
		return
	}
	go http.Serve(l, nil) //nolint:errcheck // lives as long as the process
}
