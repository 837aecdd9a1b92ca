package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/internal/taskstate"
	"github.com/troupe-dev/troupe/store"
)

// ensureRepo returns the generated parent repository, making it on first use.
func ensureRepo(work string, mb int) (string, error) {
	parent := filepath.Join(work, "parent")
	if _, err := os.Stat(filepath.Join(parent, ".git")); err == nil {
		return parent, nil
	}
	return parent, makeRepo(parent, mb)
}

// benchState mirrors a transcript through a worker store's commit hook and restores it into
// another store, and checkpoints and restores a worktree of the generated repository.
func benchState(ctx context.Context, srv *server, work string, mb, runs int) error {
	const entries = 1000
	nc, js, err := srv.connect()
	if err != nil {
		return err
	}
	defer nc.Close()
	text := strings.Repeat("tool output line\n", 120) // about 2 KB an entry
	var mirrorRates []float64
	var restores []time.Duration
	for run := range runs {
		project := fmt.Sprintf("benchs%d", run)
		objs, err := gitship.OpenObjects(ctx, js, project, 1)
		if err != nil {
			return err
		}
		state, err := taskstate.Open(ctx, js, project, objs, 1)
		if err != nil {
			return err
		}
		st, err := store.Open(filepath.Join(work, fmt.Sprintf("store%d", run)), nil)
		if err != nil {
			return err
		}
		var failed error
		m := state.NewMirror(nil, func(err error) { failed = err })
		m.Track("task", nil)
		st.SetCommitHook(m.Hook())
		start := time.Now()
		if err := st.PutMeta(&store.SessionMeta{ID: "task"}); err != nil {
			return err
		}
		for i := range entries {
			if err := st.Append("task", &store.Entry{Kind: store.KindToolResult, CallID: fmt.Sprint(i), Text: text}); err != nil {
				return err
			}
		}
		if err := m.Flush(ctx); err != nil {
			return err
		}
		mirrorRates = append(mirrorRates, entries/time.Since(start).Seconds())
		m.Close()
		st.Close()
		if failed != nil {
			return failed
		}
		other, err := store.Open(filepath.Join(work, fmt.Sprintf("other%d", run)), nil)
		if err != nil {
			return err
		}
		start = time.Now()
		r, err := state.Restore(ctx, other, "task")
		if err != nil {
			return err
		}
		restores = append(restores, time.Since(start))
		other.Close()
		if r.Added != entries {
			return fmt.Errorf("restored %d entries, want %d", r.Added, entries)
		}
	}
	fmt.Printf("\nstate: a transcript of %d entries of %s each\n", entries, kib(int64(len(text))))
	fmt.Printf("  mirrored (appended, hooked, in the bucket)     %.0f entries/s\n", medianF(mirrorRates))
	fmt.Printf("  restored into another worker's store           %s\n", ms(median(restores)))

	parent, err := ensureRepo(work, mb)
	if err != nil {
		return err
	}
	var ckpts, unchanged, restoresWT []time.Duration
	var ckptBytes int64
	for run := range runs {
		project := fmt.Sprintf("benchw%d", run)
		objs, err := gitship.OpenObjects(ctx, js, project, 1)
		if err != nil {
			return err
		}
		repo, _, err := gitship.Prepare(ctx, parent, "w1", objs, gitship.PrepareOptions{})
		if err != nil {
			return err
		}
		cache, _ := gitship.NewCache(filepath.Join(work, fmt.Sprintf("wcache%d", run)))
		co, err := cache.Checkout(ctx, project, "w1", repo, objs)
		if err != nil {
			return err
		}
		if err := editFiles(co.Path, 3, "child"); err != nil {
			return err
		}
		start := time.Now()
		if ckptBytes, err = cache.Checkpoint(ctx, co, objs); err != nil {
			return err
		}
		ckpts = append(ckpts, time.Since(start))
		start = time.Now()
		if _, err := cache.Checkpoint(ctx, co, objs); err != nil {
			return err
		}
		unchanged = append(unchanged, time.Since(start))
		other, _ := gitship.NewCache(filepath.Join(work, fmt.Sprintf("wother%d", run)))
		co2, err := other.Checkout(ctx, project, "w1", repo, objs)
		if err != nil {
			return err
		}
		start = time.Now()
		if ok, err := other.Restore(ctx, co2, objs); err != nil || !ok {
			return fmt.Errorf("restore: %v, %w", ok, err)
		}
		restoresWT = append(restoresWT, time.Since(start))
	}
	fmt.Printf("  worktree checkpoint after 3 edits (%s repo)   %s, %s uploaded\n", kib(repoSize(parent)), ms(median(ckpts)), kib(ckptBytes))
	fmt.Printf("  checkpoint with nothing changed since           %s (nothing uploaded)\n", ms(median(unchanged)))
	fmt.Printf("  worktree restored on another worker             %s (after its checkout)\n", ms(median(restoresWT)))
	return nil
}
