package store

import (
	"runtime"
	"strings"
	"testing"
)

// BenchmarkOpen opens a fresh store and reports the heap it holds once open (heap-MiB): the
// number the small-footprint options exist for (Badger's defaults hold ~85 MiB).
func BenchmarkOpen(b *testing.B) {
	var heap float64
	for b.Loop() {
		dir := b.TempDir()
		s, err := Open(dir, nil)
		if err != nil {
			b.Fatalf("Open: %v", err)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = float64(ms.HeapAlloc) / (1 << 20)
		if err := s.Close(); err != nil {
			b.Fatalf("Close: %v", err)
		}
	}
	b.ReportMetric(heap, "heap-MiB")
}

// BenchmarkAppend appends turn-sized batches (an assistant call and a 2 KiB result).
func BenchmarkAppend(b *testing.B) {
	s, _ := openTemp(b)
	output := strings.Repeat("x", 2<<10)
	b.ReportAllocs()
	for b.Loop() {
		call := &Entry{Kind: KindAssistant, Text: "running it", Calls: []Call{{ID: "c", Name: "bash", Args: `{"cmd":"go test ./..."}`}}}
		result := &Entry{Kind: KindToolResult, CallID: "c", ToolName: "bash", Text: output}
		if err := s.Append("bench", call, result); err != nil {
			b.Fatalf("Append: %v", err)
		}
	}
}
