package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/internal/initgc"
)

// This test binary links internal/initgc too, but its main is the test runner's: turn the
// collector back on here.
func init() { initgc.Done() }

// TestNoCollectionDuringPackageInit: internal/initgc turns the collector off while packages
// initialise, so the ~3 MB they allocate triggers no collection before main. It fails when a
// dependency initialised before initgc allocates past the collector's first goal.
func TestNoCollectionDuringPackageInit(t *testing.T) {
	cmd := exec.Command(troupeBin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1,gctrace=1", "GOGC=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("troupe version: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(stderr.String(), "\n")
	lastInit := -1
	for i, line := range lines {
		if strings.HasPrefix(line, "init ") {
			lastInit = i
		}
	}
	if lastInit < 0 {
		t.Fatalf("no inittrace lines in:\n%s", stderr.String())
	}
	for _, line := range lines[:lastInit] {
		if strings.HasPrefix(line, "gc ") {
			t.Errorf("a collection ran during package initialisation: %s", line)
		}
	}
}
