package snapshot

import (
	"os"
	"path/filepath"
	"testing"

	"gpureport/internal/testutil"
)

// minCostEntries is the fewest trace entries a real snapshot needs to be
// measured per entry: below it the live blocks, not the trace, make most
// of the file and of its decode time.
const minCostEntries = 4000

// BenchmarkTraceEntryCost measures what a trace entry costs gpureport
// when it reads the real snapshots whose traces hold at least
// minCostEntries entries: decode time per entry, in full and skimmed (the
// digest path, which builds no stack per event), and the file's bytes per
// entry. Both divide the whole file's cost by its entries, so they are an
// upper bound of the trace's share; on the trace-dominated files (20,000
// entries) it is most of it. The capture kit's sizing advice (README,
// "Sizing the capture") quotes them.
//
//	go test -run='^$' -bench=TraceEntryCost ./snapshot
func BenchmarkTraceEntryCost(b *testing.B) {
	for _, p := range testutil.RealFiles(b, "snapshots", "*.pickle") {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		s, _, err := DecodeBytes(data, DecodeOptions{})
		if err != nil {
			continue
		}
		entries := 0
		for _, tr := range s.Traces {
			entries += len(tr)
		}
		if entries < minCostEntries {
			continue
		}
		for _, mode := range []struct {
			name string
			opt  DecodeOptions
		}{{"full", DecodeOptions{}}, {"skim", DecodeOptions{SkimTrace: true}}} {
			b.Run(filepath.Base(p)+"/"+mode.name, func(b *testing.B) {
				for b.Loop() {
					if _, _, err := DecodeBytes(data, mode.opt); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(entries), "ns/entry")
				b.ReportMetric(float64(len(data))/float64(entries), "B/entry")
			})
		}
	}
}
