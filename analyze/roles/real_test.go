package roles

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// allocatedOf sums device dev's active_allocated blocks: allocated bytes
// as docs/design.md defines them.
func allocatedOf(s *snapshot.Snapshot, dev int) int64 {
	var n int64
	for _, seg := range s.Segments {
		if seg.Device != dev {
			continue
		}
		for _, b := range seg.Blocks {
			if b.State == snapshot.StateActiveAllocated {
				n += b.Size
			}
		}
	}
	return n
}

// TestRealSnapshotsRolesSumToAllocated classifies every device of every
// real snapshot in ../shared/testdata-real, in full and from its digest,
// and requires the roles to sum to the device's allocated bytes, the
// evidence shares of each role to sum to the role, and the digest to
// give the full decode's roles (at an OOM dump the full trace may tell
// in-flight temporaries apart; their sums must still agree). It logs, per
// file and device, the share of unknown and other memory and the rules
// that decided the most bytes.
func TestRealSnapshotsRolesSumToAllocated(t *testing.T) {
	files := testutil.RealFiles(t, "snapshots", "*.pickle", "*.pkl")
	if len(files) == 0 {
		t.Skip("no real snapshots")
	}
	corpus := map[string]int64{}
	var corpusBytes int64
	var table strings.Builder
	fmt.Fprintf(&table, "%-62s %4s %10s %8s %8s  %s\n", "file", "dev", "allocated", "unknown", "other", "rules deciding most bytes")
	for _, f := range files {
		s, _, err := snapshot.DecodeFile(f, snapshot.DecodeOptions{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		skim, _, err := snapshot.DecodeFile(f, snapshot.DecodeOptions{SkimTrace: true})
		if err != nil {
			t.Errorf("%s: skim: %v", f, err)
			continue
		}
		d := snapshot.Reduce(skim)
		for _, dev := range s.Devices() {
			want := allocatedOf(s, dev)
			_, bd := ClassifySnapshot(s, dev)
			_, dbd := ClassifySnapshot(d, dev)
			var sum int64
			for r := range NumRoles {
				sum += bd.Bytes[r]
				var ev int64
				for e := range NumEvidence {
					ev += bd.ByEvidence[r][e]
				}
				if ev != bd.Bytes[r] {
					t.Errorf("%s device %d: %s's evidence sums to %d, want %d", f, dev, r, ev, bd.Bytes[r])
				}
			}
			if sum != want || bd.Allocated != want {
				t.Errorf("%s device %d: roles sum to %d (Allocated %d), want %d", f, dev, sum, bd.Allocated, want)
			}
			if s.TraceEndsAtOOM(dev) {
				if dbd.Allocated != bd.Allocated {
					t.Errorf("%s device %d: digest classifies %d bytes, full %d", f, dev, dbd.Allocated, bd.Allocated)
				}
			} else if !reflect.DeepEqual(dbd, bd) {
				t.Errorf("%s device %d: digest roles %v differ from the full decode's %v", f, dev, dbd.Bytes, bd.Bytes)
			}
			for _, rs := range bd.Rules {
				corpus[rs.Role.String()+": "+rs.Rule] += rs.Bytes
			}
			corpusBytes += bd.Allocated
			var top []string
			for i, rs := range bd.Rules {
				if i == 3 {
					break
				}
				top = append(top, fmt.Sprintf("%s %.0f%% (%s)", rs.Role, 100*float64(rs.Bytes)/float64(max(bd.Allocated, 1)), rs.Rule))
			}
			fmt.Fprintf(&table, "%-62s %4d %9.1fM %7.1f%% %7.1f%%  %s\n", testutil.Rel(t, f), dev, float64(want)/(1<<20),
				100*bd.Fraction(Unknown), 100*bd.Fraction(Other), strings.Join(top, "; "))
		}
	}
	t.Log("\n" + table.String())
	rules := make([]string, 0, len(corpus))
	for r := range corpus {
		rules = append(rules, r)
	}
	slices.SortFunc(rules, func(a, b string) int { return cmp.Or(cmp.Compare(corpus[b], corpus[a]), cmp.Compare(a, b)) })
	var sum strings.Builder
	fmt.Fprintf(&sum, "rules by bytes decided over all real snapshots (%.1f GiB):\n", float64(corpusBytes)/(1<<30))
	for _, r := range rules {
		fmt.Fprintf(&sum, "%6.1f%%  %s\n", 100*float64(corpus[r])/float64(max(corpusBytes, 1)), r)
	}
	t.Log("\n" + sum.String())
}
