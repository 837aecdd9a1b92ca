// Command storecycles measures how a project store ages under one-shot runs: each cycle is a
// process of its own (this program re-executed) that opens the store, writes what a short
// `troupe run` session writes (through the store API the session uses), syncs and exits without
// closing, as `troupe run` does (actors.Node.CloseForExit); -close closes it instead, as a
// process that closes its Node does. At each checkpoint it prints the open and the exit (sync or
// close) times, medians and maxima over the cycles since the previous checkpoint (at most 20),
// the number of table files and the store's size. Nothing is asserted.
//
// Usage: go run ./bench/storecycles [-cycles 10,100,500] [-prefill-mib 200] [-close] [-dir DIR]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

func main() {
	checkpoints := flag.String("cycles", "10,100,500", "checkpoints: print after this many one-shot cycles")
	prefill := flag.Int("prefill-mib", 0, "first write this many MiB of transcripts in one long open (a store used for months)")
	dir := flag.String("dir", "", "store directory (default: a temporary one, removed after)")
	closeStore := flag.Bool("close", false, "each run closes the store instead of syncing and exiting")
	child := flag.Int("child", -1, "internal: run one cycle with this number and print its times")
	flag.Parse()
	if *child >= 0 {
		if err := oneShot(*dir, *child, *closeStore); err != nil {
			fmt.Fprintln(os.Stderr, "storecycles child:", err)
			os.Exit(1)
		}
		os.Exit(0) // without closing anything, as troupe run exits
	}
	marks, err := parseCheckpoints(*checkpoints)
	if err != nil {
		fmt.Fprintln(os.Stderr, "storecycles:", err)
		os.Exit(2)
	}
	if err := run(marks, *prefill, *dir, *closeStore); err != nil {
		fmt.Fprintln(os.Stderr, "storecycles:", err)
		os.Exit(1)
	}
}

func parseCheckpoints(s string) ([]int, error) {
	var marks []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("-cycles %q: want positive counts separated by commas, e.g. 10,100,500", s)
		}
		marks = append(marks, n)
	}
	slices.Sort(marks)
	return marks, nil
}

func run(marks []int, prefillMiB int, dir string, closeStore bool) error {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "storecycles-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	if prefillMiB > 0 {
		start := time.Now()
		if err := prefill(dir, prefillMiB<<20); err != nil {
			return fmt.Errorf("prefill: %w", err)
		}
		fmt.Printf("prefilled %d MiB of transcripts in %.1f s\n", prefillMiB, time.Since(start).Seconds())
	}
	exit := "sync+exit"
	if closeStore {
		exit = "close"
	}
	fmt.Printf("%-7s %9s %9s %9s %9s %6s %8s   (ms; exit = %s)\n", "cycles", "open", "max open", "exit", "max exit", ".sst", "MiB", exit)
	var opens, exits []time.Duration
	done := 0
	for _, mark := range marks {
		opens, exits = opens[:0], exits[:0]
		for ; done < mark; done++ {
			o, e, err := spawnOneShot(dir, done, closeStore)
			if err != nil {
				return fmt.Errorf("cycle %d: %w", done+1, err)
			}
			opens, exits = append(opens, o), append(exits, e)
		}
		tables, bytes, err := storeSize(dir)
		if err != nil {
			return err
		}
		o, e := tail(opens, 20), tail(exits, 20)
		fmt.Printf("%-7d %9.2f %9.2f %9.2f %9.2f %6d %8.1f\n", mark, ms(median(o)), ms(slices.Max(o)),
			ms(median(e)), ms(slices.Max(e)), tables, float64(bytes)/(1<<20))
	}
	return nil
}

// spawnOneShot runs cycle n in a process of its own and reads back its open and exit times.
func spawnOneShot(dir string, n int, closeStore bool) (open, exit time.Duration, err error) {
	args := []string{"-child", strconv.Itoa(n), "-dir", dir}
	if closeStore {
		args = append(args, "-close")
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, 0, fmt.Errorf("one-shot process: %w", err)
	}
	if _, err := fmt.Sscan(string(out), &open, &exit); err != nil {
		return 0, 0, fmt.Errorf("one-shot process said %q: %w", out, err)
	}
	return open, exit, nil
}

// oneShot is one `troupe run`: open, a short session (a prompt, three tool turns, an answer,
// the meta written at start and end, a sync at each turn boundary), then a sync (or a close). It
// prints the open and exit times in nanoseconds.
func oneShot(dir string, n int, closeStore bool) error {
	start := time.Now()
	s, err := store.Open(dir, nil)
	if err != nil {
		return err
	}
	open := time.Since(start)
	id := fmt.Sprintf("%s-%06d", time.Now().UTC().Format("20060102-150405"), n)
	if err := writeSession(s, id, 3, 2<<10); err != nil {
		return err
	}
	start = time.Now()
	finish := s.Sync
	if closeStore {
		finish = s.Close
	}
	if err := finish(); err != nil {
		return err
	}
	fmt.Println(int64(open), int64(time.Since(start)))
	return nil
}

// writeSession writes a session the way the session actor does: PutMeta at start, one
// AppendWithMeta per entry, Sync at turn boundaries, PutMeta when done.
func writeSession(s *store.Store, id string, turns, outputBytes int) error {
	meta := &store.SessionMeta{ID: id, Model: "scripted:bench", Task: "fix the failing test", Status: string(messages.StatusRunning)}
	if err := s.PutMeta(meta); err != nil {
		return err
	}
	if err := s.AppendWithMeta(meta, &store.Entry{Kind: store.KindUser, Text: "fix the failing test in ./store"}); err != nil {
		return err
	}
	output := strings.Repeat("ok  \tgithub.com/troupe-dev/troupe/store\t0.412s\n", outputBytes/44+1)[:outputBytes]
	for t := range turns {
		callID := fmt.Sprintf("c%d", t)
		meta.Turns++
		call := &store.Entry{Kind: store.KindAssistant, Text: "running the tests", Model: meta.Model,
			Calls: []store.Call{{ID: callID, Name: "bash", Args: `{"cmd":"go test ./store/"}`}}}
		if err := s.AppendWithMeta(meta, call); err != nil {
			return err
		}
		result := &store.Entry{Kind: store.KindToolResult, CallID: callID, ToolName: "bash", Text: output}
		if err := s.AppendWithMeta(meta, result); err != nil {
			return err
		}
		if err := s.Sync(); err != nil {
			return err
		}
	}
	if err := s.AppendWithMeta(meta, &store.Entry{Kind: store.KindAssistant, Text: "fixed", Model: meta.Model}); err != nil {
		return err
	}
	meta.Status = string(messages.StatusDone)
	return s.PutMeta(meta)
}

// prefill writes total bytes of transcripts in one open: sessions of 40 tool turns with
// outputs of 1 to 8 KiB, as a store used for months holds.
func prefill(dir string, total int) error {
	s, err := store.Open(dir, nil)
	if err != nil {
		return err
	}
	written := 0
	for n := 0; written < total; n++ {
		id := fmt.Sprintf("20260101-000000-%06d", n)
		size := 1<<10 + (n%8)<<10
		if err := writeSession(s, id, 40, size); err != nil {
			s.Close()
			return err
		}
		written += 40 * size
	}
	return s.Close()
}

func storeSize(dir string) (tables int, bytes int64, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, 0, err
	}
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			return 0, 0, err
		}
		if filepath.Ext(e.Name()) == ".sst" {
			tables++
		}
		bytes += info.Size()
	}
	return tables, bytes, nil
}

func tail(d []time.Duration, n int) []time.Duration { return d[max(0, len(d)-n):] }

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
