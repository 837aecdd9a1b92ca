package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/internal/gitship"
)

// benchBytes prints the bytes one writing task moves for a repository of mb MB, with the code
// travelling as bundles through the object store and through a shared remote: the base to the
// worker, and the child's branch (5 files edited) back. The first task meets a cold worker;
// the next ones, on the same base, a warm one (medians over tasks-1). Object-store bytes are
// the objects' sizes; git's are, for the worker's fetch of the base, the growth of its cache's
// packs, and for the branch (pushed, then fetched by the parent), the thin pack git sends for it
// to a side that has the base (git pack-objects --thin, as push and fetch make it).
func benchBytes(ctx context.Context, srv *server, work string, mb, tasks int) error {
	parent, nc, js, err := srv.openPart(work, mb)
	if err != nil {
		return err
	}
	defer nc.Close()
	tasks = max(tasks, 2)
	fmt.Printf("bytes per writing task (5 files edited), %s repository, %d tasks on one base:\n", kib(repoSize(parent)), tasks)
	row := func(what string, toWorker, back []int64) {
		fmt.Printf("  %-44s to the worker %-10s back %-10s first task: %s + %s\n", what,
			kib(medianBytes(toWorker[1:])), kib(medianBytes(back[1:])), kib(toWorker[0]), kib(back[0]))
	}

	// Bundles: the parent uploads the base once, the worker downloads it once; each task's
	// branch comes back as its own bundle, which the parent downloads.
	objs, err := gitship.OpenObjects(ctx, js, "benchbytes", 1)
	if err != nil {
		return err
	}
	cache, err := gitship.NewCache(filepath.Join(work, "bytescache"))
	if err != nil {
		return err
	}
	var toWorker, back []int64
	for i := range tasks {
		task := fmt.Sprintf("b%d", i)
		repo, up, err := gitship.Prepare(ctx, parent, task, objs, gitship.PrepareOptions{})
		if err != nil {
			return err
		}
		co, err := cache.Checkout(ctx, "bytes", task, repo, objs)
		if err != nil {
			return err
		}
		if err := editFiles(co.Path, 5, task); err != nil {
			return err
		}
		res, err := cache.Return(ctx, co, objs, gitship.ReturnOptions{})
		if err != nil {
			return err
		}
		toWorker, back = append(toWorker, up+co.Fetched), append(back, 2*res.Bundle.Bytes) // up, then the parent's download
		if err := objs.Forget(ctx, task); err != nil {
			return err
		}
		if err := cache.Remove(ctx, co); err != nil {
			return err
		}
	}
	row("bundles (object store: up + down)", toWorker, back)

	// A shared remote: the base is pushed there by the user already; the worker fetches it,
	// the branch is pushed as refs/troupe/<task>, the parent fetches it and deletes the ref.
	remote := filepath.Join(work, "bytes-remote.git")
	if err := gitRun(work, "init", "-q", "--bare", remote); err != nil {
		return err
	}
	if err := gitRun(parent, "push", "-q", remote, "HEAD:refs/heads/main"); err != nil {
		return err
	}
	rcache, err := gitship.NewCache(filepath.Join(work, "bytesrcache"))
	if err != nil {
		return err
	}
	toWorker, back = nil, nil
	for i := range tasks {
		task := fmt.Sprintf("r%d", i)
		repo, up, err := gitship.Prepare(ctx, parent, task, objs, gitship.PrepareOptions{URL: remote})
		if err != nil {
			return err
		}
		if repo.URL == "" {
			return fmt.Errorf("the shared remote was not used")
		}
		cacheRepo := filepath.Join(work, "bytesrcache", "bytes.git")
		before := packBytes(cacheRepo)
		co, err := rcache.Checkout(ctx, "bytes", task, repo, objs)
		if err != nil {
			return err
		}
		fetched := packBytes(co.Repo) - before
		if err := editFiles(co.Path, 5, task); err != nil {
			return err
		}
		res, err := rcache.Return(ctx, co, objs, gitship.ReturnOptions{PushURL: remote})
		if err != nil || !res.Pushed {
			return fmt.Errorf("push: %v", err)
		}
		pushed, err := thinPack(co.Path, res.Commit, co.Base)
		if err != nil {
			return err
		}
		toWorker, back = append(toWorker, up+fetched), append(back, 2*pushed) // the push, then the parent's fetch
		if err := gitship.Unpush(ctx, parent, remote, res.Branch); err != nil {
			return err
		}
		if err := rcache.Remove(ctx, co); err != nil {
			return err
		}
	}
	row("shared remote (git: fetch; push + fetch)", toWorker, back)
	return nil
}

// thinPack is the size of the thin pack of tip's commits since base, as a push or fetch to a
// repository that has base sends it.
func thinPack(dir, tip, base string) (int64, error) {
	cmd := exec.Command("git", "-C", dir, "pack-objects", "--thin", "--stdout", "--revs", "-q")
	cmd.Stdin = strings.NewReader(tip + "\n^" + base + "\n")
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("git pack-objects: %w", err)
	}
	return int64(len(out)), nil
}

// medianBytes is the median of ns.
func medianBytes(ns []int64) int64 {
	if len(ns) == 0 {
		return 0
	}
	s := slices.Clone(ns)
	slices.Sort(s)
	return s[len(s)/2]
}
