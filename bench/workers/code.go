package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/messages"
)

// words make the generated files: text that compresses about as well as source code.
var words = strings.Fields(`func return if else for range package import type struct interface
map string int error nil true false var const defer go select case switch default break continue
ctx err value key name path file data result config server client request response handler
buffer reader writer stream message session agent task worker node store bucket commit branch`)

// makeRepo writes mb MB of generated files into a new repository at dir and commits them.
func makeRepo(dir string, mb int) error {
	r := rand.New(rand.NewPCG(1, 2))
	const fileSize = 20 << 10
	files := mb << 20 / fileSize
	for i := range files {
		var b strings.Builder
		for b.Len() < fileSize {
			line := r.IntN(12) + 3
			b.WriteString(strings.Repeat("\t", r.IntN(3)))
			for w := range line {
				if w > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(words[r.IntN(len(words))])
				if r.IntN(5) == 0 {
					b.WriteString(strconv.Itoa(r.IntN(100000)))
				}
			}
			b.WriteByte('\n')
		}
		p := filepath.Join(dir, fmt.Sprintf("pkg%02d/file%04d.go", i%40, i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	if err := gitRun(dir, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	if err := gitRun(dir, "add", "-A"); err != nil {
		return err
	}
	if err := gitRun(dir, "commit", "-q", "-m", "generated"); err != nil {
		return err
	}
	// Packed, as git gc leaves a repository that has lived a while: bundling loose objects
	// first compresses them all (half a minute here), which a real repository rarely needs.
	return gitRun(dir, "repack", "-adq")
}

func gitRun(dir string, args ...string) error {
	_, err := gitOut(dir, args...)
	return err
}

func gitOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@b", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@b")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

func gitVersion() string {
	out, _ := exec.Command("git", "--version").Output()
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "git version ")
}

// packBytes is the size of a repository's packs and loose objects: what fetching into it
// moved, for a shared remote (git count-objects -v, KiB).
func packBytes(dir string) int64 {
	out, _ := gitOut(dir, "count-objects", "-v")
	var total int64
	for l := range strings.SplitSeq(out, "\n") {
		k, v, _ := strings.Cut(l, ": ")
		if k == "size" || k == "size-pack" {
			n, _ := strconv.ParseInt(v, 10, 64)
			total += n << 10
		}
	}
	return total
}

func editFiles(dir string, n int, tag string) error {
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("pkg%02d/file%04d.go", i%40, i))
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		fmt.Fprintf(f, "// %s edit %d\n", tag, i)
		f.Close()
	}
	return nil
}

func repoSize(dir string) int64 {
	var total int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if info, err := d.Info(); err == nil && d.Type().IsRegular() {
			total += info.Size()
		}
		return nil
	})
	return total
}

func benchCode(ctx context.Context, srv *server, work string, mb, runs int) error {
	parent, nc, js, err := srv.openPart(work, mb)
	if err != nil {
		return err
	}
	defer nc.Close()
	fmt.Printf("code: a generated repository of %s in %d files (one commit; pseudo-random words,\n", kib(repoSize(parent)), mb<<20/(20<<10))
	fmt.Printf("      packed as git gc leaves it: %s)\n", kib(packBytes(parent)))
	row := func(what string, up, down int64, prep, fetch string) {
		fmt.Printf("  %-48s up %-10s down %-10s prepare %-8s checkout %s\n", what, kib(up), kib(down), prep, fetch)
	}

	// Through the object store: each run a fresh bucket, so the first task is cold every run.
	var first, warm *gitship.Checkout
	var firstUp, sameUp, incUp int64
	var incDown int64
	var prepCold, coCold, prepWarm, coWarm, prepInc, coInc []int64
	for run := range runs {
		objs, err := gitship.OpenObjects(ctx, js, fmt.Sprintf("bench%d", run), 1)
		if err != nil {
			return err
		}
		cache, err := gitship.NewCache(filepath.Join(work, fmt.Sprintf("cache%d", run)))
		if err != nil {
			return err
		}
		var repo *messages.TaskRepo
		d, err := timed(func() (e error) {
			repo, firstUp, e = gitship.Prepare(ctx, parent, "t1", objs, gitship.PrepareOptions{})
			return
		})
		if err != nil {
			return err
		}
		prepCold = append(prepCold, d)
		d, err = timed(func() (e error) { first, e = cache.Checkout(ctx, "bench", "t1", repo, objs); return })
		if err != nil {
			return err
		}
		coCold = append(coCold, d)
		d, err = timed(func() (e error) {
			repo, sameUp, e = gitship.Prepare(ctx, parent, "t2", objs, gitship.PrepareOptions{})
			return
		})
		if err != nil {
			return err
		}
		prepWarm = append(prepWarm, d)
		d, err = timed(func() (e error) { warm, e = cache.Checkout(ctx, "bench", "t2", repo, objs); return })
		if err != nil {
			return err
		}
		coWarm = append(coWarm, d)
		// One more commit touching 3 files: the next base travels as the difference.
		if err := editFiles(parent, 3, fmt.Sprintf("run%d", run)); err != nil {
			return err
		}
		if err := gitRun(parent, "commit", "-qam", "small change"); err != nil {
			return err
		}
		d, err = timed(func() (e error) {
			repo, incUp, e = gitship.Prepare(ctx, parent, "t3", objs, gitship.PrepareOptions{})
			return
		})
		if err != nil {
			return err
		}
		prepInc = append(prepInc, d)
		var co *gitship.Checkout
		d, err = timed(func() (e error) { co, e = cache.Checkout(ctx, "bench", "t3", repo, objs); return })
		if err != nil {
			return err
		}
		coInc, incDown = append(coInc, d), co.Fetched
	}
	row("bundle, first task, cold worker", firstUp, first.Fetched, msMedian(prepCold), msMedian(coCold))
	row("bundle, next task, same base, warm worker", sameUp, warm.Fetched, msMedian(prepWarm), msMedian(coWarm))
	row("bundle, after a 3-file commit, warm worker", incUp, incDown, msMedian(prepInc), msMedian(coInc))

	// Uncommitted changes, and a writing child's branch coming back.
	objs, _ := gitship.OpenObjects(ctx, js, "benchdirty", 1)
	cache, _ := gitship.NewCache(filepath.Join(work, "cachedirty"))
	if err := editFiles(parent, 3, "uncommitted"); err != nil {
		return err
	}
	repo, up, err := gitship.Prepare(ctx, parent, "d1", objs, gitship.PrepareOptions{})
	if err != nil {
		return err
	}
	patch := int64(len(repo.Patch.Inline))
	if repo.Patch.Ref != nil {
		patch = repo.Patch.Ref.Bytes
	}
	co, err := cache.Checkout(ctx, "bench", "d1", repo, objs)
	if err != nil {
		return err
	}
	fmt.Printf("  %-48s %s (inline in the SpawnTask: %v)\n", "patch of 3 uncommitted edits", kib(patch), repo.Patch.Ref == nil)
	// The generated repository is shared by the parts that follow (-part all): leave its tree
	// clean again, as they expect (a worktree child refuses uncommitted changes).
	if err := gitRun(parent, "checkout", "-q", "--", "."); err != nil {
		return err
	}
	if err := editFiles(co.Path, 5, "child"); err != nil {
		return err
	}
	res, err := cache.Return(ctx, co, objs, gitship.ReturnOptions{})
	if err != nil {
		return err
	}
	fmt.Printf("  %-48s %s\n", "returned branch (5 files edited), bundle", kib(res.Bundle.Bytes))
	_ = up

	// Through a shared remote: what a cold worker's fetch moves, and a push back.
	remote := filepath.Join(work, "remote.git")
	if err := gitRun(work, "init", "-q", "--bare", remote); err != nil {
		return err
	}
	if err := gitRun(parent, "push", "-q", remote, "HEAD:refs/heads/main"); err != nil {
		return err
	}
	var coldFetch int64
	var prepRemote, coRemote []int64
	for run := range runs {
		cache, _ := gitship.NewCache(filepath.Join(work, fmt.Sprintf("rcache%d", run)))
		var repo *messages.TaskRepo
		d, err := timed(func() (e error) {
			repo, _, e = gitship.Prepare(ctx, parent, "r1", objs, gitship.PrepareOptions{URL: remote})
			return
		})
		if err != nil {
			return err
		}
		prepRemote = append(prepRemote, d)
		var co *gitship.Checkout
		d, err = timed(func() (e error) { co, e = cache.Checkout(ctx, "bench", "r1", repo, objs); return })
		if err != nil {
			return err
		}
		coRemote = append(coRemote, d)
		coldFetch = packBytes(co.Repo)
	}
	row("shared remote, first task, cold worker (pack)", 0, coldFetch, msMedian(prepRemote), msMedian(coRemote))
	fmt.Println("  shared remote, warm worker: the base is already in the cache, nothing moves but the patch")
	return nil
}

func timed(f func() error) (int64, error) {
	d, err := timeIt(1, func(int) error { return f() })
	return int64(d), err
}

func msMedian(ns []int64) string {
	ds := make([]time.Duration, len(ns))
	for i, n := range ns {
		ds[i] = time.Duration(n)
	}
	return ms(median(ds))
}
