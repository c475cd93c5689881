package words

import (
	"fmt"

	"gpureport/analyze"
	"gpureport/internal/units"
)

// methodTerms explain, once, the terms the page uses.
var methodTerms = []string{
	"Allocated: memory in live tensors. Reserved: memory the PyTorch caching allocator holds from CUDA (allocated plus cached free). Cached free: reserved but unused, kept for reuse. nvidia-smi used: what the driver reports for the whole GPU, which also counts memory outside the allocator (CUDA context, NCCL buffers, other libraries and processes).",
	"External fragmentation: 1 − largest free block / cached free; high when the free memory is cut into pieces too small for a large request.",
	"Slope: the Theil-Sen estimate, the median of the slopes between every pair of points, which a few outliers do not move; its 95% interval (CI) is where the true growth lies with 95% confidence. p: the Mann-Kendall trend test's probability of seeing this much steady change in a series that does not grow.",
	"Time to capacity: where the fitted line, continued at the run's own pace, reaches the limit: the device's memory less the memory outside the allocator (nvidia-smi used minus reserved), since the allocator cannot use that part.",
	"Stack coverage: the share of live bytes whose allocation stack was recorded; a leak can only be traced to a line of code where stacks exist.",
	"Leak site: the line of your code where a suspect's tensors are allocated. A line reached through several call paths is one suspect per path; the site's rate sums them, with the line's other paths whose live bytes only accumulate, and the headline, the severity and the time to capacity use it. Sites whose live block counts rise by the same number at every snapshot grow in lockstep: one object probably keeps them all alive, such as a loss kept with its autograd graph.",
	"Not a leak: a warm-up (a jump or ramp within the first third of the run), a buffer allocated once (one-time step), growth that stopped for the last third of the run (a bounded cache that filled), and a regular saw-tooth (a buffer filled and flushed). A leak that starts mid-run is fitted from where it starts, so its rate is the rate it grows at.",
}

// Methods explains the page's terms and the thresholds the verdict
// applied.
func Methods(t analyze.Thresholds) []string {
	out := append([]string{}, methodTerms...)
	if t == (analyze.Thresholds{}) {
		return out
	}
	if t.MinPoints > 0 {
		out = append(out, fmt.Sprintf("A trend verdict needs at least %d snapshots.", t.MinPoints))
	}
	if t.Alpha > 0 {
		out = append(out, fmt.Sprintf("A device series grows when the Mann-Kendall test rejects \"no trend\" at %s and the 95%% interval of the Theil-Sen slope lies above zero.", units.Number(t.Alpha)))
	}
	if t.SuspectAlpha > 0 {
		out = append(out, fmt.Sprintf("A stack group is a leak suspect at the stricter level %s, since many groups are tested.", units.Number(t.SuspectAlpha)))
	}
	if t.MinGrowthBytes > 0 || t.MinGrowthShare > 0 {
		out = append(out, fmt.Sprintf("Growth must total at least %s and %s of the steady allocated level to count as a leak.", units.Bytes(t.MinGrowthBytes), units.Percent(t.MinGrowthShare)))
	}
	if t.ExtrapolationRuns > 0 {
		out = append(out, fmt.Sprintf("A projection further ahead than %s× the run's length is marked as a long extrapolation.", units.Number(t.ExtrapolationRuns)))
	}
	return out
}
