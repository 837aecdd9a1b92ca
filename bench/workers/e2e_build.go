package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// e2eSetup builds the binaries -part e2e runs (the current tree's, and -before's revision from a
// temporary worktree) and parses the lists.
func e2eSetup(work, bin, before, agents, runs, places, pprofDir string) (e2eOptions, error) {
	var o e2eOptions
	var err error
	if o.agents, err = counts(agents); err != nil {
		return o, fmt.Errorf("-agents %q: give counts such as 1000,10000", agents)
	}
	if o.runs, err = counts(runs); err != nil || (len(o.runs) != 1 && len(o.runs) != len(o.agents)) {
		return o, fmt.Errorf("-e2e-runs %q: give one count, or one per -agents count", runs)
	}
	for len(o.runs) < len(o.agents) {
		o.runs = append(o.runs, o.runs[0])
	}
	for _, p := range strings.Split(places, ",") {
		if p = strings.TrimSpace(p); p != "local" && p != "workers" {
			return o, fmt.Errorf("-place %q: give local, workers or both", places)
		}
		o.places = append(o.places, strings.TrimSpace(p))
	}
	var tags []string
	if pprofDir != "" {
		if err := os.MkdirAll(pprofDir, 0o755); err != nil {
			return o, err
		}
		abs, _ := filepath.Abs(pprofDir)
		o.prof = &profiler{dir: abs, seconds: 10}
		tags = []string{"-tags", "troupe_pprof"}
	}
	if before != "" {
		tree := filepath.Join(work, "before-tree")
		if out, err := exec.Command("git", "worktree", "add", "-q", "--detach", tree, before).CombinedOutput(); err != nil {
			return o, fmt.Errorf("check out %s: %v\n%s", before, err, out)
		}
		defer exec.Command("git", "worktree", "remove", "--force", tree).Run()
		path := filepath.Join(work, "troupe-before")
		if err := goBuild(tree, path, tags); err != nil {
			return o, fmt.Errorf("build %s: %w", before, err)
		}
		rev, _ := exec.Command("git", "-C", tree, "rev-parse", "--short", "HEAD").Output()
		fmt.Printf("before: %s (%s)\n", before, strings.TrimSpace(string(rev)))
		o.bins = append(o.bins, binary{"before", path})
	}
	if bin == "" {
		bin = filepath.Join(work, "troupe")
		if err := goBuild(".", bin, tags); err != nil {
			return o, err
		}
		rev, _ := exec.Command("git", "describe", "--always", "--dirty").Output()
		fmt.Printf("after:  the working tree (%s)\n", strings.TrimSpace(string(rev)))
	}
	o.bins = append(o.bins, binary{"after", bin})
	return o, nil
}

// counts parses a comma list of positive numbers.
func counts(list string) ([]int, error) {
	var out []int
	for _, a := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(a))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a count", a)
		}
		out = append(out, n)
	}
	return out, nil
}

func goBuild(dir, out string, tags []string) error {
	args := append([]string{"build"}, tags...)
	cmd := exec.Command("go", append(args, "-o", out, "./cmd/troupe")...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v\n%s", err, b)
	}
	return nil
}
