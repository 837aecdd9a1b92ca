package bench

// Bit-flip trials on the store's files and the stall-detection time of a provider stream. A
// silent change (text that differs from what was written, or an entry gone, with no error and
// no damage report) is what must never happen.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
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
		want := writeFlipStore(t, dir, rng)
		file, kind := pickStoreFile(t, dir, rng)
		flipOneBit(t, file, rng)
		c.trials++
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

// writeFlipStore writes three sessions (some entries past the value threshold, so the value
// log holds them), closes the store cleanly, and returns what each session's log must say.
func writeFlipStore(t *testing.T, dir string, rng *rand.Rand) map[string][]string {
	t.Helper()
	s, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	for i := 0; i < 3; i++ {
		id := fmt.Sprintf("s%d", i)
		var entries []*store.Entry
		for j := 0; j < 6; j++ {
			text := fmt.Sprintf("session %d entry %d %d ", i, j, rng.Uint64())
			if rng.IntN(4) == 0 {
				text = strings.Repeat(text, 40<<10/len(text)+1) // past the 32 KiB value threshold
			}
			entries = append(entries, &store.Entry{Kind: store.KindUser, Text: text})
			want[id] = append(want[id], text)
		}
		if err := s.AppendWithMeta(&store.SessionMeta{ID: id, Status: "done"}, entries...); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
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
