package pprofserve

import (
	"fmt"
	"net/http"
	"runtime/metrics"
)

// /debug/runtime-metrics prints every runtime/metrics sample that is a single number, one
// "name value" a line: where a process's memory goes (heap objects, free and released pages,
// stacks, GC metadata) beside the heap profile (bench/startup.sh's idle chat).
func init() {
	http.HandleFunc("/debug/runtime-metrics", func(w http.ResponseWriter, _ *http.Request) {
		descs := metrics.All()
		samples := make([]metrics.Sample, len(descs))
		for i, d := range descs {
			samples[i].Name = d.Name
		}
		metrics.Read(samples)
		for _, s := range samples {
			switch s.Value.Kind() {
			case metrics.KindUint64:
				fmt.Fprintf(w, "%s %d\n", s.Name, s.Value.Uint64())
			case metrics.KindFloat64:
				fmt.Fprintf(w, "%s %g\n", s.Name, s.Value.Float64())
			}
		}
	})
}
