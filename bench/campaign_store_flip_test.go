package bench

// Bit-flip trials on the store's files and the stall-detection time of a provider stream. A
// silent change (text that differs from what was written, or an entry gone, with no error and
// no damage report) is what must never happen.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/llm/llmtest"
	"github.com/troupe-dev/troupe/store"
)

type flipCounts struct {
	trials, refused, entryReported, harmless, silent, panics int
	byKind                                                   map[string]int
}

func TestStoreCampaignBitFlips(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 6))
	c := flipCounts{byKind: map[string]int{}}
	for trial := 0; trial < storeCampaignFlips; trial++ {
		dir := t.TempDir()
		clean := trial%2 == 0
		want := writeFlipStore(t, dir, rng, clean)
		file, kind := pickStoreFile(t, dir, rng)
		flipOneBit(t, file, rng)
		c.trials++
		if !clean {
			kind += "(after kill -9)"
		}
		c.byKind[kind]++
		switch outcome := checkAfterFlip(dir, want); outcome {
		case "refused":
			c.refused++
		case "reported":
			c.entryReported++
		case "harmless":
			c.harmless++
		case "panic":
			c.panics++
		default:
			c.silent++
			t.Logf("trial %d: flipping a bit of %s changed the store silently: %s", trial, filepath.Base(file), outcome)
		}
	}
	report := fmt.Sprintf("bit-flip campaign (seed %d): %d trials (files %v): %d silent changes, %d detected (%d refused at open, %d entries reported damaged), %d harmless (unused bytes), %d panics",
		seed, c.trials, c.byKind, c.silent, c.refused+c.entryReported, c.refused, c.entryReported, c.harmless, c.panics)
	fmt.Println(report)
	if c.silent != 0 || c.panics != 0 {
		t.Fatal(report)
	}
}

// flipText is entry j of session i; every fourth is past the 32 KiB value threshold, so the
// value log holds it.
func flipText(i, j int, salt uint64) string {
	text := fmt.Sprintf("session %d entry %d %d ", i, j, salt)
	if j%4 == 1 {
		text = strings.Repeat(text, 40<<10/len(text)+1)
	}
	return text
}

// writeFlipSessions writes three sessions of six entries into s.
func writeFlipSessions(s *store.Store, salt uint64) error {
	for i := 0; i < 3; i++ {
		var entries []*store.Entry
		for j := 0; j < 6; j++ {
			entries = append(entries, &store.Entry{Kind: store.KindUser, Text: flipText(i, j, salt)})
		}
		if err := s.AppendWithMeta(&store.SessionMeta{ID: fmt.Sprintf("s%d", i), Status: "done"}, entries...); err != nil {
			return err
		}
	}
	return nil
}

const flipChildEnv = "TROUPE_FLIP_CHILD" // "<dir> <salt>"

// TestStoreCampaignFlipChild is not a test on its own: unclean trials re-execute the test
// binary to write the sessions in a child that is then killed with -9, so the writes are left
// in write-ahead files as after a crash.
func TestStoreCampaignFlipChild(t *testing.T) {
	arg := os.Getenv(flipChildEnv)
	if arg == "" {
		t.Skip("runs only as the bit-flip campaign's child")
	}
	var dir string
	var salt uint64
	fmt.Sscan(arg, &dir, &salt)
	s, err := store.Open(dir, nil)
	if err == nil {
		err = writeFlipSessions(s, salt)
	}
	if err != nil {
		fmt.Println("child:", err)
		os.Exit(1)
	}
	fmt.Println("written")
	select {} // until killed
}

// writeFlipStore writes the sessions and returns what each log must say. A clean trial closes
// the store (the data lands in tables); an unclean one kills the writer with -9.
func writeFlipStore(t *testing.T, dir string, rng *rand.Rand, clean bool) map[string][]string {
	t.Helper()
	salt := rng.Uint64()
	want := map[string][]string{}
	for i := 0; i < 3; i++ {
		for j := 0; j < 6; j++ {
			want[fmt.Sprintf("s%d", i)] = append(want[fmt.Sprintf("s%d", i)], flipText(i, j, salt))
		}
	}
	if clean {
		s, err := store.Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := writeFlipSessions(s, salt); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return want
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoreCampaignFlipChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d", flipChildEnv, dir, salt))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if !strings.HasPrefix(line, "written") {
		t.Fatalf("flip child: %q", line)
	}
	return want
}

// pickStoreFile picks one of the store's non-empty data files, each kind equally likely.
func pickStoreFile(t *testing.T, dir string, rng *rand.Rand) (path, kind string) {
	t.Helper()
	byKind := map[string][]string{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		info, err := e.Info()
		if err != nil || info.Size() == 0 {
			continue
		}
		kind := strings.TrimPrefix(filepath.Ext(e.Name()), ".")
		if e.Name() == "MANIFEST" {
			kind = "MANIFEST"
		}
		switch kind {
		case "MANIFEST", "sst", "vlog", "mem":
			byKind[kind] = append(byKind[kind], filepath.Join(dir, e.Name()))
		}
	}
	kinds := make([]string, 0, len(byKind))
	for _, k := range []string{"MANIFEST", "sst", "vlog", "mem"} {
		if len(byKind[k]) > 0 {
			kinds = append(kinds, k)
		}
	}
	kind = kinds[rng.IntN(len(kinds))]
	files := byKind[kind]
	return files[rng.IntN(len(files))], kind
}

func flipOneBit(t *testing.T, path string, rng *rand.Rand) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[rng.IntN(len(data))] ^= 1 << rng.IntN(8)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// checkAfterFlip opens the store and compares every session with what was written: "refused"
// (Open reported damage), "reported" (an entry came back marked damaged), "harmless" (all
// equal), "panic", or a description of a silent change.
func checkAfterFlip(dir string, want map[string][]string) (outcome string) {
	defer func() {
		if p := recover(); p != nil {
			outcome = "panic"
		}
	}()
	s, err := store.Open(dir, nil)
	if err != nil {
		if errors.Is(err, store.ErrDamaged) {
			return "refused"
		}
		return "open failed without a damage report: " + err.Error()
	}
	defer s.Close()
	reported := false
	for id, texts := range want {
		log, err := s.Log(id)
		if err != nil {
			return fmt.Sprintf("session %s unreadable: %v", id, err)
		}
		if len(log) != len(texts) {
			return fmt.Sprintf("session %s has %d entries, want %d", id, len(log), len(texts))
		}
		for i, e := range log {
			switch {
			case e.Event == store.DamagedEntryEvent:
				reported = true
			case e.Text != texts[i]:
				return fmt.Sprintf("session %s entry %d text changed", id, i+1)
			}
		}
	}
	if reported {
		return "reported"
	}
	return "harmless"
}

// TestStoreCampaignStallDetection measures how long a stream that stalls after its first chunk
// takes to fail and be retried, with a short idle timeout.
func TestStoreCampaignStallDetection(t *testing.T) {
	srv := llmtest.NewOpenAI(func(n int, _ map[string]any) llmtest.Reply {
		if n%2 == 0 {
			return llmtest.Reply{Text: "stalls after this", StallAfter: 2}
		}
		return llmtest.Reply{Text: "whole"}
	})
	defer srv.Close()
	p, _, err := llm.Open("openai/m", llm.Options{BaseURL: srv.URL(), Getenv: func(string) string { return "sk-test" }})
	if err != nil {
		t.Fatal(err)
	}
	idle := testwait.Scale(500 * time.Millisecond)
	var detected []time.Duration
	for i := 0; i < 3; i++ {
		start := time.Now()
		var at time.Duration
		_, err := llm.StreamWithRetry(context.Background(), p, &llm.Request{Model: "m"}, func(llm.Event) {}, llm.RetryPolicy{
			IdleTimeout: idle,
			OnRetry: func(ri llm.RetryInfo) {
				if errors.Is(ri.Err, llm.ErrStreamStalled) {
					at = time.Since(start)
				}
			},
			Sleep: func(context.Context, time.Duration) error { return nil },
		})
		if err != nil || at == 0 {
			t.Fatalf("trial %d: stall not detected and retried: %v", i, err)
		}
		detected = append(detected, at)
	}
	fmt.Printf("stall detection: idle timeout %v, detected and retried after %v\n", idle, detected)
}
