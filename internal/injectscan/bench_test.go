package injectscan

import (
	"strings"
	"testing"
)

func BenchmarkScanFact(b *testing.B) {
	text := "Tests run with make check (it runs go vet, the race tests and the linters); never go test alone."
	for b.Loop() {
		Scan(text)
	}
}

func BenchmarkScanEachRule(b *testing.B) {
	text := strings.ToLower("Tests run with make check (it runs go vet, the race tests and the linters); never go test alone.")
	for i, r := range rules {
		b.Run(string(rune('a'+i)), func(b *testing.B) {
			for b.Loop() {
				r.re.FindStringIndex(text)
			}
		})
	}
}
