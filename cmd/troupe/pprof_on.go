//go:build troupe_pprof

package main

import _ "github.com/troupe-dev/troupe/cmd/troupe/internal/pprofserve" // bench/workers -pprof
